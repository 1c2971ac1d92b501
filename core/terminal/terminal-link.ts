// The live link to the counter's POS terminal: opens the chosen serial port, asks for the serial
// number until it is read, follows unplug/replug by itself, or uses a serial number typed by hand.
// The pieces: link-state.ts (the state, no I/O), serial-connection.ts (opening, losing and closing
// the port), sn-reading.ts (the query and the lines read).
import { SerialPort } from 'serialport';
import { AppError, validationError } from '../../shared/errors';
import {
  parseTerminalSettings,
  validateManualSn,
  type SerialPortInfo,
  type TerminalSettings,
  type TerminalState,
} from '../../shared/terminal';
import type { Logger } from '../../shared/logger';
import { toPortInfo, type PortInfo, type SerialPortClass } from './serial-port';
import { LinkState } from './link-state';
import { createSnReading } from './sn-reading';
import { createSerialConnector } from './serial-connection';

export interface TerminalLinkDeps {
  /** The port class; tests pass SerialPortMock. Defaults to serialport's SerialPort. */
  SerialPort?: SerialPortClass;
  /** Lists ports; defaults to the port class's own list(). */
  list?: () => Promise<PortInfo[]>;
  logger: Logger;
  /** Pause between attempts to reopen a lost or missing port. */
  reconnectIntervalMs?: number;
  /** Re-sends the query this often while connected without an sn. */
  queryIntervalMs?: number;
  now?: () => number;
}

export type TerminalChangeListener = (state: TerminalState) => void;

export interface TerminalLink {
  listPorts(): Promise<SerialPortInfo[]>;
  /** Validates and applies settings (AppError VALIDATION with per-field messages when wrong). */
  configure(settings: unknown): Promise<TerminalState>;
  /** Remembers a typed sn (AppError VALIDATION when wrong); it is the live sn when source is manual. */
  setManualSn(sn: string | null): TerminalState;
  getState(): TerminalState;
  getSettings(): TerminalSettings;
  on(event: 'change', listener: TerminalChangeListener): void;
  off(event: 'change', listener: TerminalChangeListener): void;
  /** Closes the port and stops every timer; the link is unusable afterwards. */
  close(): Promise<void>;
}

export function createTerminalLink(deps: TerminalLinkDeps): TerminalLink {
  const log = deps.logger;
  const Port: SerialPortClass = deps.SerialPort ?? (SerialPort as unknown as SerialPortClass);
  const listFn = deps.list ?? (() => (Port.list ? Port.list() : SerialPort.list()));
  const reconnectMs = deps.reconnectIntervalMs ?? 1000;
  const queryMs = deps.queryIntervalMs ?? 2000;
  const now = deps.now ?? Date.now;

  const ls = new LinkState(log);
  const reading = createSnReading(ls, { log, queryMs, now });
  const { openPort, closeConnection } = createSerialConnector(ls, { Port, log, reconnectMs, reading });
  const setState = (patch: Partial<TerminalState>) => ls.set(patch);
  const getState = (): TerminalState => ls.get();

  function applyManual(): void {
    setState({
      source: 'manual',
      status: 'manual',
      portPath: ls.settings.portPath,
      sn: ls.settings.manualSn,
      lastError: ls.settings.manualSn
        ? null
        : "Type the terminal's serial number (printed on the label under the terminal)",
    });
  }

  async function configure(input: unknown): Promise<TerminalState> {
    if (ls.closed) throw new AppError('TERMINAL_UNAVAILABLE', 'The terminal link is closed');
    const parsed = parseTerminalSettings(input);
    if (!parsed.ok) throw validationError(parsed.fields, 'The terminal settings need fixing');
    const prev = ls.settings;
    const next = parsed.settings;
    const live = ls.conn;
    ls.settings = next;

    const sameSerialLine =
      prev.source === 'serial' &&
      next.source === 'serial' &&
      prev.portPath === next.portPath &&
      prev.baudRate === next.baudRate &&
      live !== null &&
      live.opened &&
      !live.ended;
    if (sameSerialLine) {
      // Same port, same speed: keep the connection; a new query or pattern asks again.
      if (prev.query !== next.query || prev.pattern !== next.pattern) {
        live.sn = null;
        live.lastOtherLine = null;
        setState({ sn: null, lastError: null });
        reading.startQuerying(live);
      }
      return getState();
    }

    const gen = ++ls.generation;
    ls.clearReconnect();
    if (next.source === 'manual') applyManual();
    else
      setState({
        source: 'serial',
        status: next.portPath ? 'connecting' : 'disconnected',
        portPath: next.portPath,
        sn: null,
        lastError: null,
      });
    if (live) await closeConnection(live);
    if (gen === ls.generation && !ls.closed && next.source === 'serial') openPort(gen);
    return getState();
  }

  function setManualSn(input: string | null): TerminalState {
    if (input === null) {
      ls.settings = { ...ls.settings, manualSn: null };
    } else {
      const v = validateManualSn(input);
      if (!v.ok) throw validationError({ manualSn: v.message }, v.message);
      ls.settings = { ...ls.settings, manualSn: v.sn };
    }
    if (ls.settings.source === 'manual' && !ls.closed) applyManual();
    return getState();
  }

  async function listPorts(): Promise<SerialPortInfo[]> {
    try {
      const ports = await listFn();
      return ports.map(toPortInfo);
    } catch (e) {
      throw new AppError(
        'TERMINAL_UNAVAILABLE',
        `Could not list the serial ports: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  async function close(): Promise<void> {
    if (ls.closed) return;
    ls.closed = true;
    ls.generation += 1;
    ls.clearReconnect();
    const live = ls.conn;
    if (live) await closeConnection(live);
    if (ls.get().source === 'serial') setState({ status: 'disconnected', sn: null, lastError: null });
    ls.changes.clear();
  }

  return {
    listPorts,
    configure,
    setManualSn,
    getState,
    getSettings: () => ({ ...ls.settings }),
    on: (event, listener) => void ls.changes.on(event, listener),
    off: (event, listener) => ls.changes.off(event, listener),
    close,
  };
}
