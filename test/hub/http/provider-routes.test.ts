// The relay over real HTTP on PGlite: the provider's POS webhook checked (forged, stale, unsigned,
// oversized, replayed), stored, routed to the right counter over its SSE stream, acknowledged;
// a counter offline then back gets every delivery it has not acknowledged; delivery log and replay.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  makeMerchant,
  posWebhook,
  post,
  get,
  bearer,
  enroll,
  sendPosWebhook,
  startTestHub,
  ADMIN_TOKEN,
  type TestHub,
} from '../helpers/hub-harness';
import { RelayClient } from '../helpers/sse-client';

let hub: TestHub;
const clients: RelayClient[] = [];
const stream = async (credential: string) => {
  const c = new RelayClient(hub.url, credential);
  clients.push(c);
  await c.connect();
  return c;
};
const st = () => ({ appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 1 });
/** The counter syncs the orders it created (its journal from `seq`): it owns their provider order numbers. */
const own = async (credential: string, orderNos: string[], seq = 1) => {
  const events = orderNos.map((o, i) => ({
    seq: seq + i,
    kind: 'order.created',
    at: Date.now(),
    payload: { reference: `REF-${o}`, orderNo: o, amountKobo: 1000, sn: 'SN' },
  }));
  const r = await post(`${hub.url}/api/v1/sync`, { events, status: st() }, bearer(credential));
  expect(r.status).toBe(200);
};
const pendingRows = async () =>
  Number((await hub.db.query<{ n: unknown }>('select count(*) as n from notifications'))[0]!.n);

beforeAll(async () => {
  hub = await startTestHub();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.disconnect();
});
afterAll(async () => hub?.stop());

describe('provider POS webhook checks', () => {
  it('refuses forged, stale, unsigned, wrong-key and malformed notifications, storing nothing', async () => {
    const before = await pendingRows();
    const m = hub.merchant;
    const other = makeMerchant();
    const cases: [string, { headers: Record<string, string>; body: string }, number, string][] = [
      [
        'wrong clientAuthKey',
        posWebhook(m, { tranId: 'T1', branch: 'B', clientAuthKey: 'someone-else' }),
        401,
        '40101',
      ],
      [
        'stale timestamp',
        posWebhook(m, { tranId: 'T1', branch: 'B', timestamp: Date.now() - 6 * 60_000 }),
        401,
        '40102',
      ],
      [
        'future timestamp',
        posWebhook(m, { tranId: 'T1', branch: 'B', timestamp: Date.now() + 6 * 60_000 }),
        401,
        '40102',
      ],
      [
        'signed by another key',
        posWebhook(m, { tranId: 'T1', branch: 'B', signWith: other.providerPrivatePem }),
        401,
        '40103',
      ],
      ['garbage signature', posWebhook(m, { tranId: 'T1', branch: 'B', sign: 'AAAA' }), 401, '40103'],
    ];
    for (const [name, w, status, code] of cases) {
      const r = await sendPosWebhook(hub, w);
      expect({ name, status: r.status, code: r.json.code }).toEqual({ name, status, code });
    }
    const unsigned = JSON.parse(posWebhook(m, { tranId: 'T1', branch: 'B' }).body) as Record<string, unknown>;
    delete unsigned.sign;
    expect((await post(hub.webhookUrls.pos, unsigned)).json.code).toBe('40001');
    expect((await post(hub.webhookUrls.pos, '{not json')).json.code).toBe('40000');
    const big = await fetch(hub.webhookUrls.pos, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { code: string }).code).toBe('41300');
    expect(await pendingRows()).toBe(before);
    const metrics = await (await fetch(`${hub.url}/metrics`, { headers: bearer(ADMIN_TOKEN) })).text();
    expect(metrics).toMatch(/hub_notifications_refused_total\{kind="pos",reason="40103"\} 2/);
  });
});

