// The first manager from the command line, as an operator does it: `npm run hub` prints a one-time
// setup link while there is no manager, and `npm run hub -- create-manager` reads the password from
// stdin. Real processes on a PGlite data folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseHubArgs } from '../../hub/config';
import { openHubDb } from '../../hub/db/open';
import { checkLogin } from '../../hub/store/login-throttle';
import { listManagers } from '../../hub/store/managers';
import { formatLagosDateTime } from '../../shared/time';
import { Manager } from './helpers/dashboard-client';
import { killAllHubs } from './helpers/hub-process';

const ROOT = join(__dirname, '..', '..');
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hub-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  killAllHubs();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function runCli(args: string[], stdin: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'node'), ['--import', 'tsx', 'hub/cli.ts', ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
  });
}

describe('first manager from the command line', () => {
  it('create-manager checks its options and reads the password from stdin; the hash verifies, the password is nowhere in the output', async () => {
    expect(() => parseHubArgs(['create-manager', 'Ada'], {})).toThrow(ConfigError);
    expect(() => parseHubArgs(['create-manager', 'Ada', '--role', 'branch'], {})).toThrow(/--branch/);
    expect(() => parseHubArgs(['create-manager', 'Ada', '--role', 'head-office', '--branch', 'B1'], {})).toThrow(
      /leave out --branch/,
    );
    expect(() => parseHubArgs(['--closing-time', '25:00'], {})).toThrow(/HH:MM/);
    expect(parseHubArgs(['create-manager', 'Ada', '--role', 'branch', '--branch', 'B1'], {})).toMatchObject({
      command: 'create-manager',
      commandArg: 'Ada',
      role: 'branch',
      branch: 'B1',
    });

    const dir = tmp();
    const short = await runCli(
      ['create-manager', 'Ada Obi', '--role', 'branch', '--branch', 'B1', '--data-dir', dir],
      'short\n',
    );
    expect(short.code).toBe(2);
    expect(short.err).toContain('at least 10 characters');
    const ok = await runCli(
      ['create-manager', 'Ada Obi', '--role', 'branch', '--branch', 'B1', '--data-dir', dir],
      'a long enough password\nignored\n',
    );
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('manager "Ada Obi" created (branch B1)');
    expect(ok.out + ok.err).not.toContain('a long enough password');
    const twice = await runCli(
      ['create-manager', 'ada obi', '--role', 'head-office', '--data-dir', dir],
      'a long enough password\n',
    );
    expect(twice.code).not.toBe(0);
    const db = await openHubDb({ dataDir: dir });
    try {
      expect((await listManagers(db)).map((m) => [m.name, m.role, m.branch])).toEqual([['Ada Obi', 'branch', 'B1']]);
      expect((await checkLogin(db, 'Ada Obi', 'a long enough password', Date.now())).name).toBe('Ada Obi');
    } finally {
      await db.close();
    }
  });

  it('npm run hub prints a setup link while there is no manager; its token creates the head-office manager once', async () => {
    const dir = tmp();
    const child = spawn(
      join(ROOT, 'node_modules', '.bin', 'node'),
      ['--import', 'tsx', 'hub/cli.ts', '--port', '0', '--log-level', 'warn', '--no-enroll-code', '--data-dir', dir],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      let out = '';
      const m = await new Promise<RegExpExecArray>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const x =
            /create the head-office manager within 60 minutes at (http:\/\/[^\s/]+)\/dashboard\/#setup=([A-Za-z0-9_-]{43})/.exec(
              out,
            );
          if (x) resolve(x);
        });
        child.once('exit', (code) => reject(new Error(`hub exited ${code}: ${out}`)));
      });
      const [, url, token] = m;
      const b = new Manager(url!);
      const r = await b.req('POST', '/api/v1/dashboard/setup', {
        token,
        name: 'Head Office',
        password: 'first password 123',
      });
      expect(r.status).toBe(200);
      expect(r.json.manager).toMatchObject({ role: 'head-office' });
      expect((await b.get('/today')).status).toBe(200);
      expect(
        (
          await new Manager(url!).req('POST', '/api/v1/dashboard/setup', {
            token,
            name: 'Again',
            password: 'first password 123',
          })
        ).status,
      ).toBe(403);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('enroll-code prints when the code expires in Lagos time, not UTC', async () => {
    const dir = tmp();
    const before = Date.now();
    const r = await runCli(['enroll-code', '--ttl-minutes', '30', '--data-dir', dir], '');
    const after = Date.now();
    expect(r.code).toBe(0);
    const until = /valid until (.+?)\)\n/.exec(r.out)?.[1];
    expect(until, r.out).toBeDefined();
    expect(until).not.toMatch(/Z$|UTC|T\d/);
    // The printed time is the Lagos clock 30 minutes after the command ran (to the second, inside the run).
    const expected = new Set<string>();
    for (let t = Math.floor(before / 1000) * 1000; t <= after; t += 1000)
      expected.add(`${formatLagosDateTime(t + 30 * 60_000)} Lagos time`);
    expect([...expected]).toContain(until);
  });
});
