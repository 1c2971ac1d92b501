// The terminal link's state, without I/O: the settings in force, the state the screens see (and
// its change events), the live connection, the generation that retires stale callbacks, the
// reconnect timer and the closed flag. terminal-link.ts, serial-connection.ts and sn-reading.ts
// share one LinkState.
import { defaultTerminalSettings, type TerminalSettings, type TerminalState } from '../../shared/terminal';
import { TypedEmitter } from '../lib';
import type { Logger } from '../../shared/logger';
import type { LineReader } from './line-reader';
import type { SerialPortLike } from './serial-port';

/** One opening of a port: its reader, its timers and what was read on it. */
export interface Connection {
  gen: number;
  path: string;
  baudRate: number;
  port: SerialPortLike;
  reader: LineReader | null;
  opened: boolean;
  ended: boolean;
  openDone: Promise<void>;
  queryTimer: NodeJS.Timeout | null;
  livenessTimer: NodeJS.Timeout | null;
  probing: boolean;
  queriesSent: number;
  sn: string | null;
  lastOtherLine: string | null;
  loggedLines: number;
}

export class LinkState {
  settings: TerminalSettings = defaultTerminalSettings();
  private state: TerminalState = {
    source: 'serial',
    status: 'disconnected',
    portPath: null,
    sn: null,
    lastError: null,
    lastSeenAt: null,
  };
  // A faulty listener must not break the link or escape into serialport's callbacks.
  readonly changes: TypedEmitter<{ change: [state: TerminalState] }>;
  conn: Connection | null = null;
  reconnectTimer: NodeJS.Timeout | null = null;
  generation = 0;
  closed = false;

  constructor(log: Logger) {
    this.changes = new TypedEmitter<{ change: [state: TerminalState] }>({
      onListenerError: (e) =>
        log.error('terminal: change listener threw', { error: e instanceof Error ? e.message : String(e) }),
    });
  }

  /** Applies a patch; listeners hear of it only when something changed. */
  set(patch: Partial<TerminalState>): void {
    const next = { ...this.state, ...patch };
    const keys = Object.keys(next) as (keyof TerminalState)[];
    if (keys.every((k) => next[k] === this.state[k])) return;
    this.state = next;
    this.changes.emit('change', { ...this.state });
  }

  /** A copy of the state. */
  get(): TerminalState {
    return { ...this.state };
  }

  /** The last error shown, without a copy. */
  get lastError(): string | null {
    return this.state.lastError;
  }

  /** Whether callbacks of this connection still count (not replaced, ended or closed). */
  isCurrent(c: Connection): boolean {
    return !this.closed && !c.ended && c.gen === this.generation && this.conn === c;
  }

  clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }
}
