// The live link to the counter's POS terminal: opens the chosen serial port, asks for the serial
// number until it is read, follows unplug/replug by itself, or uses a serial number typed by hand.
import { SerialPort } from 'serialport';
import { AppError, validationError } from '../../shared/errors';
import {
  defaultTerminalSettings,
  parseTerminalSettings,
  validateManualSn,
  type SerialPortInfo,
  type TerminalSettings,
  type TerminalState,
} from '../../shared/terminal';
import { TypedEmitter } from '../lib';
import type { Logger } from '../../shared/logger';
import { classifySnLine } from './sn-parser';
import { createLineReader, type LineReader } from './line-reader';
import { toPortInfo, type PortInfo, type SerialPortClass, type SerialPortLike } from './serial-port';
import {
  describeLostPort,
  describeNoAnswer,
  describeOpenError,
  describeUnreadable,
  describeUnrecognised,
  sampleOf,
} from './port-messages';

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

/** Queries sent without an answer before the link says so. */
const UNANSWERED_QUERIES_BEFORE_ERROR = 3;
/** Non-text bytes before a connection without an sn is reported as a baud rate mismatch. */
const GARBAGE_BYTES_BEFORE_ERROR = 8;
/** A terminal that repeats its sn does not need a change event for each line. */
const LAST_SEEN_RESOLUTION_MS = 1000;
const CLOSE_TIMEOUT_MS = 2000;

const garbageBytes = (c: Connection) => c.reader?.nonTextBytes ?? 0;

