// The terminal link over real serial I/O: serialport's native binding on a socat pseudo-terminal
// pair, with a simulated terminal on the far end that can be unplugged and plugged in again.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTerminalLink, type TerminalLink } from '../../../core/terminal';
import { memoryLogger } from '../../../shared/logger';
import type { TerminalState } from '../../../shared/terminal';
import {
  SOCAT_MISSING_REASON,
  startFakeTerminal,
  waitForTerminalState,
  type FakeTerminal,
} from '../../helpers/fake-terminal';

const skip = SOCAT_MISSING_REASON !== null;

let link: TerminalLink | null = null;
let fake: FakeTerminal | null = null;
let history: TerminalState[] = [];

function newLink(): TerminalLink {
  const l = createTerminalLink({ logger: memoryLogger(), reconnectIntervalMs: 50, queryIntervalMs: 100 });
  history = [];
  l.on('change', (s) => history.push(s));
  link = l;
  return l;
}

beforeAll(() => {
  if (skip) console.warn(`Skipping the serial terminal tests: ${SOCAT_MISSING_REASON}`);
});

afterEach(async () => {
  await link?.close();
  await fake?.stop();
  link = null;
  fake = null;
});

describe.skipIf(skip)('terminal link over a real pseudo-terminal pair', () => {
  it('sends the query and reads the sn from the answer', async () => {
    fake = await startFakeTerminal({ sn: 'PAX-A920-0042' });
    const l = newLink();
    await l.configure({ portPath: fake.appPath });
    const s = await waitForTerminalState(l, (st) => st.sn !== null, 'the sn');
    expect(s).toMatchObject({
      source: 'serial',
      status: 'connected',
      portPath: fake.appPath,
      sn: 'PAX-A920-0042',
      lastError: null,
    });
    expect(fake.received).toContain('SN?');
    expect(history.map((h) => h.status)).toEqual(expect.arrayContaining(['connecting', 'connected']));
  });

  it('never takes noise for an sn', async () => {
    fake = await startFakeTerminal({ sn: 'REAL-777001', silent: true });
    const l = newLink();
    await l.configure({ portPath: fake.appPath });
    await waitForTerminalState(l, (s) => s.status === 'connected', 'connected');
    await fake.waitForLine((line) => line === 'SN?');
    await fake.sendNoise();
    await fake.sendNoise();
    const hinted = await waitForTerminalState(
      l,
      (s) => /unreadable data/.test(s.lastError ?? ''),
      'the unreadable-data message',
    );
    expect(hinted.sn).toBeNull();
    // Everything sent before this answer went through the same byte stream first.
    fake.silent = false;
    await waitForTerminalState(l, (s) => s.sn === 'REAL-777001', 'the real sn after the noise');
    expect(history.map((h) => h.sn).filter((sn) => sn !== null)).toEqual(['REAL-777001']);
  });

  it('goes disconnected on unplug, reconnects by itself on replug and reads the sn again', async () => {
    fake = await startFakeTerminal({ sn: 'COUNTER-3-0001' });
    const l = newLink();
    await l.configure({ portPath: fake.appPath });
    const first = await waitForTerminalState(l, (s) => s.sn === 'COUNTER-3-0001', 'the first sn');

    const disconnected = waitForTerminalState(l, (s) => s.status === 'disconnected', 'disconnected after unplug');
    await fake.unplug();
    const lost = await disconnected;
    expect(lost).toMatchObject({ sn: null, portPath: fake.appPath, lastSeenAt: first.lastSeenAt });
    expect(lost.lastError).toMatch(/disconnected \(cable unplugged\?\)/);
    // While unplugged the path is gone and the link keeps trying.
    await waitForTerminalState(
      l,
      (s) => /was not found/.test(s.lastError ?? ''),
      'the port-missing message while unplugged',
    );

    fake.sn = 'COUNTER-3-0002'; // another terminal plugged into the same cable
    await fake.replug();
    const back = await waitForTerminalState(l, (s) => s.sn === 'COUNTER-3-0002', 'the sn after replug');
    expect(back).toMatchObject({ status: 'connected', lastError: null });
    expect(back.lastSeenAt!).toBeGreaterThanOrEqual(first.lastSeenAt!);
  });

  it('survives repeated unplug/replug cycles', async () => {
    fake = await startFakeTerminal({ sn: 'CYCLE-0000' });
    const l = newLink();
    await l.configure({ portPath: fake.appPath });
    await waitForTerminalState(l, (s) => s.sn === 'CYCLE-0000', 'the sn');
    for (let i = 1; i <= 3; i++) {
      const down = waitForTerminalState(l, (s) => s.status === 'disconnected', `disconnected (cycle ${i})`);
      await fake.unplug();
      await down;
      fake.sn = `CYCLE-000${i}`;
      await fake.replug();
      await waitForTerminalState(l, (s) => s.sn === `CYCLE-000${i}`, `the sn (cycle ${i})`);
    }
  });

  it('says which port is missing', async () => {
    fake = await startFakeTerminal({ sn: 'ABC123' });
    const l = newLink();
    const missing = path.join(fake.dir, 'ttyUSB-missing');
    await l.configure({ portPath: missing });
    const s = await waitForTerminalState(l, (st) => st.lastError !== null, 'the open error');
    expect(s.status).toBe('disconnected');
    expect(s.lastError).toBe(
      `Serial port ${missing} was not found. Plug in the terminal's cable (CounterPay keeps trying by itself) or choose another port.`,
    );
  });

  it('says when the baud rate is wrong, and reads the sn once it is right', async () => {
    fake = await startFakeTerminal({ sn: 'BAUD-115200', baudRate: 115200 });
    const l = newLink();
    await l.configure({ portPath: fake.appPath, baudRate: 9600 });
    const s = await waitForTerminalState(l, (st) => st.lastError !== null, 'the baud rate message');
    expect(s).toMatchObject({ status: 'connected', sn: null });
    expect(s.lastError).toMatch(/sends unreadable data at 9600 baud\. Set the baud rate to the terminal's/);
    await l.configure({ portPath: fake.appPath, baudRate: 115200 });
    await waitForTerminalState(
      l,
      (st) => st.sn === 'BAUD-115200' && st.lastError === null,
      'the sn at the right baud rate',
    );
  });

  it('says when the port is not a serial port', async () => {
    const l = newLink();
    await l.configure({ portPath: '/dev/null' });
    const s = await waitForTerminalState(l, (st) => st.lastError !== null, 'the open error');
    expect(s.lastError).toBe("/dev/null is not a serial port. Choose the terminal's port from the list.");
  });

  it('lets the process exit after close(): no timer or handle is left behind', async () => {
    fake = await startFakeTerminal({ sn: 'EXIT-000001' });
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const script = `
      import { createTerminalLink } from ${JSON.stringify(path.join(root, 'core/terminal/index.ts'))};
      import { silentLogger } from ${JSON.stringify(path.join(root, 'shared/logger.ts'))};
      const link = createTerminalLink({ logger: silentLogger, reconnectIntervalMs: 50, queryIntervalMs: 100 });
      link.on('change', async (s) => {
        if (s.sn === null) return;
        console.log('sn ' + s.sn);
        await link.close();
      });
      // A second link stuck retrying a missing port must stop too.
      const missing = createTerminalLink({ logger: silentLogger, reconnectIntervalMs: 50 });
      await missing.configure({ portPath: ${JSON.stringify(path.join(fake.dir, 'nope'))} });
      await link.configure({ portPath: ${JSON.stringify(fake.appPath)} });
      await missing.close();
    `;
    const scriptPath = path.join(fake.dir, 'close-then-exit.mts');
    fs.writeFileSync(scriptPath, script);
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [scriptPath], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the process did not exit by itself after close(); output: ${out}`));
      }, 15_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out).toContain('sn EXIT-000001');
    expect(code).toBe(0);
  });
});
