// Manager accounts and sessions of the dashboard on a real Hub (PGlite in memory, HTTP on loopback):
// the first-start setup link, login, throttling under parallel attempts, session fixation, CSRF
// (token header and Origin), idle and absolute expiry, logout and logout everywhere, roles, and no
// secret in any answer or log line.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginFailures } from '../../../hub/store/login-throttle';
import { createManager, issueSetupToken, passwordChecks } from '../../../hub/store/managers';
import { CSRF_HEADER, SESSION_COOKIE } from '../../../shared/hub-dashboard-contract';
import { Manager } from '../helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../helpers/hub-harness';

const PW = 'correct horse battery';
let logText = '';
const logStream = new Writable({
  write(chunk: Buffer, _enc, cb) {
    logText += chunk.toString();
    cb();
  },
});

describe('dashboard accounts and sessions', () => {
  let hub: TestHub;
  const secrets: string[] = [PW];
  const answers: string[] = [];
  const keep = <T extends { text: string }>(a: T): T => {
    answers.push(a.text);
    return a;
  };

  beforeAll(async () => {
    hub = await startTestHub({
      logger: pino({ level: 'debug' }, logStream),
      dashboard: {
        session: { idleMs: 30 * 60_000, absoluteMs: 4 * 3_600_000 },
        throttle: { free: 3, firstWaitMs: 60_000, maxWaitMs: 3_600_000 },
        loginsPerMinute: 100_000,
      },
    });
  });
  afterAll(async () => hub?.stop());

  it('the first manager is created once with the setup link; the link works once, before expiry, and only while there is no manager', async () => {
    const expired = (await issueSetupToken(hub.db, hub.ctx.now() - 2 * 3_600_000, 60))!;
    const setup = (await issueSetupToken(hub.db, hub.ctx.now(), 60))!;
    secrets.push(setup.token, expired.token);
    const m = new Manager(hub.url);
    const late = keep(
      await m.req('POST', '/api/v1/dashboard/setup', { token: expired.token, name: 'Head Office', password: PW }),
    );
    expect(late.status).toBe(403);
    const ok = keep(
      await m.req('POST', '/api/v1/dashboard/setup', { token: setup.token, name: 'Head Office', password: PW }),
    );
    expect(ok.status).toBe(200);
    expect(ok.json.manager).toMatchObject({ name: 'Head Office', role: 'head-office', branch: null });
    expect(m.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    secrets.push(m.cookie!);
    const again = keep(
      await new Manager(hub.url).req('POST', '/api/v1/dashboard/setup', {
        token: setup.token,
        name: 'Second',
        password: PW,
      }),
    );
    expect(again.status).toBe(403);
    expect(await issueSetupToken(hub.db, hub.ctx.now())).toBeNull();
    // The hash is scrypt with its parameters; neither the token nor the password is stored.
    const row = (
      await hub.db.query<{ password_hash: string }>(`select password_hash from managers where name = 'Head Office'`)
    )[0]!;
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    secrets.push(row.password_hash.split('$')[5]!);
    const tokens = await hub.db.query<{ token_hash: string }>('select token_hash from setup_tokens');
    expect(tokens.map((t) => t.token_hash).join()).not.toContain(setup.token);
  });

  it('login answers a session cookie that is HttpOnly, SameSite=Strict, Path=/ (Secure only under TLS or when told)', async () => {
    const m = new Manager(hub.url);
    const r = keep(await m.login('head office', PW)); // names are case-insensitive
    expect(r.status).toBe(200);
    const set = r.headers.get('set-cookie')!;
    expect(set).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=\\d+$`),
    );
    expect(set).not.toContain('Secure');
    expect(r.json.csrfToken).toEqual(expect.any(String));
    secrets.push(m.cookie!);
    const s = keep(await m.get('/session'));
    expect(s.status).toBe(200);
    expect(s.json.manager).toMatchObject({ name: 'Head Office' });

    const secure = await startTestHub({ dashboard: { secureCookie: true } });
    try {
      await createManager(secure.db, { name: 'Sec', password: PW, role: 'head-office', branch: null }, Date.now());
      const r2 = await new Manager(secure.url).login('Sec', PW);
      expect(r2.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await secure.stop();
    }
  });

  it('a wrong password is refused without saying whether the name exists', async () => {
    const m = new Manager(hub.url);
    const a = keep(await m.login('Head Office', 'wrong password!!'));
    const b = keep(await m.login('Nobody Here', 'wrong password!!'));
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(a.json.code).toBe('HUB_LOGIN_FAILED');
    expect(a.json.message).toBe(b.json.message);
    expect(m.cookie).toBeNull();
  });

  it('20 parallel wrong logins from one address check at most the allowed hashes; the wait grows with checked failures, and even the right password waits it out', async () => {
    const victim = await createManager(
      hub.db,
      { name: 'Target', password: PW, role: 'head-office', branch: null },
      hub.ctx.now(),
    );
    const before = passwordChecks.count;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => new Manager(hub.url).login('Target', 'not the password')),
    );
    const checked = passwordChecks.count - before;
    expect(results.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(3); // the free attempts of the policy
    const f = await loginFailures(hub.db, victim.id);
    // Only checked failures count (issue 36), for the account and the address alike: a try refused
    // before its hash costs nothing and lengthens no wait.
    expect(f.failures).toBe(checked);
    expect(f.lockedUntil).toBeLessThanOrEqual(hub.ctx.now() + 60_000); // the account only slows down
    // Guessing on from there as fast as the waits allow: each wait is longer than the one before, and
    // while one lasts even the right password waits.
    const start = hub.clock.offsetMs;
    try {
      const waits: number[] = [];
      while (waits.length < 3) {
        const r = await new Manager(hub.url).login('Target', 'not the password');
        if (r.status !== 429) {
          expect(r.status).toBe(401);
          continue;
        }
        const ms = (r.json.details as { retryAfterMs: number }).retryAfterMs;
        waits.push(ms);
        if (waits.length === 3) expect((await new Manager(hub.url).login('Target', PW)).status).toBe(429);
        hub.clock.offsetMs += ms;
      }
      expect(waits[1]).toBeGreaterThan(waits[0]!);
      expect(waits[2]).toBeGreaterThan(waits[1]!);
    } finally {
      hub.clock.offsetMs = start;
    }
    // After the wait, the right password gets in and the count starts again.
    hub.clock.offsetMs += 2 * 3_600_000;
    try {
      const ok = await new Manager(hub.url).login('Target', PW);
      expect(ok.status).toBe(200);
      expect((await loginFailures(hub.db, victim.id)).failures).toBe(0);
    } finally {
      hub.clock.offsetMs -= 2 * 3_600_000;
    }
  });

  it('no session fixation: a login never keeps a session id the browser brought, and an unknown id is never adopted', async () => {
    const victim = new Manager(hub.url);
    await victim.login('Head Office', PW);
    const planted = victim.cookie!;
    // Logging in again from a browser that carries a valid session gives a new id and ends the old one.
    const again = await victim.login('Head Office', PW);
    expect(again.status).toBe(200);
    expect(victim.cookie).not.toBe(planted);
    const old = new Manager(hub.url);
    old.cookie = planted;
    expect((await old.get('/session')).status).toBe(401);
    // An attacker's made-up id is not turned into a session.
    const forged = new Manager(hub.url);
    forged.cookie = 'A'.repeat(43);
    await forged.login('Head Office', PW);
    expect(forged.cookie).not.toBe('A'.repeat(43));
    const f2 = new Manager(hub.url);
    f2.cookie = 'A'.repeat(43);
    expect((await f2.get('/session')).status).toBe(401);
  });

  it("CSRF: a write needs the session's token header, and a foreign Origin is refused (login too)", async () => {
    const m = new Manager(hub.url);
    await m.login('Head Office', PW);
    const body = { name: 'Branch One', password: PW, role: 'branch', branch: 'B1' };
    const noToken = await m.post('/managers', body, { [CSRF_HEADER]: '' });
    expect(noToken.status).toBe(403);
    expect(noToken.json.code).toBe('HUB_CSRF');
    const wrong = await m.post('/managers', body, { [CSRF_HEADER]: 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    const otherSite = await m.post('/managers', body, { origin: 'https://evil.example' });
    expect(otherSite.status).toBe(403);
    expect(otherSite.json.code).toBe('HUB_CSRF');
    // Nothing was created by the refused writes.
    expect((await hub.db.query(`select 1 from managers where name = 'Branch One'`)).length).toBe(0);
    const sameSite = await m.post('/managers', body, { origin: hub.url });
    expect(sameSite.status).toBe(200);
    expect(sameSite.json).toMatchObject({ name: 'Branch One', role: 'branch', branch: 'B1' });
    expect(JSON.stringify(sameSite.json)).not.toMatch(/password|scrypt/);
    const crossLogin = await new Manager(hub.url).req(
      'POST',
      '/api/v1/dashboard/login',
      { name: 'Head Office', password: PW },
      { origin: 'https://evil.example' },
    );
    expect(crossLogin.status).toBe(403);
  });

  it('roles: a branch manager may not list or create managers', async () => {
    const b = new Manager(hub.url);
    expect((await b.login('Branch One', PW)).status).toBe(200);
    expect((await b.get('/managers')).status).toBe(403);
    expect(
      (await b.post('/managers', { name: 'Sneaky', password: PW, role: 'head-office', branch: null })).status,
    ).toBe(403);
    const h = new Manager(hub.url);
    await h.login('Head Office', PW);
    const list = keep(await h.get('/managers'));
    expect(list.status).toBe(200);
    expect((list.json.managers as unknown[]).length).toBeGreaterThanOrEqual(3);
  });

  it('sessions end when idle, at their absolute limit, on logout, and everywhere on logout-everywhere', async () => {
    const a = new Manager(hub.url);
    await a.login('Head Office', PW);
    hub.clock.offsetMs += 31 * 60_000; // idle limit 30 min
    try {
      expect((await a.get('/session')).status).toBe(401);
    } finally {
      hub.clock.offsetMs -= 31 * 60_000;
    }
    const b = new Manager(hub.url);
    await b.login('Head Office', PW);
    try {
      for (let i = 1; i <= 10; i++) {
        hub.clock.offsetMs += 25 * 60_000; // used every 25 min: never idle, but 4 h absolute
        expect((await b.get('/session')).status).toBe(i * 25 < 240 ? 200 : 401);
      }
    } finally {
      hub.clock.offsetMs = 0;
    }

    const c = new Manager(hub.url);
    await c.login('Head Office', PW);
    const out = await c.post('/logout');
    expect(out.json).toEqual({ sessionsEnded: 1 });
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await c.get('/session')).status).toBe(401);

    const d1 = new Manager(hub.url);
    const d2 = new Manager(hub.url);
    const other = new Manager(hub.url);
    await d1.login('Head Office', PW);
    await d2.login('Head Office', PW);
    await other.login('Branch One', PW);
    const feed = await d2.live();
    await feed.until(() => feed.events.length > 0);
    const all = await d1.post('/logout-everywhere');
    expect(all.status).toBe(200);
    expect(all.json.sessionsEnded).toBeGreaterThanOrEqual(2);
    expect((await d2.get('/session')).status).toBe(401);
    expect((await other.get('/session')).status).toBe(200);
    // The open live feed of an ended session ends at its next heartbeat.
    await feed.done;
    expect(feed.events.every((e) => e.event === 'heartbeat')).toBe(true);
  });

  it('counters keep their own access: a manager session is no counter credential, and no answer carries a secret', async () => {
    const c = await enroll(hub, 'Till 1', 'B1');
    secrets.push(c.credential);
    const m = new Manager(hub.url);
    await m.login('Head Office', PW);
    const counters = keep(await m.get('/counters'));
    expect(counters.status).toBe(200);
    const code = keep(await m.post('/counters/enroll-codes', { ttlMinutes: 5, branch: 'B1' }));
    expect(code.status).toBe(200);
    const sessions = await hub.db.query<{ id_hash: string }>('select id_hash from manager_sessions');
    for (const s of sessions) expect(s.id_hash).toMatch(/^[0-9a-f]{64}$/);
    const everything = answers.join('\n');
    for (const s of secrets) expect(everything).not.toContain(s);
    expect(everything).not.toMatch(/scrypt\$|password_hash|token_hash|id_hash/);
    for (const s of [...secrets, ...sessions.map((x) => x.id_hash)]) expect(logText).not.toContain(s);
    expect(logText).toContain('manager logged in');
  });
});
