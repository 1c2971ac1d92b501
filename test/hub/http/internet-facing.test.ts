// The Hub on the internet (issue 21): what an anonymous client, a rogue counter or a departed manager
// could do, each refused. Real Hubs (PGlite in memory) over loopback HTTP; a reverse proxy is played
// by sending X-Forwarded-For from loopback.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubDb } from '../../../hub/db/open';
import { buildHub } from '../../../hub/server';
import { csvCell } from '../../../shared/csv-cell';
import { createManager, passwordGate } from '../../../hub/store/managers';
import { rotatingFile } from '../../../hub/log-file';
import { Manager } from '../helpers/dashboard-client';
import { RelayClient } from '../helpers/sse-client';
import {
  ADMIN_TOKEN,
  bearer,
  enroll,
  get,
  post,
  posWebhook,
  sendPosWebhook,
  startTestHub,
  type TestHub,
} from '../helpers/hub-harness';
import { counterStatus } from '../helpers/route-fixtures';

const PW = 'manager password 1';
const fwd = (ip: string) => ({ 'x-forwarded-for': ip });

describe('the Hub is built apart from listening', () => {
  it('build() returns the app without listening; inject() answers', async () => {
    const db = await openHubDb({ databaseUrl: null, dataDir: null });
    const built = await buildHub({ db, merchant: null, logger: pino({ level: 'silent' }) });
    try {
      expect(built.app.server.listening).toBe(false);
      const r = await built.app.inject({ method: 'GET', url: '/healthz' });
      expect(r.json()).toEqual({ ok: true });
      expect(built.app.server.listening).toBe(false);
    } finally {
      await built.close();
      await db.close();
    }
  });
});

describe('High: an anonymous flood cannot starve counters or managers', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub({ rateLimits: { perAddress: 30 }, trustProxy: ['127.0.0.1'] });
    await createManager(hub.db, { name: 'Ada', password: PW, role: 'head-office', branch: null }, Date.now());
  });
  afterAll(() => hub.stop());

  it("a client flooding /me without a credential, from the counters' own address, gets 429 while the counters and a manager are answered", async () => {
    const c = await enroll(hub, 'Real', 'BR-1');
    const flooder = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await get(`${hub.url}/api/v1/me`, fwd(flooder))).status);
    expect(statuses).toContain(429);
    // A forged credential costs the flooder's bucket too.
    expect((await get(`${hub.url}/api/v1/me`, { ...fwd(flooder), ...bearer('x'.repeat(43)) })).status).toBe(429);
    // The real counter behind the same address: its own credential's bucket.
    const me = await get(`${hub.url}/api/v1/me`, { ...bearer(c.credential), ...fwd(flooder) });
    expect(me.status).toBe(200);
    const sync = await post(
      `${hub.url}/api/v1/sync`,
      {
        status: { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
        events: [],
      },
      { ...bearer(c.credential), ...fwd(flooder) },
    );
    expect(sync.status).toBe(200);
    // A manager logging in from another client behind the proxy.
    const login = await post(`${hub.url}/api/v1/dashboard/login`, { name: 'Ada', password: PW }, fwd('198.51.100.8'));
    expect(login.status).toBe(200);
  });

  it("an address that keeps on past its limit has its refusals held, so its flood cannot take the Hub's cores; a counter behind it is answered meanwhile", async () => {
    // perAddress 1 a minute: a burst of 10, then refusals. The brake: 10 refusals a minute (5 at once), then held (an hour here), at most 15 at once.
    const braked = await startTestHub({
      rateLimits: { perAddress: 1 },
      trustProxy: ['127.0.0.1'],
      floodBrake: { refusalsPerMinute: 10, holdMs: 3_600_000, maxHeld: 15 },
    });
    try {
      const c = await enroll(braked, 'Behind', 'BR-1');
      const flooder = fwd('203.0.113.77');
      const brake = braked.ctx.floodBrake;
      const fifteenHeld = new Promise<void>((resolve) => brake.on('held', (n) => n === 15 && resolve()));
      const answered: number[] = [];
      const all = Array.from({ length: 40 }, () =>
        get(`${braked.url}/api/v1/me`, flooder).then((r) => void answered.push(r.status)),
      );
      await fifteenHeld;
      expect(brake.heldNow()).toBe(15);
      // The real counter at the same address: its credential's own bucket, answered while the flood is held.
      expect((await get(`${braked.url}/api/v1/me`, { ...bearer(c.credential), ...flooder })).status).toBe(200);
      expect(brake.heldNow()).toBe(15);
      // 10 within the limit (401: no credential); 30 refused — 5 at once, 15 held, the rest at once past the cap of held ones.
      brake.close();
      await Promise.all(all);
      expect(answered.filter((s) => s === 401)).toHaveLength(10);
      expect(answered.filter((s) => s === 429)).toHaveLength(30);
    } finally {
      await braked.stop();
    }
  });

  it('without --trust-proxy a forwarded address is not believed', async () => {
    const plain = await startTestHub({ rateLimits: { perAddress: 10 } });
    try {
      for (let i = 0; i < 20; i++) await get(`${plain.url}/api/v1/me`, fwd('203.0.113.1'));
      expect((await get(`${plain.url}/api/v1/me`, fwd('203.0.113.2'))).status).toBe(429);
    } finally {
      await plain.stop();
    }
  });
});

