// Starts the real browser shell as a child process on a fresh data folder and resolves when it
// prints its address (an event, not a sleep).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ShellProcess {
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

export async function startShellProcess(opts: { dataDir?: string; env?: Record<string, string> } = {}): Promise<ShellProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'counterpay-e2e-'));
  const child: ChildProcess = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['electron/browser/cli.ts', '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /COUNTERPAY_URL=(\S+)/.exec(out);
      if (m?.[1]) ok(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => fail(new Error(`browser shell exited (${code}) before it was ready:\n${out}`)));
  });
  const u = new URL(url);
  return {
    url,
    origin: u.origin,
    token: /token=([^&]+)/.exec(u.hash)?.[1] ?? '',
    dataDir,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
