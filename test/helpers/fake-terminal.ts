// A simulated POS terminal on a real pseudo-terminal pair (socat): the app opens `appPath` with
// serialport's real binding; this side answers "SN?" with "SN:<sn>\r\n", can send noise, and can be
// unplugged (socat killed: the app's port dies and its path vanishes) and plugged in again.
// Also holds waitForTerminalState(), the event-driven wait the terminal tests use.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReadlineParser, SerialPort } from 'serialport';
import type { TerminalState } from '../../shared/terminal';

/** Why the serial tests cannot run here, or null when socat is installed. */
export const SOCAT_MISSING_REASON: string | null = (() => {
  const r = spawnSync('socat', ['-V'], { stdio: 'ignore' });
  return r.error ? `socat is not installed (${r.error.message}); install it with apt-get install -y socat` : null;
})();

const LINK_TIMEOUT_MS = 5000;

export interface FakeTerminalOptions {
  sn: string;
  /** The terminal's own baud rate: replies come out garbled when the app's side is set otherwise. */
  baudRate?: number;
  /** Start without answering queries (noise tests turn answering on later). */
  silent?: boolean;
}

export interface FakeTerminal {
  /** The path the app opens. */
  readonly appPath: string;
  readonly dir: string;
  /** Lines received from the app, CR/LF stripped. */
  readonly received: string[];
  sn: string;
  silent: boolean;
  send(data: string | Buffer): Promise<void>;
  /** Lines no parser may take for a serial number: binary garbage, a partial line, wrong formats. */
  sendNoise(): Promise<void>;
  /** Resolves when the app has sent a line that satisfies `match` (counting lines already received). */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  unplug(): Promise<void>;
  replug(): Promise<void>;
  stop(): Promise<void>;
}

/** Noise a terminal (or a bad cable) can produce; each must be refused as an sn. */
export const NOISE: readonly Buffer[] = [
  Buffer.from([0xff, 0x00, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x80, 0x81, 0x0d, 0x0a]),
  Buffer.concat([Buffer.from('SN:EVIL'), Buffer.from([0x00, 0xff]), Buffer.from('666\r\n')]),
  Buffer.from('SN:EVIL\u{fffd}667\r\n', 'utf8'),
  Buffer.from('SN:EVIL668\x07\r\n', 'latin1'),
  Buffer.from('SN:AB1\r\n'),
  Buffer.from(`SN:${'E'.repeat(40)}1\r\n`),
  Buffer.from('S/N EVIL669\r\n'),
  Buffer.from('SERIAL EVIL670 OK\r\n'),
  Buffer.from('WELCOME\r\n'),
  Buffer.from('SN:EVIL 671\r\n'),
  Buffer.from('\r\n'),
  // A partial line: whatever follows it on the same line is spoiled too.
  Buffer.from('SN:EVI'),
  Buffer.from('L672 TRUNC\r\n'),
];

function garble(data: Buffer): Buffer {
  // What a byte stream looks like read at the wrong speed: high, meaningless bytes, no line ends.
  return Buffer.from([...data].map((b) => 0x80 | (b ^ 0x55)));
}

