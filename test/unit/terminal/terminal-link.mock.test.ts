// The terminal link on serialport's mock binding: opening, querying, reading the sn, losing the
// port and finding it again, manual mode, settings errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPortMock } from 'serialport';
import { createTerminalLink, type TerminalLink } from '../../../core/terminal';
import { memoryLogger } from '../../../shared/logger';
import type { TerminalState } from '../../../shared/terminal';
import { NOISE, waitForTerminalState } from '../../helpers/fake-terminal';

const PATH = '/dev/MOCK-TERMINAL';
type MockPortBinding = NonNullable<SerialPortMock['port']>;

/** SerialPortMock that remembers every port the link creates, so a test can act as the terminal. */
function capturingPortClass() {
  const instances: SerialPortMock[] = [];
  class CapturingPort extends SerialPortMock {
    constructor(options: ConstructorParameters<typeof SerialPortMock>[0]) {
      super(options);
      instances.push(this);
    }
  }
  return { CapturingPort, instances };
}

function binding(port: SerialPortMock | undefined): MockPortBinding {
  const b = port?.port;
  if (!b) throw new Error('the link has no open mock port');
  return b;
}

/** Polls a condition the mock gives no event for (bytes written); bounded, fails the test. */
function waitUntil(cond: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (cond()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`Timed out waiting for ${what}`));
      }
    }, 5);
  });
}

const queriesIn = (b: MockPortBinding) => b.recording.toString('latin1').split('SN?\r\n').length - 1;

let link: TerminalLink;
let instances: SerialPortMock[];
let log: ReturnType<typeof memoryLogger>;
let history: TerminalState[];

beforeEach(() => {
  SerialPortMock.binding.reset();
  SerialPortMock.binding.createPort(PATH, { record: true, manufacturer: 'PAX' });
  const c = capturingPortClass();
  instances = c.instances;
  log = memoryLogger();
  link = createTerminalLink({ SerialPort: c.CapturingPort, logger: log, reconnectIntervalMs: 20, queryIntervalMs: 20 });
  history = [];
  link.on('change', (s) => history.push(s));
});

afterEach(async () => {
  await link.close();
});

