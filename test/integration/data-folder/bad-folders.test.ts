// The real browser shell started on bad data folders: each gets one clear sentence and an exit
// code, and exits by itself (a hang fails the test by its timeout). Also: a second instance on the
// same folder is refused, and the folder and its files are made this-user-only at every start.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../helpers/close-after-each';
import { EXIT_DATA_DIR_LOCKED, EXIT_DATA_DIR_UNUSABLE } from '../../../core/data-folder/prepare-dir';
import { mountTmpfs, type Mount } from '../../helpers/mounts';

const ROOT = resolve(__dirname, '../../..');
const rendererDir = mkdtempSync(join(tmpdir(), 'counterpay-renderer-'));
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>CounterPay</title>');
chmodSync(rendererDir, 0o755); // readable by the unprivileged account of the unreadable-folder case
const isRoot = process.getuid?.() === 0;

interface Run {
  code: number | null;
  stderr: string;
}
const cleanup = closeAfterEach((done: () => void) => done());

/** Starts the shell; resolves at its exit, or at `ready` (then it is left running until cleanup). */
function shell(dataDir: string, opts: { uid?: number; untilReady?: boolean } = {}): Promise<Run & { ready?: boolean }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'browser-shell/cli.ts', '--data-dir', dataDir, '--port', '0', '--renderer-dir', rendererDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(opts.uid !== undefined ? { HOME: '/tmp' } : {}) },
      ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
    },
  );
  let out = '';
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((ok) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (opts.untilReady && out.includes('COUNTERPAY_URL=')) {
        cleanup(() => child.kill('SIGKILL'));
        ok({ code: null, stderr, ready: true });
      }
    });
    child.once('exit', (code) => ok({ code, stderr }));
  });
}

const oneSentence = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('CounterPay could not start'));

describe('bad data folders: one sentence and an exit code', () => {
  it('a folder that is a file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'counterpay-bad-')), 'data');
    writeFileSync(file, 'not a folder');
    const r = await shell(file);
    expect(r.code).toBe(EXIT_DATA_DIR_UNUSABLE);
    expect(oneSentence(r.stderr)).toEqual([
      `CounterPay could not start: The data folder ${file} is a file, not a folder; choose another folder with --data-dir or move the file away.`,
    ]);
  });

  it('a folder inside a file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'counterpay-bad-')), 'data');
    writeFileSync(file, 'not a folder');
    const r = await shell(join(file, 'inner'));
    expect(r.code).toBe(EXIT_DATA_DIR_UNUSABLE);
    expect(r.stderr).toMatch(/is a file, not a folder/);
    expect(r.stderr).not.toMatch(/ENOTDIR|EEXIST/);
  });

  it('/proc/nope: the pseudo file system is named, no hang', async () => {
    const r = await shell('/proc/nope');
    expect(r.code).toBe(EXIT_DATA_DIR_UNUSABLE);
    expect(oneSentence(r.stderr)).toEqual([
      "CounterPay could not start: The data folder /proc/nope is on the system's proc file system, which cannot keep files; choose a normal folder with --data-dir.",
    ]);
  }, 20_000);

  it('an unreadable folder', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'counterpay-bad-'));
    chmodSync(parent, 0o755);
    const dir = join(parent, 'data');
    mkdirSync(dir, { mode: 0o000 });
    chmodSync(dir, 0o000);
    // Root reads any folder: the shell then runs as the unprivileged "nobody" account.
    const r = await shell(dir, isRoot ? { uid: 65534 } : {});
    expect(r.code).toBe(EXIT_DATA_DIR_UNUSABLE);
    expect(oneSentence(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/may not (read|change the permissions of) the data folder/);
  });

  it('a folder on a read-only disk', async (t) => {
    const m = mountTmpfs({ sizeBytes: 1 << 20, readOnly: true });
    if ('skip' in m) {
      console.log(`skipped: ${m.skip}`);
      return t.skip();
    }
    cleanup(() => (m as Mount).unmount());
    const r = await shell(m.dir);
    expect(r.code).toBe(EXIT_DATA_DIR_UNUSABLE);
    expect(oneSentence(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/read-only disk/);
  });

  it('a second CounterPay on the same folder is refused while the first runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-lock-'));
    const first = await shell(dir, { untilReady: true });
    expect(first.ready).toBe(true);
    const second = await shell(dir);
    expect(second.code).toBe(EXIT_DATA_DIR_LOCKED);
    expect(oneSentence(second.stderr)[0]).toMatch(
      /^CounterPay could not start: Another CounterPay \(process \d+\) is already using the data folder/,
    );
  });
});

describe('file modes', () => {
  it('an existing 0755 folder with 0644 files becomes 0700 with 0600 files at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-modes-'));
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'settings.json'), '{"activeProfile":"demo"}', { mode: 0o644 });
    chmodSync(join(dir, 'settings.json'), 0o644);
    closeSync(openSync(join(dir, 'counterpay.db'), 'w', 0o644));
    chmodSync(join(dir, 'counterpay.db'), 0o644);
    const r = await shell(dir, { untilReady: true });
    expect(r.ready).toBe(true);
    const mode = (name: string) => statSync(join(dir, name)).mode & 0o777;
    expect(mode('.')).toBe(0o700);
    for (const f of [
      'settings.json',
      'settings.last-good.json',
      'secrets.json',
      'counterpay.db',
      'counterpay.db-wal',
      'counterpay.lock',
    ])
      expect([f, mode(f)]).toEqual([f, 0o600]);
  });
});