describe("Medium: a counter cannot blank head office's dashboard with wild values; Low: broken text is a 400, not a 500", () => {
  let hub: TestHub;
  let cred: string;
  let seq = 0;
  const sync = (events: unknown[], st: Record<string, unknown> = counterStatus()) =>
    post(`${hub.url}/api/v1/sync`, { status: st, events }, bearer(cred));
  beforeAll(async () => {
    hub = await startTestHub();
    cred = (await enroll(hub, 'Rogue', 'BR-R')).credential;
    await createManager(hub.db, { name: 'Head', password: PW, role: 'head-office', branch: null }, Date.now());
  });
  afterAll(() => hub.stop());

  it('refuses event times beyond a Date or more than a day ahead of the Hub, and statuses outside the known list', async () => {
    const refused = async (e: Record<string, unknown>, says: RegExp) => {
      const r = await sync([{ seq: seq + 1, ...e }]);
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('HUB_BAD_REQUEST');
      expect(String(r.json.message)).toMatch(says);
    };
    const order = { kind: 'order.created', payload: { reference: 'COU1-X1', amountKobo: 1000, sn: 'SN' } };
    await refused({ ...order, at: 8.7e15 }, /not a time/);
    await refused({ ...order, at: Date.now() + 2 * 86_400_000 }, /more than a day ahead of the Hub's clock/);
    await refused(
      { kind: 'shift.opened', at: 8.6e15, payload: { shiftId: 'S1', cashier: 'Eve' } },
      /more than a day ahead/,
    );
    await refused(
      { kind: 'order.status', at: Date.now(), payload: { reference: 'COU1-X1', status: '__proto__' } },
      /status/,
    );
    // A counter offline for days is fine.
    expect((await sync([{ seq: ++seq, ...order, at: Date.now() - 5 * 86_400_000 }])).status).toBe(200);
    // And the dashboard still answers.
    const login = await post(`${hub.url}/api/v1/dashboard/login`, { name: 'Head', password: PW });
    expect(login.status).toBe(200);
  });

  it('NUL or a lone surrogate in a synced string, a query or a login name is a 400 that names the field', async () => {
    const r1 = await sync([
      {
        seq: seq + 1,
        kind: 'order.created',
        at: Date.now(),
        payload: { reference: 'COU1-X2', amountKobo: 1000, sn: 'SN', cashier: 'Ev\u0000e' },
      },
    ]);
    expect(r1.status).toBe(400);
    expect(String(r1.json.message)).toMatch(/cashier: holds NUL or a broken character/);
    const r2 = await sync([], { ...counterStatus(), appVersion: '0.1.\uD800' });
    expect(r2.status).toBe(400);
    expect(String(r2.json.message)).toMatch(/appVersion/);
    const r3 = await post(`${hub.url}/api/v1/dashboard/login`, { name: 'He\u0000ad', password: PW });
    expect(r3.status).toBe(400);
    const res = await fetch(`${hub.url}/api/v1/admin/notifications?orderNo=%00`, {
      headers: bearer('admin-token-for-tests-0123456789'),
    });
    expect(res.status).toBe(400);
  });
});

describe('Medium: the unauthenticated bills callback cannot fill the disk', () => {
  it('takes a small body only, and a per-address rate that a real provider never meets', async () => {
    const hub = await startTestHub({ rateLimits: { perBillsAddress: 60 } });
    try {
      const real = JSON.stringify({
        payload: {
          orderNo: 'BO-1',
          merchantOrderNo: 'COU1-T260101-0001',
          merchantId: 'M',
          orderAmount: '100.00',
          serviceType: 'AIRTIME',
          orderStatus: 'SUCCESS',
        },
        sha512: 'ab'.repeat(64),
        type: 'x',
      });
      expect((await post(hub.webhookUrls.bills, real)).status).toBe(200);
      const padded = JSON.stringify({
        payload: { orderNo: 'BO-2', merchantOrderNo: 'R-2', pad: 'x'.repeat(60_000) },
        sha512: 'ab',
        type: 'x',
      });
      const big = await post(hub.webhookUrls.bills, padded);
      expect(big.status).toBe(413);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push((await post(hub.webhookUrls.bills, real.replace('BO-1', `BO-${i + 10}`))).status);
      expect(statuses).toContain(429);
      const stored = await hub.db.query<{ n: unknown }>("select count(*) as n from notifications where kind = 'bills'");
      expect(Number(stored[0]!.n)).toBeLessThan(20);
    } finally {
      await hub.stop();
    }
  });
});

describe("Medium: a flood of logins cannot take the Hub's cores", () => {
  it('at most one password hash runs at once and a few wait; the rest are answered 429 at once, known name or not', async () => {
    const hub = await startTestHub({ trustProxy: ['127.0.0.1'] });
    try {
      await createManager(hub.db, { name: 'Known', password: PW, role: 'head-office', branch: null }, Date.now());
      passwordGate.peak = 0;
      const tries = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(
            `${hub.url}/api/v1/dashboard/login`,
            { name: i % 2 ? `nobody-${i}` : 'Known', password: 'wrong password 1' },
            fwd(`198.51.100.${i + 1}`),
          ),
        ),
      );
      const busy = tries.filter((t) => t.status === 429);
      expect(passwordGate.peak).toBe(1);
      expect(busy.length).toBeGreaterThan(20);
      expect(busy.some((t) => String(t.json.message).includes('checking many logins'))).toBe(true);
      // Once the flood is over the right password works.
      await createManager(hub.db, { name: 'Other', password: PW, role: 'head-office', branch: null }, Date.now());
      expect(
        (await post(`${hub.url}/api/v1/dashboard/login`, { name: 'Other', password: PW }, fwd('192.0.2.7'))).status,
      ).toBe(200);
    } finally {
      await hub.stop();
    }
  });
});