describe('relay to counters', () => {
  it('sends a verified notification only to the counter that registered the order, which acks it', async () => {
    const a = await enroll(hub, 'Counter A', 'BR-1');
    const b = await enroll(hub, 'Counter B', 'BR-1');
    // A registers its order through sync.
    const sync = await post(
      `${hub.url}/api/v1/sync`,
      {
        events: [
          {
            seq: 1,
            kind: 'order.created',
            at: Date.now(),
            payload: { reference: 'REF-A1', orderNo: 'PAY-A1', amountKobo: 250_000, sn: 'SN-A' },
          },
        ],
        status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 1 },
      },
      bearer(a.credential),
    );
    expect(sync.json).toEqual({ lastSeq: 1, stored: 1 });
    const sa = await stream(a.credential);
    const sb = await stream(b.credential);
    const w = posWebhook(hub.merchant, { tranId: 'PAY-A1', branch: 'BR-1' });
    const r = await sendPosWebhook(hub, w);
    expect(r).toEqual({ status: 200, json: { code: '00000', message: 'SUCCESSFUL' } });
    await sa.until(() => sa.notifications.length === 1);
    const n = sa.notifications[0]!;
    // Still encrypted, byte for byte what the provider sent, with its routing headers.
    expect(n.body).toBe(w.body);
    expect(n.headers).toEqual({ 'X-Opay-Tranid': 'PAY-A1', merchantId: 'BR-1' });
    // B sees heartbeats and no notification.
    const hb = sb.heartbeats();
    await sb.until(() => sb.heartbeats() >= hb + 2);
    expect(sb.notifications).toEqual([]);
    expect((await post(`${hub.url}/api/v1/relay/ack`, { eventIds: [n.eventId] }, bearer(a.credential))).json).toEqual({
      acked: 1,
    });

    const log = await get(`${hub.url}/api/v1/admin/notifications/${n.notificationId}/log`, bearer(ADMIN_TOKEN));
    expect((log.json.steps as { step: string; counterId: string | null }[]).map((s) => [s.step, s.counterId])).toEqual([
      ['received', null],
      ['verified', null],
      ['routed', a.counterId],
      ['relayed', a.counterId],
      ['acknowledged', a.counterId],
    ]);
    // The same body again (a replay by anyone) is answered but not relayed twice.
    expect((await sendPosWebhook(hub, w)).json.code).toBe('00000');
    const hb2 = sa.heartbeats();
    await sa.until(() => sa.heartbeats() >= hb2 + 2);
    expect(sa.notifications).toHaveLength(1);
  });

  it('holds a notification for an order not yet known, then sends it to the counter that syncs the order only: never to the branch', async () => {
    const c1 = await enroll(hub, 'C1', 'BR-2');
    const c2 = await enroll(hub, 'C2', 'BR-2');
    const other = await enroll(hub, 'Elsewhere', 'BR-3');
    const [s1, s2, s3] = [await stream(c1.credential), await stream(c2.credential), await stream(other.credential)];
    const w = posWebhook(hub.merchant, { tranId: 'PAY-UNKNOWN', branch: 'BR-2' });
    expect((await sendPosWebhook(hub, w)).json.code).toBe('00000');
    const hb = s1.heartbeats();
    await s1.until(() => s1.heartbeats() >= hb + 2);
    expect([s1.notifications, s2.notifications, s3.notifications]).toEqual([[], [], []]);
    // C2's sync of the order (a few seconds behind the provider) releases it, to C2 alone.
    await own(c2.credential, ['PAY-UNKNOWN']);
    await s2.until(() => s2.notifications.length === 1);
    expect(s2.notifications[0]!.body).toBe(w.body);
    const hb1 = s1.heartbeats();
    await s1.until(() => s1.heartbeats() >= hb1 + 2);
    expect([s1.notifications, s3.notifications]).toEqual([[], []]);
    const log = await get(
      `${hub.url}/api/v1/admin/notifications/${s2.notifications[0]!.notificationId}/log`,
      bearer(ADMIN_TOKEN),
    );
    expect(
      (log.json.steps as { step: string; counterId: string | null }[]).slice(0, 4).map((x) => [x.step, x.counterId]),
    ).toEqual([
      ['received', null],
      ['verified', null],
      ['held', null],
      ['routed', c2.counterId],
    ]);
  });

  it('a counter offline gets every unacknowledged delivery on reconnect, what it held but never acknowledged too', async () => {
    const c = await enroll(hub, 'Sleepy', 'BR-4');
    await own(c.credential, ['P-1', 'P-2', 'P-3']);
    const s = await stream(c.credential);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'P-1', branch: 'BR-4' }));
    await s.until(() => s.notifications.length === 1);
    // It stored P-1 but goes offline before acknowledging; two more arrive meanwhile.
    await s.disconnect();
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'P-2', branch: 'BR-4' }));
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'P-3', branch: 'BR-4' }));
    await s.connect();
    await s.until(() => s.notifications.length === 4);
    // P-1 again although its Last-Event-ID names it (it de-duplicates on eventId), then what it missed.
    expect(s.notifications.map((n) => n.headers['X-Opay-Tranid'])).toEqual(['P-1', 'P-1', 'P-2', 'P-3']);
    expect(s.notifications[1]!.eventId).toBe(s.notifications[0]!.eventId);
    // A counter that lost its place (no Last-Event-ID) gets every unacknowledged one again.
    const fresh = new RelayClient(hub.url, c.credential);
    clients.push(fresh);
    await fresh.connect();
    await fresh.until(() => fresh.notifications.length === 3);
    await post(
      `${hub.url}/api/v1/relay/ack`,
      { eventIds: fresh.notifications.map((n) => n.eventId) },
      bearer(c.credential),
    );
    // Once acknowledged, nothing comes back.
    const again = new RelayClient(hub.url, c.credential);
    clients.push(again);
    await again.connect();
    await again.until(() => again.heartbeats() >= 2);
    expect(again.notifications).toEqual([]);
  });

  it('replays a stored notification to its counter on the admin API', async () => {
    const c = await enroll(hub, 'Replay', 'BR-5');
    await own(c.credential, ['P-R']);
    const s = await stream(c.credential);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'P-R', branch: 'BR-5' }));
    await s.until(() => s.notifications.length === 1);
    const id = s.notifications[0]!.notificationId;
    expect((await post(`${hub.url}/api/v1/admin/notifications/${id}/replay`, {}, bearer(ADMIN_TOKEN))).json).toEqual({
      deliveries: 1,
    });
    await s.until(() => s.notifications.length === 2);
    expect(s.notifications[1]).toMatchObject({ notificationId: id, replay: true });
    expect(s.notifications[1]!.eventId).not.toBe(s.notifications[0]!.eventId);
    expect(
      (await post(`${hub.url}/api/v1/admin/notifications/99999999/replay`, {}, bearer(ADMIN_TOKEN))).json.code,
    ).toBe('HUB_NOT_FOUND');
  });

  it('passes a bills callback on unverified, to the counter that owns the reference', async () => {
    const c = await enroll(hub, 'Topups', 'BR-6');
    await post(
      `${hub.url}/api/v1/sync`,
      {
        events: [
          {
            seq: 1,
            kind: 'topup.submitted',
            at: Date.now(),
            payload: {
              reference: 'TOP-1',
              kind: 'airtime',
              amountKobo: 10_000,
              provider: 'MTN',
              customerId: '+2348030000000',
            },
          },
        ],
        status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
      },
      bearer(c.credential),
    );
    const s = await stream(c.credential);
    const body = JSON.stringify({
      payload: {
        orderNo: 'BO-1',
        merchantOrderNo: 'TOP-1',
        merchantId: 'M',
        orderAmount: '100.00',
        serviceType: 'AIRTIME',
        orderStatus: 'SUCCESS',
      },
      sha512: 'ab',
      type: 'x',
    });
    expect((await post(hub.webhookUrls.bills, body)).json.code).toBe('00000');
    await s.until(() => s.notifications.length === 1);
    expect(s.notifications[0]).toMatchObject({ kind: 'bills', body });
  });
});
