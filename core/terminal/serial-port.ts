// The slice of serialport the terminal link relies on, so the real SerialPort and SerialPortMock
// (or any stand-in) can be passed in.
import type { SerialPort } from 'serialport';
import type { SerialPortInfo } from '../../shared/terminal';

/** A port as serialport lists it (only `path` is certain). */
export type PortInfo = Awaited<ReturnType<typeof SerialPort.list>>[number];

export interface SerialPortLike {
  readonly isOpen: boolean;
  open(callback: (err: Error | null) => void): void;
  close(callback?: (err: Error | null) => void): void;
  write(data: Buffer, callback?: (err: Error | null | undefined) => void): boolean;
  drain(callback: (err: Error | null) => void): void;
  pipe<T extends NodeJS.WritableStream>(destination: T): T;
  unpipe(destination?: NodeJS.WritableStream): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'close', listener: (err?: (Error & { disconnected?: boolean }) | null) => void): unknown;
  removeListener(event: 'data', listener: (chunk: Buffer) => void): unknown;
}

export interface SerialPortClass {
  new (options: { path: string; baudRate: number; autoOpen: false }): SerialPortLike;
  list?: () => Promise<PortInfo[]>;
}

/** A listed port as the renderer gets it: empty fields left out. */
export function toPortInfo(p: PortInfo): SerialPortInfo {
  const out: SerialPortInfo = { path: String(p.path) };
  for (const k of ['manufacturer', 'serialNumber', 'pnpId', 'locationId', 'vendorId', 'productId'] as const) {
    const v = p[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}
