// The Hub on the internet (issue 21): what an anonymous client, a rogue counter or a departed manager
// could do, each refused. Real Hubs (PGlite in memory) over loopback HTTP; a reverse proxy is played
// by sending X-Forwarded-For from loopback.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubDb } from '../../hub/db/open';
import { buildHub } from '../../hub/server';
import { createManager } from '../../hub/store/managers';
import { bearer, enroll, get, post, startTestHub, type TestHub } from './helpers/hub-harness';

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

  it('a client flooding /me without a credential, from the counters\' own address, gets 429 while the counters and a manager are answered', async () => {
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
    const sync = await post(`${hub.url}/api/v1/sync`, { status: { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 }, events: [] }, { ...bearer(c.credential), ...fwd(flooder) });
    expect(sync.status).toBe(200);
    // A manager logging in from another client behind the proxy.
    const login = await post(`${hub.url}/api/v1/dashboard/login`, { name: 'Ada', password: PW }, fwd('198.51.100.8'));
    expect(login.status).toBe(200);
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
