// `npm run sandbox` as a user runs it: a demo configuration written to --out with its values
// printed, a --config file served on --port, and a bad config refused with the field named.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IDS, billsCall, rawRequest, testConfig } from '../../helpers/sandbox-client-helpers';

const ROOT = resolve(__dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CLI = join(ROOT, 'sandbox/cli.ts');

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cp-sandbox-cli-'));
  dirs.push(d);
  return d;
}

/** Spawns the CLI and resolves with its output once `until` matches it (or rejects on exit). */
function run(args: string[], until: RegExp): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(TSX, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolveRun, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`CLI did not print ${until} within 30 s:\n${out}\n${err}`)),
      30_000,
    );
    child.stdout!.on('data', (c) => {
      out += c;
      if (until.test(out)) {
        clearTimeout(timer);
        resolveRun({ child, out });
      }
    });
    child.stderr!.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`CLI exited with ${code}:\n${out}\n${err}`), { code, out, err }));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

describe('sandbox CLI', () => {
  it('without --config writes a demo configuration to --out and prints the URL and merchant values', async () => {
    const out = tempDir();
    const { out: text } = await run(['--out', out, '--port', '0', '--quiet'], /Control API:/);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
    expect(url).toBeDefined();
    for (const label of [
      'bills merchantId',
      'bills public key',
      'bills secret key',
      'headMerchantId',
      'merchantId',
      'clientAuthKey',
      'merchant private key (PEM)',
      'provider public key (PEM)',
      'terminal sn',
    ])
      expect(text).toContain(label);
    expect(text).toContain('DEMO-POS-0001');
    expect(existsSync(join(out, 'sandbox-config.json'))).toBe(true);
    expect(readFileSync(join(out, 'merchant-private-key.pem'), 'utf8')).toMatch(/BEGIN PRIVATE KEY/);
    expect(readFileSync(join(out, 'provider-public-key.pem'), 'utf8')).toMatch(/BEGIN PUBLIC KEY/);
    const health = await rawRequest(`${url}/_sandbox/health`, { method: 'GET' });
    expect(health.json.data).toEqual({ ok: true, url });
    // The printed values work against it.
    const secret = /bills secret key:\s+(\S+)/.exec(text)![1]!;
    const pub = /bills public key:\s+(\S+)/.exec(text)![1]!;
    const mid = /bills merchantId:\s+(\S+)/.exec(text)![1]!;
    const r = await rawRequest(`${url}/api/v3/bills/betting-providers`, {
      headers: { Authorization: `Bearer ${pub}`, MerchantId: mid },
    });
    expect(r.json.data).toHaveLength(3);
    expect(secret).toMatch(/^OPAYPRV/);
  });

  it('--config FILE --port N serves that configuration on port N', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(testConfig()));
    const port = await freePort();
    const { out } = await run(['--config', file, '--port', String(port), '--quiet'], /Control API:/);
    expect(out).toContain(`listening on http://127.0.0.1:${port}`);
    expect(out).toContain(IDS.terminalSn);
    const fake = { billsBaseUrl: `http://127.0.0.1:${port}/api/v3` } as Parameters<typeof billsCall>[0];
    const r = await billsCall(fake, 'validate', { serviceType: 'betting', provider: 'BET9JA', customerId: '20001' });
    expect(r.json.data.userName).toBe('chinedu01');
  });

  it('refuses a bad configuration with the offending field named', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(testConfig((c) => (c.pos.terminals![0]!.merchantId = 'NOWHERE'))));
    const e = (await run(['--config', file], /never/).catch((x) => x)) as { code: number; err: string };
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/pos\.terminals\[0\]\.merchantId: "NOWHERE" is not a branch/);
    writeFileSync(file, '{ not json');
    const e2 = (await run(['--config', file], /never/).catch((x) => x)) as { code: number; err: string };
    expect(e2.code).toBe(2);
    expect(e2.err).toMatch(/not valid JSON/);
  });
});
