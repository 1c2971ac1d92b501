// Issue 26, High: a flood with wrong credentials cannot reach the database or starve the counters.
// Authentication costs nothing before it is earned: an address pays before any credential is looked
// up, a wrong credential costs it more than a right one, and a known-good credential is served from
// memory (forgotten at once when it is revoked or its session ends). Real Hubs (PGlite in memory)
// over loopback HTTP; the database lookups are counted through the db adapter, not timed; a reverse
// proxy is played by sending X-Forwarded-For from loopback.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../shared/hub-dashboard-contract';
import { openHubDb } from '../../../hub/db/open';
import { RELAY_CHANNEL, REVOKED_PREFIX } from '../../../hub/store/notifications';
import { createManager } from '../../../hub/store/managers';
import { countingDb, type CountingDb } from '../helpers/counting-db';
import { Manager } from '../helpers/dashboard-client';
import { ADMIN_TOKEN, bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { counterStatus } from '../helpers/route-fixtures';

const PW = 'manager password 1';
const fwd = (ip: string) => ({ 'x-forwarded-for': ip });
const randomToken = () => randomBytes(32).toString('base64url');
/** The statements that look a credential up: a counter's by its hash, a session with its manager. */
const LOOKUP = /from counters where token_hash|from manager_sessions s join managers/;

async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < n) await fn(i++);
    }),
  );
}

