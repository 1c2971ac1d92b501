// A Hub as a child process (Node 22 with the tsx loader, one process: the `tsx` wrapper would
// leave its child running when killed), as an operator runs it: for kill -9 tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ADMIN_TOKEN } from './hub-harness';

const ROOT = join(__dirname, '..', '..', '..');

export interface HubProcess {
  url: string;
  child: ChildProcess;
  /** What the Hub printed on stdout so far (the setup link, the enrollment code). */
  output(): string;
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** For afterAll: no Hub process outlives its test file, even when a test failed or timed out. */
export function killAllHubs(): void {
  for (const c of running) c.kill('SIGKILL');
  running.clear();
}

export function spawnHub(args: string[], env: Record<string, string> = {}): Promise<HubProcess> {
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'node'),
    [
      '--import',
      'tsx',
      'hub/cli.ts',
      '--port',
      '0',
      '--log-level',
      'warn',
      '--no-enroll-code',
      '--no-dashboard-build',
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, HUB_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https?:\/\/[^\s]+)/.exec(out);
      if (m)
        resolve({
          url: m[1]!,
          child,
          output: () => out,
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`hub exited with ${code} before listening: ${err.slice(-2000)}`)));
  });
}
