// Counters on the Hub over real HTTP (PGlite): enrollment (one-time, expiring), revocation told
// plainly on the next call and on the open stream, per-counter status, rate limits, body caps,
// health, readiness and metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, enroll, get, issueCode, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { RelayClient } from '../helpers/sse-client';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub({ rateLimits: { perCredential: 600, perAddress: 100_000 } });
});
afterAll(async () => hub?.stop());

const status = (over: Record<string, unknown> = {}) => ({
  appVersion: '0.1.0',
  profile: 'live',
  sentAt: Date.now(),
  queueLength: 0,
  openPayments: 0,
  ...over,
});

describe('enrollment', () => {
  it('a code enrolls one counter, once; a wrong or expired code is refused plainly', async () => {
    const code = await issueCode(hub);
    const ok = await post(`${hub.url}/api/v1/enroll`, {
      code,
      counterName: 'Front desk',
      branch: 'BR-1',
      appVersion: '0.1.0',
    });
    expect(ok.status).toBe(200);
    expect(ok.json.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const twice = await post(`${hub.url}/api/v1/enroll`, {
      code,
      counterName: 'Thief',
      branch: 'BR-1',
      appVersion: '0.1.0',
    });
    expect(twice).toMatchObject({ status: 403, json: { code: 'HUB_ENROLL_CODE_INVALID' } });
    const expiring = await issueCode(hub, 1);
    hub.clock.offsetMs = 2 * 60_000;
    try {
      const late = await post(`${hub.url}/api/v1/enroll`, {
        code: expiring,
        counterName: 'Late',
        branch: 'BR-1',
        appVersion: '0.1.0',
      });
      expect(late.json.code).toBe('HUB_ENROLL_CODE_INVALID');
    } finally {
      hub.clock.offsetMs = 0;
    }
    const bad = await post(`${hub.url}/api/v1/enroll`, {
      code: 'nope',
      counterName: '',
      branch: 'BR-1',
      appVersion: '0.1.0',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('HUB_BAD_REQUEST');
    expect(String(bad.json.message)).toContain('ABCD-EFGH-JKLM');
  });

  it('calls without a credential, or with an unknown one, are refused', async () => {
    expect((await get(`${hub.url}/api/v1/me`)).json.code).toBe('HUB_UNAUTHENTICATED');
    expect((await get(`${hub.url}/api/v1/me`, bearer('A'.repeat(43)))).json.code).toBe('HUB_UNAUTHENTICATED');
  });

  it('the admin API needs the admin token', async () => {
    expect((await post(`${hub.url}/api/v1/admin/enroll-codes`, {})).json.code).toBe('HUB_FORBIDDEN');
    expect((await post(`${hub.url}/api/v1/admin/enroll-codes`, {}, bearer('x'.repeat(40)))).json.code).toBe(
      'HUB_FORBIDDEN',
    );
  });
});

describe('revocation', () => {
  it('a revoked counter is told so on its next call and its open stream is closed', async () => {
    const c = await enroll(hub, 'Counter 9', 'BR-9');
    expect((await get(`${hub.url}/api/v1/me`, bearer(c.credential))).json.counterId).toBe(c.counterId);
    const s = new RelayClient(hub.url, c.credential);
    await s.connect();
    expect(
      (await post(`${hub.url}/api/v1/admin/counters/${c.counterId}/revoke`, {}, bearer(ADMIN_TOKEN))).json,
    ).toEqual({ revoked: c.counterId });
    await s.until(() => s.events.some((e) => e.event === 'closed'));
    expect(s.events.find((e) => e.event === 'revoked')?.data).toContain('HUB_COUNTER_REVOKED');
    const next = await post(`${hub.url}/api/v1/sync`, { events: [], status: status() }, bearer(c.credential));
    expect(next).toMatchObject({ status: 403, json: { code: 'HUB_COUNTER_REVOKED' } });
    expect(String(next.json.message)).toContain('removed from the Hub');
    const again = new RelayClient(hub.url, c.credential);
    await again.connect();
    expect(again.status).toBe(403);
  });
});

describe('per-counter state', () => {
  it('keeps last seen, version, profile, clock offset, queue length and open payments', async () => {
    const c = await enroll(hub, 'Counter S', 'BR-S');
    const r = await post(
      `${hub.url}/api/v1/sync`,
      {
        events: [],
        status: status({
          appVersion: '0.2.0',
          profile: 'demo',
          sentAt: Date.now() - 30_000,
          queueLength: 7,
          openPayments: 2,
        }),
      },
      bearer(c.credential),
    );
    expect(r.json).toEqual({ lastSeq: 0, stored: 0 });
    const list = (await get(`${hub.url}/api/v1/admin/counters`, bearer(ADMIN_TOKEN))).json.counters as Record<
      string,
      unknown
    >[];
    const me = list.find((x) => x.id === c.counterId)!;
    expect(me).toMatchObject({
      name: 'Counter S',
      branch: 'BR-S',
      appVersion: '0.2.0',
      profile: 'demo',
      queueLength: 7,
      openPayments: 2,
      connected: false,
    });
    expect(me.clockOffsetMs as number).toBeGreaterThanOrEqual(30_000);
    expect(me.lastSeenAt as number).toBeGreaterThan(Date.now() - 60_000);
    const metrics = await (await fetch(`${hub.url}/metrics`, { headers: bearer(ADMIN_TOKEN) })).text();
    expect(metrics).toContain(`hub_sync_backlog_events{counter="${c.counterId}"} 7`);
  });

  it('refuses a sync with a gap, telling the counter where to resume', async () => {
    const c = await enroll(hub, 'Counter G', 'BR-G');
    const e = (seq: number) => ({
      seq,
      kind: 'shift.opened',
      at: Date.now(),
      payload: { shiftId: `S${seq}`, cashier: 'Ada' },
    });
    expect(
      (await post(`${hub.url}/api/v1/sync`, { events: [e(1), e(2)], status: status() }, bearer(c.credential))).json,
    ).toEqual({ lastSeq: 2, stored: 2 });
    const gap = await post(`${hub.url}/api/v1/sync`, { events: [e(5)], status: status() }, bearer(c.credential));
    expect(gap).toMatchObject({ status: 409, json: { code: 'HUB_SYNC_GAP', details: { expectedSeq: 3 } } });
    const wrongKind = await post(
      `${hub.url}/api/v1/sync`,
      { events: [{ seq: 3, kind: 'zreport', at: 1, payload: { shiftId: 'x' } }], status: status() },
      bearer(c.credential),
    );
    expect(wrongKind.json.code).toBe('HUB_BAD_REQUEST');
  });
});

describe('limits and operations', () => {
  it('rate-limits a counter that floods the Hub, and caps bodies', async () => {
    const small = await startTestHub({ rateLimits: { perCredential: 60, perAddress: 100_000 } });
    try {
      const c = await enroll(small, 'Flood', 'BR-F');
      const codes: unknown[] = [];
      for (let i = 0; i < 15; i++) codes.push((await get(`${small.url}/api/v1/me`, bearer(c.credential))).json.code);
      expect(codes.slice(0, 10).every((x) => x === undefined)).toBe(true);
      expect(codes).toContain('HUB_RATE_LIMITED');
      // Authentication and the counter's own limit come before its body is read: another counter's big body is 413.
      const other = await enroll(small, 'Other', 'BR-F');
      const big = await post(
        `${small.url}/api/v1/relay/ack`,
        { eventIds: Array.from({ length: 1000 }, () => '1'.repeat(18)) },
        bearer(other.credential),
      );
      expect(big).toMatchObject({ status: 413, json: { code: 'HUB_TOO_LARGE' } });
    } finally {
      await small.stop();
    }
  });

  it('answers healthz, readyz and metrics', async () => {
    expect((await get(`${hub.url}/healthz`)).json).toEqual({ ok: true });
    expect((await get(`${hub.url}/readyz`)).json).toEqual({ ok: true, database: 'pglite' });
    const m = await (await fetch(`${hub.url}/metrics`, { headers: bearer(ADMIN_TOKEN) })).text();
    for (const name of [
      'hub_notifications_received_total',
      'hub_notifications_relayed_total',
      'hub_relay_lag_seconds',
      'hub_counters_connected',
      'hub_sync_backlog_events',
      'hub_db_pool_connections',
    ]) {
      expect(m).toContain(name);
    }
  });
});