describe('Low: what the Hub keeps is its own', () => {
  it('/metrics answers the admin token only', async () => {
    const hub = await startTestHub();
    try {
      expect((await fetch(`${hub.url}/metrics`)).status).toBe(403);
      const c = await enroll(hub, 'Not admin', 'BR-M');
      expect((await fetch(`${hub.url}/metrics`, { headers: bearer(c.credential) })).status).toBe(403);
      const ok = await fetch(`${hub.url}/metrics`, { headers: bearer(ADMIN_TOKEN) });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('hub_counters_connected');
    } finally {
      await hub.stop();
    }
  });

  it('the PGlite data folder is 0700 and the log file 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-perm-'));
    try {
      const db = await openHubDb({ dataDir: join(dir, 'data') });
      await db.close();
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
      const log = rotatingFile(join(dir, 'hub.log'), 1000, 2);
      log.write('{"msg":"one"}\n');
      expect(statSync(join(dir, 'hub.log')).mode & 0o777).toBe(0o600);
      for (let i = 0; i < 100; i++) log.write('{"msg":"more lines to rotate"}\n');
      expect(statSync(join(dir, 'hub.log')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'hub.log.1')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Medium: a rogue counter cannot divert another counter's notifications", () => {
  it("an order belongs to the counter that created it: another branch's counter naming its provider order number first gets nothing", async () => {
    const hub = await startTestHub();
    try {
      const a = await enroll(hub, 'A', 'BR-A');
      const b = await enroll(hub, 'Rogue B', 'BR-B');
      const st = { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 };
      const sync = (cred: string, events: unknown[]) =>
        post(`${hub.url}/api/v1/sync`, { status: st, events }, bearer(cred));
      const t = Date.now();
      // B claims A's provider order number (and A's reference) with statuses of orders it never made.
      expect(
        (
          await sync(b.credential, [
            {
              seq: 1,
              kind: 'order.status',
              at: t,
              payload: { reference: 'COU1-A-0001', status: 'waiting', orderNo: 'PO-A-1' },
            },
            {
              seq: 2,
              kind: 'order.status',
              at: t,
              payload: { reference: 'COU9-B-0001', status: 'waiting', orderNo: 'PO-A-1' },
            },
          ])
        ).status,
      ).toBe(200);
      // A creates its order and learns its provider order number.
      expect(
        (
          await sync(a.credential, [
            {
              seq: 1,
              kind: 'order.created',
              at: t,
              payload: { reference: 'COU1-A-0001', amountKobo: 150_000, sn: 'SN' },
            },
            {
              seq: 2,
              kind: 'order.status',
              at: t + 1,
              payload: { reference: 'COU1-A-0001', status: 'waiting', orderNo: 'PO-A-1' },
            },
          ])
        ).status,
      ).toBe(200);
      // A later claim by B of A's reference (no counter code in it) is shared, never a takeover: the key stays A's too.
      expect(
        (
          await sync(b.credential, [
            {
              seq: 3,
              kind: 'order.created',
              at: t + 2,
              payload: { reference: 'COU1-A-0001', amountKobo: 1, sn: 'SN' },
            },
          ])
        ).status,
      ).toBe(200);
      const owners = await hub.db.query<{ order_key: string; counter_id: string }>(
        "select order_key, counter_id from order_owners where counter_id = $1 or order_key = 'PO-A-1' order by order_key",
        [a.counterId],
      );
      expect(owners).toEqual([
        { order_key: 'COU1-A-0001', counter_id: a.counterId },
        { order_key: 'PO-A-1', counter_id: a.counterId },
      ]);
      // A's signed POS webhook, even with B's branch in its routing header, goes to A only.
      for (const branch of ['BR-A', 'BR-B']) {
        const w = posWebhook(hub.merchant, { tranId: 'PO-A-1', branch });
        expect((await sendPosWebhook(hub, w)).status).toBe(200);
      }
      const to = await hub.db.query<{ counter_id: string }>(
        "select distinct d.counter_id from deliveries d join notifications n on n.id = d.notification_id where n.order_no = 'PO-A-1'",
      );
      expect(to).toEqual([{ counter_id: a.counterId }]);
    } finally {
      await hub.stop();
    }
  });
});

describe('Info: odd addresses', () => {
  it('/dashboard/%25 and other odd paths are answered, never 500', async () => {
    // A built dashboard of its own: the test must not depend on `npm run build:hub` having run.
    const dashboardDir = mkdtempSync(join(tmpdir(), 'cp-odd-paths-'));
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>app</title>');
    const hub = await startTestHub({ dashboardDir });
    try {
      for (const path of ['/dashboard/%25', '/dashboard/%25zz', '/dashboard/a%2F..%2F..%2Fpackage.json']) {
        const r = await fetch(hub.url + path);
        expect(r.status, path).toBeLessThan(500);
        expect(await r.text()).not.toContain('"name": "counterpay"');
      }
    } finally {
      await hub.stop();
      rmSync(dashboardDir, { recursive: true, force: true });
    }
  });
});

describe('Low: open streams are capped', () => {
  it('a counter holds at most 3 relay streams: a fourth closes the oldest', async () => {
    const hub = await startTestHub();
    try {
      const c = await enroll(hub, 'Streams', 'BR-S');
      const streams = Array.from({ length: 4 }, () => new RelayClient(hub.url, c.credential));
      for (const s of streams.slice(0, 3)) await s.connect();
      let firstEnded = false;
      void streams[0]!.ended.then(() => (firstEnded = true));
      await streams[3]!.connect();
      await streams[0]!.ended;
      expect(firstEnded).toBe(true);
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      await Promise.all(streams.slice(1).map((s) => s.disconnect()));
    } finally {
      await hub.stop();
    }
  });
});

describe('Low: logins do not tell real names from unknown ones', () => {
  it('wrong passwords for a real name and for an unknown one get the same answers, 401 then 429', async () => {
    const hub = await startTestHub({ trustProxy: ['127.0.0.1'] });
    try {
      await createManager(hub.db, { name: 'Real Name', password: PW, role: 'head-office', branch: null }, Date.now());
      const answers = async (name: string, from: string) => {
        const out: string[] = [];
        for (let i = 0; i < 5; i++) {
          const r = await post(`${hub.url}/api/v1/dashboard/login`, { name, password: 'wrong password 9' }, fwd(from));
          out.push(`${r.status} ${String(r.json.message)}`);
        }
        return out;
      };
      const real = await answers('Real Name', '198.51.100.21');
      const unknown = await answers('Nobody At All', '198.51.100.22');
      expect(real.some((x) => x.startsWith('429'))).toBe(true);
      expect(unknown).toEqual(real);
    } finally {
      await hub.stop();
    }
  });
});

describe('Low: a CSV export cell cannot become a formula', () => {
  it('= + - @ after leading spaces, tabs or line breaks get the leading quote too', () => {
    expect(csvCell(' =HYPERLINK("x")')).toBe('"\' =HYPERLINK(""x"")"');
    expect(csvCell('\t@SUM(A1)')).toBe("'\t@SUM(A1)");
    expect(csvCell('\n+A1')).toBe('"\'\n+A1"');
    expect(csvCell('  -1+2')).toBe("'  -1+2");
    expect(csvCell(' plain')).toBe(' plain');
    expect(csvCell('=A1')).toBe("'=A1");
  });
});

describe("Medium: guessing a manager's password cannot lock the manager out", () => {
  it("after 50 wrong passwords from many addresses the right one gets in from another after the account's short wait; a guesser whose guesses were checked stays locked; an unknown name answers alike", async () => {
    // The first wait a minute long: the answers do not depend on how fast the machine runs the test.
    const hub = await startTestHub({
      trustProxy: ['127.0.0.1'],
      dashboard: { loginsPerMinute: 100_000, throttle: { firstWaitMs: 60_000 } },
    });
    try {
      await createManager(hub.db, { name: 'Victim', password: PW, role: 'head-office', branch: null }, Date.now());
      const login = (name: string, password: string, from: string) =>
        post(`${hub.url}/api/v1/dashboard/login`, { name, password }, fwd(from));
      const guess = async (name: string) => {
        const out: string[] = [];
        for (let i = 0; i < 50; i++) {
          const r = await login(name, `wrong password ${i}`, `198.51.100.${(i % 5) + 1}`);
          out.push(`${r.status} ${String(r.json.message)}`);
        }
        return out;
      };
      const real = await guess('Victim');
      // Three checked, then the account waits (a minute at most) for everyone: no more hashes.
      expect(real.filter((x) => x.startsWith('401')).length).toBe(3);
      expect(await guess('No Such Manager')).toEqual(real);
      // A client that did not guess: at most the account's wait (a minute), then the right password works.
      hub.clock.offsetMs += 61_000;
      expect((await login('Victim', PW, '192.0.2.50')).status).toBe(200);
      // One address guessing as fast as the waits allow: each checked wrong password doubles its own
      // wait (a refused try counts for nothing), and past the account's minute it is locked out alone.
      const guesser = '198.51.100.99';
      const tries: number[] = [];
      for (let i = 0; i < 5; i++) {
        tries.push((await login('Victim', `wrong password x${i}`, guesser)).status);
        if (i >= 2) hub.clock.offsetMs += 61_000;
      }
      expect(tries).toEqual([401, 401, 401, 401, 429]);
      hub.clock.offsetMs += 60_000;
      expect((await login('Victim', 'wrong password y', guesser)).status).toBe(401);
      hub.clock.offsetMs += 61_000;
      expect((await login('Victim', PW, '192.0.2.50')).status).toBe(200);
      const locked = await login('Victim', PW, guesser);
      expect(locked.status).toBe(429);
      expect((locked.json.details as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(60_000);
    } finally {
      await hub.stop();
    }
  });
});

describe('Medium: the dashboard knows its own address', () => {
  it("an Origin with the Hub's host but another scheme is refused; the Hub's own origin is taken", async () => {
    const hub = await startTestHub();
    try {
      const login = (origin: string) =>
        post(`${hub.url}/api/v1/dashboard/login`, { name: 'Nobody', password: 'wrong password 1' }, { origin });
      const otherScheme = await login(hub.url.replace(/^http:/, 'https:'));
      expect([otherScheme.status, otherScheme.json.code]).toEqual([403, 'HUB_CSRF']);
      expect((await login(hub.url)).status).toBe(401);
    } finally {
      await hub.stop();
    }
  });

  it("behind a TLS proxy (--secure-cookie) the Hub's origin is https under the asked Host", async () => {
    const hub = await startTestHub({ dashboard: { secureCookie: true } });
    try {
      const login = (origin: string) =>
        post(`${hub.url}/api/v1/dashboard/login`, { name: 'Nobody', password: 'wrong password 1' }, { origin });
      expect((await login(hub.url.replace(/^http:/, 'https:'))).status).toBe(401);
      expect((await login(hub.url)).status).toBe(403);
    } finally {
      await hub.stop();
    }
  });

  it('with a public URL, the dashboard answers only under its Host names and takes writes only from its origin; counters are not concerned', async () => {
    const hub = await startTestHub({ publicUrls: ['https://hub.example.ng'] });
    try {
      const ask = (method: 'GET' | 'POST', url: string, headers: Record<string, string>) =>
        hub.app.inject({
          method,
          url,
          headers,
          ...(method === 'POST' ? { payload: { name: 'Nobody', password: 'wrong password 1' } } : {}),
        });
      const rebound = await ask('GET', '/api/v1/dashboard/session', { host: 'evil.example' });
      expect([rebound.statusCode, rebound.json().code]).toEqual([403, 'HUB_HOST']);
      expect((await ask('GET', '/dashboard/', { host: `127.0.0.1:${new URL(hub.url).port}` })).statusCode).toBe(403);
      expect((await ask('GET', '/api/v1/dashboard/session', { host: 'hub.example.ng' })).statusCode).toBe(401);
      expect(
        (await ask('POST', '/api/v1/dashboard/login', { host: 'hub.example.ng', origin: 'http://hub.example.ng' }))
          .statusCode,
      ).toBe(403);
      expect(
        (await ask('POST', '/api/v1/dashboard/login', { host: 'hub.example.ng', origin: 'https://hub.example.ng' }))
          .statusCode,
      ).toBe(401);
      expect((await ask('GET', '/healthz', { host: 'evil.example' })).statusCode).toBe(200);
    } finally {
      await hub.stop();
    }
  });
});

describe('Low: open dashboard live streams are capped per session', () => {
  it('a session holds at most 4 live streams: a fifth closes the oldest with a reason; another session is not touched', async () => {
    const hub = await startTestHub();
    try {
      await createManager(hub.db, { name: 'Streamer', password: PW, role: 'head-office', branch: null }, Date.now());
      const a = new Manager(hub.url);
      const b = new Manager(hub.url);
      expect((await a.login('Streamer', PW)).status).toBe(200);
      expect((await b.login('Streamer', PW)).status).toBe(200);
      const other = await b.live();
      const streams = [];
      for (let i = 0; i < 5; i++) streams.push(await a.live());
      expect(streams.map((s) => s.res.status)).toEqual([200, 200, 200, 200, 200]);
      await streams[0]!.done;
      expect(streams[0]!.events.at(-1)).toMatchObject({
        event: 'closed',
        data: { reason: expect.stringContaining('at most 4') },
      });
      for (const s of [...streams.slice(1), other]) expect(s.events.some((e) => e.event === 'closed')).toBe(false);
      expect(hub.ctx.dashboard.live.count()).toBe(5);
      for (const s of [...streams, other]) s.close();
    } finally {
      await hub.stop();
    }
  });
});