interface Connection {
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

export function createTerminalLink(deps: TerminalLinkDeps): TerminalLink {
  const log = deps.logger;
  const Port: SerialPortClass = deps.SerialPort ?? (SerialPort as unknown as SerialPortClass);
  const listFn = deps.list ?? (() => (Port.list ? Port.list() : SerialPort.list()));
  const reconnectMs = deps.reconnectIntervalMs ?? 1000;
  const queryMs = deps.queryIntervalMs ?? 2000;
  const now = deps.now ?? Date.now;

  let settings: TerminalSettings = defaultTerminalSettings();
  let state: TerminalState = {
    source: 'serial',
    status: 'disconnected',
    portPath: null,
    sn: null,
    lastError: null,
    lastSeenAt: null,
  };
  // A faulty listener must not break the link or escape into serialport's callbacks.
  const changes = new TypedEmitter<{ change: Parameters<TerminalChangeListener> }>({
    onListenerError: (e) =>
      log.error('terminal: change listener threw', { error: e instanceof Error ? e.message : String(e) }),
  });
  let conn: Connection | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let generation = 0;
  let closed = false;

  function setState(patch: Partial<TerminalState>): void {
    const next = { ...state, ...patch };
    const keys = Object.keys(next) as (keyof TerminalState)[];
    if (keys.every((k) => next[k] === state[k])) return;
    state = next;
    changes.emit('change', { ...state });
  }

  const getState = (): TerminalState => ({ ...state });

  const isCurrent = (c: Connection) => !closed && !c.ended && c.gen === generation && conn === c;

  function scheduleReconnect(gen: number): void {
    if (closed || gen !== generation) return;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      openPort(gen);
    }, reconnectMs);
  }

  function openPort(gen: number): void {
    if (closed || gen !== generation || settings.source !== 'serial') return;
    const path = settings.portPath;
    const baudRate = settings.baudRate;
    if (!path) {
      setState({
        status: 'disconnected',
        sn: null,
        lastError: "Choose the serial port the terminal's cable is plugged into",
      });
      return;
    }
    let port: SerialPortLike;
    try {
      port = new Port({ path, baudRate, autoOpen: false });
    } catch (e) {
      setState({ status: 'disconnected', sn: null, lastError: describeOpenError(e, path, baudRate) });
      scheduleReconnect(gen);
      return;
    }
    let settleOpen!: () => void;
    const c: Connection = {
      gen,
      path,
      baudRate,
      port,
      reader: null,
      opened: false,
      ended: false,
      openDone: new Promise<void>((r) => (settleOpen = r)),
      queryTimer: null,
      livenessTimer: null,
      probing: false,
      queriesSent: 0,
      sn: null,
      lastOtherLine: null,
      loggedLines: 0,
    };
    conn = c;
    port.on('error', (err) => onPortError(c, err));
    port.on('close', (err) => onLost(c, err ?? null));
    port.open((err) => {
      settleOpen();
      if (c.ended) return; // replaced or closed meanwhile: closeConnection() closes the port
      if (err) {
        c.ended = true;
        if (conn === c) conn = null;
        const message = describeOpenError(err, path, baudRate);
        if (message !== state.lastError) log.warn('terminal: cannot open serial port', { path, error: err.message });
        setState({ status: 'disconnected', sn: null, lastError: message });
        scheduleReconnect(gen);
        return;
      }
      onOpened(c);
    });
  }

  function onOpened(c: Connection): void {
    c.opened = true;
    log.info('terminal: serial port open', { path: c.path, baudRate: c.baudRate });
    c.reader = createLineReader(
      c.port,
      (line) => onLine(c, line),
      () => onBytes(c),
      (e) => log.warn('terminal: line parser error', { error: e.message }),
    );
    setState({ status: 'connected', portPath: c.path, sn: null, lastError: null });
    startQuerying(c);
    c.livenessTimer = setInterval(() => probeLiveness(c), reconnectMs);
  }

  /**
   * A hung-up tty (cable pulled, pty master gone) can read as an endless end-of-file that serialport
   * never reports; any ioctl on it fails, so an idle drain tells a live port from a dead one.
   */
  function probeLiveness(c: Connection): void {
    if (!isCurrent(c) || c.probing) return;
    if (!c.port.isOpen) {
      onLost(c, null);
      return;
    }
    c.probing = true;
    c.port.drain((err) => {
      c.probing = false;
      if (err && isCurrent(c)) onLost(c, Object.assign(new Error(err.message), { disconnected: true }));
    });
  }

  function startQuerying(c: Connection): void {
    if (c.queryTimer) clearInterval(c.queryTimer);
    c.queriesSent = 0;
    sendQuery(c);
    c.queryTimer = setInterval(() => onQueryTick(c), queryMs);
  }

  function sendQuery(c: Connection): void {
    c.queriesSent += 1;
    if (!settings.query || !c.port.isOpen) return;
    c.port.write(Buffer.from(settings.query, 'latin1'), (err) => {
      if (err && isCurrent(c)) log.warn('terminal: writing the query failed', { path: c.path, error: err.message });
    });
  }

  function onQueryTick(c: Connection): void {
    if (!isCurrent(c) || c.sn !== null) return;
    if (c.queriesSent >= UNANSWERED_QUERIES_BEFORE_ERROR) {
      const message =
        garbageBytes(c) >= GARBAGE_BYTES_BEFORE_ERROR
          ? describeUnreadable(c.path, c.baudRate)
          : c.lastOtherLine !== null
            ? describeUnrecognised(c.path, c.lastOtherLine)
            : describeNoAnswer(c.path, c.baudRate, settings.query);
      setState({ lastError: message });
    }
    sendQuery(c);
  }

  function onBytes(c: Connection): void {
    if (isCurrent(c) && c.sn === null && garbageBytes(c) >= GARBAGE_BYTES_BEFORE_ERROR) {
      setState({ lastError: describeUnreadable(c.path, c.baudRate) });
    }
  }

  function onLine(c: Connection, line: string): void {
    if (!isCurrent(c)) return;
    let verdict: ReturnType<typeof classifySnLine>;
    try {
      verdict = classifySnLine(line, settings.pattern);
    } catch (e) {
      setState({ lastError: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (verdict.kind === 'sn') {
      const first = c.sn !== verdict.sn;
      c.sn = verdict.sn;
      if (c.queryTimer) clearInterval(c.queryTimer);
      c.queryTimer = null;
      if (first) log.info('terminal: serial number read', { path: c.path, sn: verdict.sn });
      const t = now();
      if (
        !first &&
        state.sn === verdict.sn &&
        state.lastSeenAt !== null &&
        t - state.lastSeenAt < LAST_SEEN_RESOLUTION_MS
      )
        return;
      setState({ sn: verdict.sn, lastError: null, lastSeenAt: t });
      return;
    }
    if (verdict.kind === 'other') c.lastOtherLine = sampleOf(line);
    if (verdict.kind !== 'empty' && c.loggedLines < 5) {
      c.loggedLines += 1;
      log.info(`terminal: ignored a ${verdict.kind} line`, { path: c.path, line: sampleOf(line) });
    }
  }

  function onPortError(c: Connection, err: Error): void {
    if (!isCurrent(c)) return;
    log.warn('terminal: serial port error', { path: c.path, error: err.message });
    // Errors without a following 'close' would leave the link believing it is connected.
    // An error that leaves an opened port shut is a disconnect, whichever event comes first.
    if (c.opened && !c.port.isOpen) onLost(c, Object.assign(new Error(err.message), { disconnected: true }));
  }

  function onLost(c: Connection, err: (Error & { disconnected?: boolean }) | null): void {
    if (c.ended) return;
    c.ended = true;
    teardown(c);
    if (conn === c) conn = null;
    // Release a port serialport still believes open, so its read loop stops and the path can reopen.
    if (c.port.isOpen) c.port.close(() => {});
    if (closed || c.gen !== generation) return;
    const disconnected = err?.disconnected === true;
    log.warn('terminal: serial port lost', { path: c.path, disconnected, error: err?.message });
    setState({ status: 'disconnected', sn: null, lastError: describeLostPort(c.path, disconnected) });
    scheduleReconnect(c.gen);
  }

  function teardown(c: Connection): void {
    if (c.queryTimer) clearInterval(c.queryTimer);
    if (c.livenessTimer) clearInterval(c.livenessTimer);
    c.queryTimer = null;
    c.livenessTimer = null;
    c.reader?.detach();
    c.reader = null;
  }

  /** Stops a connection and releases its port, so the same path can be opened again right away. */
  async function closeConnection(c: Connection): Promise<void> {
    c.ended = true;
    teardown(c);
    if (conn === c) conn = null;
    await c.openDone;
    if (!c.port.isOpen) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      try {
        c.port.close((err) => {
          if (err) log.warn('terminal: closing the serial port failed', { path: c.path, error: err.message });
          clearTimeout(timer);
          resolve();
        });
      } catch (e) {
        log.warn('terminal: closing the serial port failed', {
          path: c.path,
          error: e instanceof Error ? e.message : String(e),
        });
        clearTimeout(timer);
        resolve();
      }
    });
  }

  function applyManual(): void {
    setState({
      source: 'manual',
      status: 'manual',
      portPath: settings.portPath,
      sn: settings.manualSn,
      lastError: settings.manualSn
        ? null
        : "Type the terminal's serial number (printed on the label under the terminal)",
    });
  }

  async function configure(input: unknown): Promise<TerminalState> {
    if (closed) throw new AppError('TERMINAL_UNAVAILABLE', 'The terminal link is closed');
    const parsed = parseTerminalSettings(input);
    if (!parsed.ok) throw validationError(parsed.fields, 'The terminal settings need fixing');
    const prev = settings;
    const next = parsed.settings;
    const live = conn;
    settings = next;

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
        startQuerying(live);
      }
      return getState();
    }

    const gen = ++generation;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = null;
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
    if (gen === generation && !closed && next.source === 'serial') openPort(gen);
    return getState();
  }

  function setManualSn(input: string | null): TerminalState {
    if (input === null) {
      settings = { ...settings, manualSn: null };
    } else {
      const v = validateManualSn(input);
      if (!v.ok) throw validationError({ manualSn: v.message }, v.message);
      settings = { ...settings, manualSn: v.sn };
    }
    if (settings.source === 'manual' && !closed) applyManual();
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
    if (closed) return;
    closed = true;
    generation += 1;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    const live = conn;
    if (live) await closeConnection(live);
    if (state.source === 'serial') setState({ status: 'disconnected', sn: null, lastError: null });
    changes.clear();
  }

  return {
    listPorts,
    configure,
    setManualSn,
    getState,
    getSettings: () => ({ ...settings }),
    on: (event, listener) => void changes.on(event, listener),
    off: (event, listener) => changes.off(event, listener),
    close,
  };
}
