// The log files: real files in a temp folder, read back as a support person would read them.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import { logFileNames, openFileLogger, type FileLogger } from '../../../core/logging/log-files';

const dirs: string[] = [];
const loggers: FileLogger[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'counterpay-logs-'));
  dirs.push(d);
  return d;
}
async function open(dir: string, extra: Partial<Parameters<typeof openFileLogger>[0]> = {}): Promise<FileLogger> {
  const l = await openFileLogger({ dir, scope: 'test', ...extra });
  loggers.push(l);
  return l;
}
const allText = (dir: string) =>
  logFileNames(dir)
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('');

afterEach(() => {
  for (const l of loggers.splice(0)) l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const SECRET_KEY = 'sk_live_7Hq2ZpX9vLmN4rT8';
const CLIENT_AUTH_KEY = 'cak-4f1e9a7b2c6d';
const PIN = '975318';

describe('log files', () => {
  it('writes one JSON record a line that a reader can parse, with level, time, scope and fields', async () => {
    const dir = tempDir();
    const log = await open(dir);
    log.info('provider call answered', { op: 'pos.createOrder', status: 200 });
    log.warn('pos call refused or unreadable', { op: 'pos.qryOrderDetail', providerCode: '10002' });
    const lines = allText(dir)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 'info',
      scope: 'test',
      msg: 'provider call answered',
      op: 'pos.createOrder',
      status: 200,
    });
    expect(lines[1]).toMatchObject({ level: 'warn', providerCode: '10002' });
    expect(new Date(String(lines[0]?.time)).toISOString()).toBe(lines[0]?.time);
    expect(log.recent(64 * 1024).map((r) => r.msg)).toEqual([
      'provider call answered',
      'pos call refused or unreadable',
    ]);
  });

  it('never lets a private key, secret key, clientAuthKey or PIN reach the file, at any depth or inside a message', async () => {
    const dir = tempDir();
    const log = await open(dir);
    log.setSecretSource(() => [PRIVATE_KEY, SECRET_KEY, CLIENT_AUTH_KEY]);
    log.info('saved', {
      merchantPrivateKey: PRIVATE_KEY,
      billsSecretKey: SECRET_KEY,
      posClientAuthKey: CLIENT_AUTH_KEY,
      pin: PIN,
    });
    log.warn('nested', {
      cfg: { secrets: { merchantPrivateKey: PRIVATE_KEY, billsSecretKey: SECRET_KEY } },
      list: [{ clientAuthKey: CLIENT_AUTH_KEY }, { newPin: PIN }],
    });
    log.error('innocent names', {
      detail: PRIVATE_KEY,
      note: `the key is ${SECRET_KEY}`,
      value: CLIENT_AUTH_KEY,
      error: new Error(`could not read ${PRIVATE_KEY}`),
    });
    log.error(`unlock failed with PIN ${PIN}`);
    log.error(`request clientAuthKey=${CLIENT_AUTH_KEY} secretKey: ${SECRET_KEY}`);
    log.error(`key pasted: ${PRIVATE_KEY}`);
    log.warn(`answer ${JSON.stringify({ posClientAuthKey: CLIENT_AUTH_KEY, pin: PIN })}`);
    const text = allText(dir);
    expect(text.trim().split('\n')).toHaveLength(7); // every record is there, only masked
    for (const secret of [SECRET_KEY, CLIENT_AUTH_KEY, PIN, 'PRIVATE KEY']) expect(text).not.toContain(secret);
    for (const line of PRIVATE_KEY.split('\n').filter((l) => l.length > 16)) expect(text).not.toContain(line);
    expect(text).toContain('[redacted');
  });

  it('masks pasted keys by their shape even before the app has told it the keys', async () => {
    const dir = tempDir();
    const log = await open(dir);
    log.info('innocent names', { detail: PRIVATE_KEY, sig: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=' });
    log.info(`clientAuthKey: ${CLIENT_AUTH_KEY}`);
    const text = allText(dir);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain('Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A');
    expect(text).not.toContain(CLIENT_AUTH_KEY);
  });

  it('the memory logger that tests use masks the same way', () => {
    const log = memoryLogger();
    log.info(`PIN ${PIN}`, { deep: { a: { posClientAuthKey: CLIENT_AUTH_KEY } } });
    expect(JSON.stringify(log.lines)).not.toContain(PIN);
    expect(JSON.stringify(log.lines)).not.toContain(CLIENT_AUTH_KEY);
  });

  it('a full disk never throws into the caller, and says so once', async () => {
    const dir = tempDir();
    symlinkSync('/dev/full', join(dir, 'counterpay.1.log')); // every write fails with ENOSPC
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const echo = memoryLogger();
    const log = await open(dir, { echo });
    for (let i = 0; i < 5; i++) expect(() => log.error('sale goes on', { i })).not.toThrow();
    expect(echo.lines).toHaveLength(5); // the console copy still gets every record
    expect(consoleError.mock.calls.filter((c) => String(c[0]).includes('could not write its log file'))).toHaveLength(
      1,
    );
    consoleError.mockRestore();
  });

  it('a log folder that cannot be made leaves a working logger that writes nothing', async () => {
    const base = tempDir();
    writeFileSync(join(base, 'a-file'), 'not a folder');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = await open(join(base, 'a-file', 'logs'));
    expect(() => log.warn('still selling')).not.toThrow();
    expect(log.recent(1024)).toEqual([]);
    expect(consoleError).toHaveBeenCalledTimes(1);
    consoleError.mockRestore();
  });

  it('rotates into numbered files, keeps a bounded number, and reads back the newest records in order', async () => {
    const dir = tempDir();
    const log = await open(dir, { maxFileBytes: 2048, keepFiles: 2 });
    for (let i = 0; i < 200; i++) {
      log.info('record', { i, pad: 'x'.repeat(60) });
      // pino-roll rolls on the stream's next 'drain' event: let the event loop turn, as it does between real records.
      if (i % 10 === 9) await new Promise((r) => setImmediate(r));
    }
    await vi.waitFor(() => {
      expect(logFileNames(dir)[0]).not.toBe('counterpay.1.log');
      expect(readdirSync(dir).filter((n) => n.endsWith('.log')).length).toBeLessThanOrEqual(3);
    });
    const recent = log.recent(4096);
    const numbers = recent.map((r) => r.i as number);
    expect(numbers.at(-1)).toBe(199);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.length).toBeGreaterThan(5);
  });

  it('a restart appends to the newest file instead of starting over', async () => {
    const dir = tempDir();
    const first = await open(dir);
    first.info('before restart');
    first.close();
    const second = await open(dir);
    second.info('after restart');
    expect(second.recent(64 * 1024).map((r) => r.msg)).toEqual(['before restart', 'after restart']);
  });
});
