// The terminal link's serial I/O: opening the chosen port (and reopening it after a pause while it
// is missing or lost), noticing a port that is gone (errors, close, a liveness probe of a hung-up
// tty) and releasing a port so the same path can be opened again at once.
import type { Logger } from '../../shared/logger';
import { createLineReader } from './line-reader';
import type { SerialPortClass, SerialPortLike } from './serial-port';
import { describeLostPort, describeOpenError } from './port-messages';
import type { Connection, LinkState } from './link-state';
import type { SnReading } from './sn-reading';

const CLOSE_TIMEOUT_MS = 2000;

export interface SerialConnectorDeps {
  Port: SerialPortClass;
  log: Logger;
  /** Pause between attempts to reopen a lost or missing port (also the liveness probe's period). */
  reconnectMs: number;
  reading: SnReading;
}

export function createSerialConnector(ls: LinkState, { Port, log, reconnectMs, reading }: SerialConnectorDeps) {
  function scheduleReconnect(gen: number): void {
    if (ls.closed || gen !== ls.generation) return;
    if (ls.reconnectTimer) clearTimeout(ls.reconnectTimer);
    ls.reconnectTimer = setTimeout(() => {
      ls.reconnectTimer = null;
      openPort(gen);
    }, reconnectMs);
  }

  function openPort(gen: number): void {
    if (ls.closed || gen !== ls.generation || ls.settings.source !== 'serial') return;
    const path = ls.settings.portPath;
    const baudRate = ls.settings.baudRate;
    if (!path) {
      ls.set({
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
      ls.set({ status: 'disconnected', sn: null, lastError: describeOpenError(e, path, baudRate) });
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
    ls.conn = c;
    port.on('error', (err) => onPortError(c, err));
    port.on('close', (err) => onLost(c, err ?? null));
    port.open((err) => {
      settleOpen();
      if (c.ended) return; // replaced or closed meanwhile: closeConnection() closes the port
      if (err) {
        c.ended = true;
        if (ls.conn === c) ls.conn = null;
        const message = describeOpenError(err, path, baudRate);
        if (message !== ls.lastError) log.warn('terminal: cannot open serial port', { path, error: err.message });
        ls.set({ status: 'disconnected', sn: null, lastError: message });
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
      (line) => reading.onLine(c, line),
      () => reading.onBytes(c),
      (e) => log.warn('terminal: line parser error', { error: e.message }),
    );
    ls.set({ status: 'connected', portPath: c.path, sn: null, lastError: null });
    reading.startQuerying(c);
    c.livenessTimer = setInterval(() => probeLiveness(c), reconnectMs);
  }

  /**
   * A hung-up tty (cable pulled, pty master gone) can read as an endless end-of-file that serialport
   * never reports; any ioctl on it fails, so an idle drain tells a live port from a dead one.
   */
  function probeLiveness(c: Connection): void {
    if (!ls.isCurrent(c) || c.probing) return;
    if (!c.port.isOpen) {
      onLost(c, null);
      return;
    }
    c.probing = true;
    c.port.drain((err) => {
      c.probing = false;
      if (err && ls.isCurrent(c)) onLost(c, Object.assign(new Error(err.message), { disconnected: true }));
    });
  }

  function onPortError(c: Connection, err: Error): void {
    if (!ls.isCurrent(c)) return;
    log.warn('terminal: serial port error', { path: c.path, error: err.message });
    // Errors without a following 'close' would leave the link believing it is connected.
    // An error that leaves an opened port shut is a disconnect, whichever event comes first.
    if (c.opened && !c.port.isOpen) onLost(c, Object.assign(new Error(err.message), { disconnected: true }));
  }

  function onLost(c: Connection, err: (Error & { disconnected?: boolean }) | null): void {
    if (c.ended) return;
    c.ended = true;
    teardown(c);
    if (ls.conn === c) ls.conn = null;
    // Release a port serialport still believes open, so its read loop stops and the path can reopen.
    if (c.port.isOpen) c.port.close(() => {});
    if (ls.closed || c.gen !== ls.generation) return;
    const disconnected = err?.disconnected === true;
    log.warn('terminal: serial port lost', { path: c.path, disconnected, error: err?.message });
    ls.set({ status: 'disconnected', sn: null, lastError: describeLostPort(c.path, disconnected) });
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
    if (ls.conn === c) ls.conn = null;
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

  return { openPort, closeConnection };
}