describe('terminal link on the mock binding', () => {
  it('opens the port at the configured baud rate, sends the query and reads the sn', async () => {
    await link.configure({ portPath: PATH, baudRate: 9600 });
    expect(link.getState()).toMatchObject({ source: 'serial', status: 'connecting', portPath: PATH, sn: null });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const port = binding(instances[0]);
    expect(port.openOptions.baudRate).toBe(9600);
    await waitUntil(() => queriesIn(port) >= 1, 'the query');
    port.emitData('SN:P2-0012-3456\r\n');
    const s = await waitForTerminalState(link, (st) => st.sn !== null, 'the sn');
    expect(s).toMatchObject({ status: 'connected', sn: 'P2-0012-3456', lastError: null });
    expect(s.lastSeenAt).toEqual(expect.any(Number));
  });

  it('re-sends the query until the terminal answers, and says so when it does not', async () => {
    await link.configure({ portPath: PATH });
    const s = await waitForTerminalState(link, (st) => st.lastError !== null, 'the no-answer message');
    expect(s.lastError).toMatch(/does not answer "SN\?".*baud rate \(now 115200\)/);
    const port = binding(instances[0]);
    expect(queriesIn(port)).toBeGreaterThanOrEqual(3);
    port.emitData('SN=ABC123\n');
    await waitForTerminalState(link, (st) => st.sn === 'ABC123' && st.lastError === null, 'the sn, error cleared');
  });

  it('does not write when the query is empty and takes an announced sn', async () => {
    await link.configure({ portPath: PATH, query: '' });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const port = binding(instances[0]);
    port.emitData('TERM READY\r\n9821003456\r\n');
    await waitForTerminalState(link, (s) => s.sn === '9821003456', 'the announced sn');
    expect(port.recording.length).toBe(0);
  });

  it('uses a custom format', async () => {
    await link.configure({ portPath: PATH, pattern: 'TID:{sn}' });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    binding(instances[0]).emitData('SN:ABC123\r\nTID:00112233\r\n');
    await waitForTerminalState(link, (s) => s.sn === '00112233', 'the sn from the custom pattern');
    expect(history.every((s) => s.sn === null || s.sn === '00112233')).toBe(true);
  });

  it('never takes noise for an sn, and reports unreadable data as a baud rate problem', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const port = binding(instances[0]);
    for (const chunk of NOISE) port.emitData(chunk);
    const s = await waitForTerminalState(
      link,
      (st) => /unreadable data at 115200 baud/.test(st.lastError ?? ''),
      'the baud rate hint',
    );
    expect(s.sn).toBeNull();
    port.emitData('\r\nSN:REAL-123456\r\n');
    await waitForTerminalState(link, (st) => st.sn === 'REAL-123456' && st.lastError === null, 'the real sn');
    expect(history.map((h) => h.sn).filter((sn) => sn !== null)).toEqual(['REAL-123456']);
  });

  it('drops an endless line without a newline and still reads the next sn', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const port = binding(instances[0]);
    port.emitData('SN:' + 'A'.repeat(20_000));
    port.emitData('\r\nSN:AFTER-9999\r\n');
    await waitForTerminalState(link, (s) => s.sn === 'AFTER-9999', 'the sn after the flood');
  });

  it('goes disconnected when the port is lost, retries the same path and reads the sn again', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    binding(instances[0]).emitData('SN:FIRST-0001\r\n');
    const before = await waitForTerminalState(link, (s) => s.sn === 'FIRST-0001', 'the first sn');

    // What serialport does when a read fails with EIO (cable pulled).
    instances[0]!._disconnected(new Error('Input/output error'));
    const lost = await waitForTerminalState(link, (s) => s.status === 'disconnected', 'disconnected');
    expect(lost).toMatchObject({ sn: null, lastSeenAt: before.lastSeenAt, portPath: PATH });
    expect(lost.lastError).toMatch(/was disconnected .*reconnects by itself/);

    await waitForTerminalState(link, (s) => s.status === 'connected', 'reconnected');
    expect(instances.length).toBeGreaterThanOrEqual(2);
    binding(instances.at(-1)).emitData('SN:SECOND-0002\r\n');
    await waitForTerminalState(link, (s) => s.sn === 'SECOND-0002', 'the sn after reconnecting');
  });

  it('notices a hung-up port that serialport itself does not report', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const port = binding(instances[0]);
    port.emitData('SN:HUNG-000001\r\n');
    await waitForTerminalState(link, (s) => s.sn === 'HUNG-000001', 'the sn');
    // A hung-up tty answers every ioctl with EIO while reads quietly return end-of-file.
    port.drain = () => Promise.reject(new Error('Input/output error, cannot drain'));
    const lost = await waitForTerminalState(link, (s) => s.status === 'disconnected', 'disconnected');
    expect(lost.lastError).toMatch(/was disconnected/);
    expect(instances[0]!.isOpen).toBe(false);
    await waitForTerminalState(link, (s) => s.status === 'connected', 'reconnected');
  });

  it('keeps retrying while the port is gone and connects once it exists again', async () => {
    SerialPortMock.binding.reset();
    await link.configure({ portPath: PATH });
    const s = await waitForTerminalState(
      link,
      (st) => st.status === 'disconnected' && st.lastError !== null,
      'the open error',
    );
    expect(s.lastError).toMatch(/Could not open serial port \/dev\/MOCK-TERMINAL: Port does not exist/);
    const attempts = instances.length;
    await waitUntil(() => instances.length > attempts, 'another attempt');
    SerialPortMock.binding.createPort(PATH);
    await waitForTerminalState(
      link,
      (st) => st.status === 'connected' && st.lastError === null,
      'connected once the port exists',
    );
  });

  it('says the port is in use when another program holds it', async () => {
    const other = new SerialPortMock({ path: PATH, baudRate: 115200, autoOpen: false });
    await new Promise<void>((resolve, reject) => other.open((e) => (e ? reject(e) : resolve())));
    await link.configure({ portPath: PATH });
    const s = await waitForTerminalState(link, (st) => st.lastError !== null, 'the busy message');
    expect(s).toMatchObject({ status: 'disconnected' });
    expect(s.lastError).toMatch(/in use by another program/);
    await new Promise<void>((resolve) => other.close(() => resolve()));
    await waitForTerminalState(link, (st) => st.status === 'connected', 'connected once freed');
  });

  it('asks for a port when none is chosen', async () => {
    const s = await link.configure({ source: 'serial', portPath: null });
    expect(s).toMatchObject({ status: 'disconnected', lastError: expect.stringMatching(/Choose the serial port/) });
  });

  it('keeps the connection when only the pattern changes, and asks again', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const port = binding(instances[0]);
    port.emitData('SN:ABC123\r\n');
    await waitForTerminalState(link, (s) => s.sn === 'ABC123', 'the sn');
    const queries = queriesIn(port);
    const s = await link.configure({ portPath: PATH, pattern: 'ID:{sn}' });
    expect(s).toMatchObject({ status: 'connected', sn: null });
    expect(instances).toHaveLength(1);
    await waitUntil(() => queriesIn(port) > queries, 'a new query');
    port.emitData('SN:ABC123\r\nID:XYZ789\r\n');
    await waitForTerminalState(link, (st) => st.sn === 'XYZ789', 'the sn under the new pattern');
  });

  it('reopens at the new baud rate when it changes', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    await link.configure({ portPath: PATH, baudRate: 9600 });
    expect(instances[0]!.isOpen).toBe(false);
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected again');
    expect(binding(instances.at(-1)).openOptions.baudRate).toBe(9600);
  });

  it('refuses wrong settings with per-field messages and keeps the current ones', async () => {
    await link.configure({ portPath: PATH });
    const before = link.getSettings();
    await expect(link.configure({ portPath: PATH, baudRate: 1234, pattern: '(' })).rejects.toMatchObject({
      code: 'VALIDATION',
      details: {
        fields: {
          baudRate: expect.stringMatching(/standard baud rate/),
          pattern: expect.stringMatching(/\{sn\} exactly once/),
        },
      },
    });
    expect(link.getSettings()).toEqual(before);
  });

  it('uses the typed sn in manual mode and closes the serial port', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    const s = await link.configure({ portPath: PATH, source: 'manual', manualSn: ' abc-123456 ' });
    expect(s).toEqual({
      source: 'manual',
      status: 'manual',
      portPath: PATH,
      sn: 'abc-123456',
      lastError: null,
      lastSeenAt: null,
    });
    expect(instances[0]!.isOpen).toBe(false);

    expect(() => link.setManualSn('AB 12')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION',
        details: { fields: { manualSn: expect.stringMatching(/without spaces/) } },
      }),
    );
    expect(link.getState().sn).toBe('abc-123456');
    expect(link.setManualSn('XYZ-987654')).toMatchObject({ status: 'manual', sn: 'XYZ-987654' });
    expect(history.at(-1)).toMatchObject({ sn: 'XYZ-987654' });
    expect(link.getSettings().manualSn).toBe('XYZ-987654');
    expect(link.setManualSn(null)).toMatchObject({
      sn: null,
      lastError: expect.stringMatching(/Type the terminal's serial number/),
    });
  });

  it('remembers a typed sn without using it while the source is serial', async () => {
    await link.configure({ portPath: PATH });
    expect(link.setManualSn('MAN-123456')).toMatchObject({ source: 'serial', sn: null });
    expect(link.getSettings()).toMatchObject({ manualSn: 'MAN-123456', source: 'serial' });
  });

  it('lists ports, and turns a listing failure into a clear error', async () => {
    expect(await link.listPorts()).toEqual([{ path: PATH, manufacturer: 'PAX', serialNumber: expect.any(String) }]);
    const broken = createTerminalLink({ logger: log, list: () => Promise.reject(new Error('udev is gone')) });
    await expect(broken.listPorts()).rejects.toMatchObject({
      code: 'TERMINAL_UNAVAILABLE',
      message: /Could not list the serial ports: udev is gone/,
    });
    await broken.close();
  });

  it('survives a listener that throws', async () => {
    link.on('change', () => {
      throw new Error('renderer went away');
    });
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    binding(instances[0]).emitData('SN:ABC123\r\n');
    await waitForTerminalState(link, (s) => s.sn === 'ABC123', 'the sn');
    expect(log.lines.some((l) => l.msg.includes('listener threw'))).toBe(true);
  });

  it('closes the port on close() and refuses to be configured afterwards', async () => {
    await link.configure({ portPath: PATH });
    await waitForTerminalState(link, (s) => s.status === 'connected', 'connected');
    await link.close();
    expect(instances[0]!.isOpen).toBe(false);
    expect(link.getState()).toMatchObject({ status: 'disconnected', sn: null });
    await expect(link.configure({ portPath: PATH })).rejects.toMatchObject({ code: 'TERMINAL_UNAVAILABLE' });
    await link.close();
  });

  it('closes cleanly while an open is still in progress', async () => {
    const p = link.configure({ portPath: PATH });
    await link.close();
    await p;
    expect(instances.every((i) => !i.isOpen)).toBe(true);
  });
});
