// pino-roll ships no types: the part of its API the app uses (it returns a sonic-boom stream).
declare module 'pino-roll' {
  import type { EventEmitter } from 'node:events';
  interface PinoRollOptions {
    file: string;
    size?: string | number;
    extension?: string;
    mkdir?: boolean;
    sync?: boolean;
    maxLength?: number;
    mode?: number;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
  }
  export interface RollStream extends EventEmitter {
    write(chunk: string): boolean;
    end(): void;
    readonly file: string;
  }
  export default function pinoRoll(options: PinoRollOptions): Promise<RollStream>;
}