function waitForLinks(paths: string[], child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearInterval(poll);
      clearTimeout(timer);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    };
    const onExit = (code: number | null) =>
      done(new Error(`socat exited (code ${code}) before creating ${paths.join(' and ')}`));
    const poll = setInterval(() => {
      if (paths.every((p) => fs.existsSync(p))) done();
    }, 10);
    const timer = setTimeout(
      () => done(new Error(`socat did not create ${paths.join(' and ')} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('exit', onExit);
  });
}

function onceWithin<T>(what: string, timeoutMs: number, subscribe: (settle: (v: T) => void) => () => void): Promise<T> {
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    unsubscribe = subscribe((v) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(v);
    });
  });
}

function appSpeed(appPath: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile('stty', ['-F', appPath, 'speed'], (err, stdout) => {
      const n = Number(String(stdout).trim());
      resolve(err || !Number.isFinite(n) ? null : n);
    });
  });
}

export async function startFakeTerminal(opts: FakeTerminalOptions): Promise<FakeTerminal> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'counterpay-term-'));
  const appPath = path.join(dir, 'app');
  const termPath = path.join(dir, 'term');
  const baudRate = opts.baudRate ?? 115200;
  const received: string[] = [];
  const lineWaiters = new Set<(line: string) => void>();
  let socat: ChildProcess | null = null;
  let far: SerialPort | null = null;

  async function startSocat(): Promise<void> {
    for (const p of [appPath, termPath]) fs.rmSync(p, { force: true });
    const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${appPath}`, `pty,raw,echo=0,link=${termPath}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.resume();
    child.on('error', () => {}); // reported through 'exit' / the link wait
    socat = child;
    await waitForLinks([appPath, termPath], child, LINK_TIMEOUT_MS);
  }

  async function openFarEnd(): Promise<void> {
    const port = new SerialPort({ path: termPath, baudRate, autoOpen: false });
    port.on('error', () => {}); // an unplugged far end errors; the tests watch the app side
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    const parser = port.pipe(new ReadlineParser({ delimiter: '\n', encoding: 'latin1' }));
    parser.on('data', (raw: string) => void onLine(port, raw.replace(/[\r\n]+$/, '')));
    far = port;
  }

  async function onLine(port: SerialPort, line: string): Promise<void> {
    received.push(line);
    for (const w of [...lineWaiters]) w(line);
    if (term.silent || line.trim() !== 'SN?') return;
    const reply = Buffer.from(`SN:${term.sn}\r\n`);
    const speed = await appSpeed(appPath);
    if (!port.isOpen) return;
    port.write(speed !== null && speed !== baudRate ? garble(reply) : reply);
  }

  function closeFarEnd(): Promise<void> {
    const port = far;
    far = null;
    if (!port || !port.isOpen) return Promise.resolve();
    return onceWithin('the far end to close', LINK_TIMEOUT_MS, (settle) => {
      port.close(() => settle(undefined));
      return () => {};
    });
  }

  async function killSocat(): Promise<void> {
    const child = socat;
    socat = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await onceWithin('socat to exit', LINK_TIMEOUT_MS, (settle) => {
      child.once('exit', () => settle(undefined));
      child.kill('SIGTERM');
      return () => {};
    });
  }

  const term: FakeTerminal = {
    appPath,
    dir,
    received,
    sn: opts.sn,
    silent: opts.silent ?? false,
    async send(data) {
      const port = far;
      if (!port) throw new Error('The fake terminal is unplugged');
      await new Promise<void>((resolve, reject) => {
        port.write(data, (err) => (err ? reject(err) : port.drain((e) => (e ? reject(e) : resolve()))));
      });
    },
    async sendNoise() {
      for (const chunk of NOISE) await term.send(chunk);
    },
    waitForLine(match, timeoutMs = LINK_TIMEOUT_MS) {
      const already = received.find(match);
      if (already !== undefined) return Promise.resolve(already);
      return onceWithin('a line from the app', timeoutMs, (settle) => {
        const w = (line: string) => {
          if (match(line)) settle(line);
        };
        lineWaiters.add(w);
        return () => lineWaiters.delete(w);
      });
    },
    async unplug() {
      // socat goes first, so the app sees the hang-up a pulled cable gives; then this side is
      // closed outright (a hung-up pty can read as endless end-of-file instead of an error).
      await killSocat();
      await closeFarEnd();
    },
    async replug() {
      await startSocat();
      await openFarEnd();
    },
    async stop() {
      await closeFarEnd();
      await killSocat();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };

  await startSocat();
  try {
    await openFarEnd();
  } catch (e) {
    await killSocat();
    throw e;
  }
  return term;
}

interface ChangeSource {
  getState(): TerminalState;
  on(event: 'change', listener: (s: TerminalState) => void): void;
  off(event: 'change', listener: (s: TerminalState) => void): void;
}

/** Resolves with the first state (current or on a 'change') that satisfies `predicate`; fails after `timeoutMs`. */
export function waitForTerminalState(
  link: ChangeSource,
  predicate: (s: TerminalState) => boolean,
  what = 'the terminal state',
  timeoutMs = 5000,
): Promise<TerminalState> {
  const current = link.getState();
  if (predicate(current)) return Promise.resolve(current);
  return new Promise((resolve, reject) => {
    const onChange = (s: TerminalState) => {
      if (!predicate(s)) return;
      clearTimeout(timer);
      link.off('change', onChange);
      resolve(s);
    };
    const timer = setTimeout(() => {
      link.off('change', onChange);
      reject(
        new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; state is ${JSON.stringify(link.getState())}`),
      );
    }, timeoutMs);
    link.on('change', onChange);
  });
}
