// Starts the real browser shell as a child process on a fresh data folder and resolves when it
// prints its address (an event, not a sleep).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ShellProcess {
  /** A one-time address for the test's page (the printed one is spent by the helper). */
  url: string;
  /** The address the shell printed (its launch token already spent). */
  printedUrl: string;
  origin: string;
  /** The helper's own session, sent as the x-counterpay-token header by calls from the test. */
  token: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

/**
 * `openShift`: a cashier's shift is opened as soon as the shell answers (charging needs one), for
 * tests about something else; a test about shifts themselves leaves it out. `rendererDir`: the
 * pages to serve instead of the built app (a vitest test that only calls the API runs before the
 * build in `npm test`).
 */
export async function startShellProcess(
  opts: {
    dataDir?: string;
    env?: Record<string, string>;
    openShift?: boolean;
    rendererDir?: string;
    args?: string[];
  } = {},
): Promise<ShellProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'counterpay-e2e-'));
  // Node itself with tsx as a loader, not the tsx command: the tsx command relays SIGTERM to a child
  // node and SIGKILLs it when the child does not acknowledge within 30 ms, which on a busy machine
  // cut the shell off before it closed its journal (the sales were left in the -wal file).
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'browser-shell/cli.ts',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      ...(opts.rendererDir ? ['--renderer-dir', opts.rendererDir] : []),
      ...(opts.args ?? []),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
  // As a page would: the printed address's one-time token is spent for a session (its cookie,
  // sent here as the token header); the test's page gets an address of its own.
  const launch = /token=([^&]+)/.exec(u.hash)?.[1] ?? '';
  const opened = await fetch(`${u.origin}/api/session`, { method: 'POST', headers: { 'x-counterpay-token': launch } });
  const token = /=([^;]+)/.exec(opened.headers.get('set-cookie') ?? '')?.[1] ?? '';
  if (!opened.ok || !token) throw new Error(`could not open a session on the new shell (HTTP ${opened.status})`);
  const link = await fetch(`${u.origin}/api/session/link`, {
    method: 'POST',
    headers: { 'x-counterpay-token': token },
  });
  const pageUrl = ((await link.json()) as { value?: { url?: string } }).value?.url;
  if (!pageUrl) throw new Error('could not get an address for the page from the new shell');
  if (opts.openShift) {
    const res = await fetch(`${u.origin}/api/call/shift.open`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-counterpay-token': token },
      body: JSON.stringify({ args: { cashier: 'Ngozi', openingFloat: '' } }),
    });
    const body = (await res.json()) as { ok: boolean; error?: { message: string } };
    if (!body.ok) throw new Error(`could not open a shift on the new shell: ${body.error?.message}`);
  }
  return {
    url: pageUrl,
    printedUrl: url,
    origin: u.origin,
    token,
    dataDir,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      // A shell that did not run its own stop left its journal unclosed: tests that look at the
      // data folder afterwards would be looking at something a real stop never leaves.
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (child.exitCode !== 0)
        throw new Error(
          `the browser shell did not stop cleanly (exit ${child.exitCode ?? child.signalCode}):\n${out.slice(-2000)}`,
        );
    },
  };
}