describe('High: a flood of wrong credentials from one address', () => {
  let db: CountingDb;
  let hub: TestHub;
  beforeAll(async () => {
    db = countingDb(await openHubDb({ databaseUrl: null, dataDir: null }));
    // The brake off: what bounds the lookups here is the address's charge, not a held answer.
    hub = await startTestHub({ db, trustProxy: ['127.0.0.1'], floodBrake: { holdMs: 0 } });
    await createManager(db, { name: 'Ada', password: PW, role: 'head-office', branch: null }, Date.now());
  });
  afterAll(async () => {
    await hub.stop();
    await db.close();
  });

  it('600 random Bearer tokens and session cookies reach the database a few times only, and a counter behind the same address still syncs', async () => {
    const flooder = fwd('203.0.113.66');
    const c = await enroll(hub, 'Real', 'BR-1');
    let seq = 0;
    const sync = () =>
      post(
        `${hub.url}/api/v1/sync`,
        {
          status: counterStatus(),
          events: [
            {
              seq: ++seq,
              kind: 'order.created',
              at: Date.now(),
              payload: { reference: `COU1-F${seq}`, amountKobo: 1000, sn: 'SN' },
            },
          ],
        },
        { ...bearer(c.credential), ...flooder },
      );
    expect((await sync()).status).toBe(200);

    const mark = db.queries.length;
    const answers = new Map<number, number>();
    const syncs: number[] = [];
    await pool(600, 40, async (i) => {
      const r =
        i % 3 === 0
          ? await get(`${hub.url}/api/v1/me`, { ...bearer(randomToken()), ...flooder })
          : i % 3 === 1
            ? await post(
                `${hub.url}/api/v1/sync`,
                { status: counterStatus(), events: [] },
                { ...bearer(randomToken()), ...flooder },
              )
            : await get(`${hub.url}/api/v1/dashboard/today`, {
                cookie: `${SESSION_COOKIE}=${randomToken()}`,
                ...flooder,
              });
      answers.set(r.status, (answers.get(r.status) ?? 0) + 1);
      // The real counter syncs in the middle of the flood, from the flooder's own address.
      if (i % 60 === 0) syncs.push((await sync()).status);
    });
    // The address's lookups of unknown credentials: 20 at once, then 1 a second (the flood takes a few).
    expect(db.since(mark, LOOKUP)).toBeLessThanOrEqual(30);
    expect(syncs).toHaveLength(10);
    expect(syncs.every((s) => s === 200)).toBe(true);
    expect([...answers.keys()].sort()).toEqual([401, 429]);
    expect(answers.get(429)).toBeGreaterThan(500);
  });

  it('a wrong credential costs the address more than a right one: three wrong tokens use up a budget that three right ones leave almost whole', async () => {
    const small = await startTestHub({ trustProxy: ['127.0.0.1'], rateLimits: { perAddress: 60 } }); // a burst of 12
    try {
      for (let i = 0; i < 3; i++)
        expect((await get(`${small.url}/api/v1/me`, { ...bearer(randomToken()), ...fwd('203.0.113.1') })).status).toBe(
          401,
        );
      expect((await get(`${small.url}/api/v1/me`, fwd('203.0.113.1'))).status).toBe(429);
      const c = await enroll(small, 'Right', 'BR-1');
      for (let i = 0; i < 3; i++)
        expect((await get(`${small.url}/api/v1/me`, { ...bearer(c.credential), ...fwd('203.0.113.2') })).status).toBe(
          200,
        );
      const after: number[] = [];
      for (let i = 0; i < 11; i++) after.push((await get(`${small.url}/api/v1/me`, fwd('203.0.113.2'))).status);
      expect(after).toEqual(Array(11).fill(401));
    } finally {
      await small.stop();
    }
  });

  it("a wrong admin token (403) spends the address's budget", async () => {
    const small = await startTestHub({ trustProxy: ['127.0.0.1'], rateLimits: { perAddress: 60 } }); // a burst of 12
    try {
      const from = fwd('203.0.113.9');
      for (let i = 0; i < 3; i++)
        expect((await get(`${small.url}/api/v1/admin/counters`, { ...bearer(randomToken()), ...from })).status).toBe(
          403,
        );
      const next = await get(`${small.url}/api/v1/me`, from);
      expect([next.status, next.json.code]).toEqual([429, 'HUB_RATE_LIMITED']);
      // The right admin token is still answered, from that address too.
      expect((await get(`${small.url}/api/v1/admin/counters`, { ...bearer(ADMIN_TOKEN), ...from })).status).toBe(200);
    } finally {
      await small.stop();
    }
  });

  it('an address holding many connections has its refused ones held longer in proportion, so 2,000 connections are slowed like a few', async () => {
    // perAddress 1 a minute: a burst of 10. The brake: 10 refusals a minute (5 at once), then held a minute for each of 4 connections, longer past 4.
    const braked = await startTestHub({
      rateLimits: { perAddress: 1 },
      trustProxy: ['127.0.0.1'],
      floodBrake: { refusalsPerMinute: 10, holdMs: 60_000, paceConnections: 4, maxHoldMs: 600_000 },
    });
    try {
      const c = await enroll(braked, 'Behind', 'BR-1');
      const brake = braked.ctx.floodBrake;
      const holds: number[] = [];
      const twentyHeld = new Promise<void>((resolve) =>
        brake.on('held', (n, ms) => {
          holds.push(ms);
          if (n === 20) resolve();
        }),
      );
      const all = Array.from({ length: 35 }, () =>
        get(`${braked.url}/api/v1/me`, { ...bearer(randomToken()), ...fwd('203.0.113.88') }),
      );
      await twentyHeld;
      expect(Math.min(...holds)).toBe(60_000);
      expect(holds.toSorted((a, b) => a - b).at(-1)).toBe(300_000); // the 20th held at once: 20 / 4 minutes
      // The real counter at that address is answered meanwhile.
      expect((await get(`${braked.url}/api/v1/me`, { ...bearer(c.credential), ...fwd('203.0.113.88') })).status).toBe(
        200,
      );
      brake.close();
      await Promise.all(all);
    } finally {
      await braked.stop();
    }
  });

  it('a known-good counter credential and session are served from memory; revoking, logging out and disabling take effect at once', async () => {
    const c = await enroll(hub, 'Cached', 'BR-2');
    const me = () => get(`${hub.url}/api/v1/me`, bearer(c.credential));
    expect((await me()).status).toBe(200);
    const ada = new Manager(hub.url);
    expect((await ada.login('Ada', PW)).status).toBe(200);
    await createManager(db, { name: 'Bea', password: PW, role: 'branch', branch: 'BR-2' }, Date.now());
    const bea = new Manager(hub.url);
    expect((await bea.login('Bea', PW)).status).toBe(200);
    expect((await bea.get('/session')).status).toBe(200);
    const mark = db.queries.length;
    for (let i = 0; i < 20; i++) {
      expect((await me()).status).toBe(200);
      expect((await bea.get('/session')).status).toBe(200);
    }
    expect(db.since(mark, LOOKUP)).toBe(0);
    // Revoked: the very next call is refused.
    expect((await post(`${hub.url}/api/v1/admin/counters/${c.counterId}/revoke`, {}, bearer(ADMIN_TOKEN))).status).toBe(
      200,
    );
    expect((await me()).json.code).toBe('HUB_COUNTER_REVOKED');
    // Disabled by head office: Bea's next call is refused.
    const list = await ada.get('/managers');
    const beaId = (list.json.managers as { id: string; name: string }[]).find((m) => m.name === 'Bea')!.id;
    expect((await ada.post(`/managers/${beaId}/disable`)).status).toBe(200);
    expect((await bea.get('/session')).status).toBe(401);
    // Logged out: the old cookie is refused.
    const cookie = ada.cookie;
    expect((await ada.post('/logout')).status).toBe(200);
    ada.cookie = cookie;
    expect((await ada.get('/session')).status).toBe(401);
  });

  it('a counter revoked through another Hub instance on the same database is refused here as soon as the revocation is told', async () => {
    const other = await startTestHub({ db });
    try {
      const c = await enroll(hub, 'Two Hubs', 'BR-3');
      expect((await get(`${other.url}/api/v1/me`, bearer(c.credential))).status).toBe(200);
      // Told to every instance by NOTIFY: this listener, registered after the Hubs', hears it after them.
      let heard = () => undefined as void;
      const told = new Promise<void>((resolve) => (heard = resolve));
      const unlisten = await db.listen(RELAY_CHANNEL, (p) => p === `${REVOKED_PREFIX}${c.counterId}` && heard());
      expect(
        (await post(`${hub.url}/api/v1/admin/counters/${c.counterId}/revoke`, {}, bearer(ADMIN_TOKEN))).status,
      ).toBe(200);
      await told;
      await unlisten();
      expect((await get(`${other.url}/api/v1/me`, bearer(c.credential))).json.code).toBe('HUB_COUNTER_REVOKED');
    } finally {
      await other.stop();
    }
  });
});
