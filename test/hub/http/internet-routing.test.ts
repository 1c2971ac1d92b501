// The Hub on the internet (issue 21), routing: who gets a provider notification when its order is
// not known yet, when a rogue counter claims another's references, when a captured webhook is
// replayed with other whitespace or other (unsigned) routing headers, when a delivery is lost in
// transit behind a later one; and the refused Host header's own error. Real Hubs (PGlite in
// memory) over loopback HTTP; a real SSE client.
import { describe, expect, it } from 'vitest';
import { createManager } from '../../../hub/store/managers';
import { Manager } from '../helpers/dashboard-client';
import { hubsPerTest, sync, topup, sale, billsBody, deliveredTo } from '../helpers/route-fixtures';
import {
  ADMIN_TOKEN,
  bearer,
  enroll,
  get,
  post,
  posWebhook,
  sendPosWebhook,
  type TestHub,
} from '../helpers/hub-harness';

const { newHub, stream } = hubsPerTest();

const metric = async (hub: TestHub, re: RegExp) => {
  const text = await (await fetch(`${hub.url}/metrics`, { headers: bearer(ADMIN_TOKEN) })).text();
  return Number(re.exec(text)?.[1] ?? 0);
};
const stepsOf = async (hub: TestHub, id: string) =>
  (await get(`${hub.url}/api/v1/admin/notifications/${id}/log`, bearer(ADMIN_TOKEN))).json.steps as {
    step: string;
    counterId: string | null;
    detail: string;
  }[];

describe('Medium: a notification of an unknown order is held for its counter, never broadcast', () => {
  it('a bills callback for a reference no counter owns goes to nobody; the counter that syncs it within the hold gets it, alone', async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    const b = await enroll(hub, 'Counter 2', 'BR-A');
    const c = await enroll(hub, 'Counter 3', 'BR-C');
    const body = billsBody('COU1-T251125-0001');
    expect((await post(hub.webhookUrls.bills, body)).json.code).toBe('00000');
    expect(await deliveredTo(hub)).toEqual([]);
    // A's sync of its top-up releases it to A only (B and C, same and other branch, get nothing).
    const sa = await stream(hub, a.credential);
    expect((await sync(hub, a.credential, [topup(1, 'COU1-T251125-0001')])).status).toBe(200);
    await sa.until(() => sa.notifications.length === 1);
    expect(sa.notifications[0]).toMatchObject({ kind: 'bills', body });
    expect(await deliveredTo(hub)).toEqual([['COU1-T251125-0001', a.counterId]]);
    expect((await stepsOf(hub, sa.notifications[0]!.notificationId)).map((s) => s.step)).toEqual([
      'received',
      'verified',
      'held',
      'routed',
      'relayed',
    ]);
    expect([b.counterId, c.counterId]).not.toContain(a.counterId);
    expect(await metric(hub, /hub_notifications_held_total\{kind="bills"\} (\d+)/)).toBe(1);
  });

  it('what no counter claims within the hold is dropped, with a log line and a metric: a bills callback deleted, a signed POS webhook kept for replay', async () => {
    const hub = await newHub({ hold: { holdMs: 10 * 60_000 } });
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    await post(hub.webhookUrls.bills, billsBody('COU1-T251125-0009'));
    const w = posWebhook(hub.merchant, { tranId: 'PO-NOBODY', branch: 'BR-A' });
    expect((await sendPosWebhook(hub, w)).json.code).toBe('00000');
    // Before the hold ends nothing is dropped.
    expect(await hub.sweepHeld()).toEqual({ released: 0, dropped: 0 });
    hub.clock.offsetMs += 10 * 60_000 + 1;
    expect(await hub.sweepHeld()).toEqual({ released: 0, dropped: 2 });
    const kinds = await hub.db.query<{ kind: string; id: unknown }>('select kind, id from notifications order by id');
    expect(kinds.map((k) => k.kind)).toEqual(['pos']);
    expect((await stepsOf(hub, String(kinds[0]!.id))).map((s) => s.step)).toEqual([
      'received',
      'verified',
      'held',
      'dropped',
    ]);
    expect(await metric(hub, /hub_notifications_dropped_total\{kind="bills",reason="expired"\} (\d+)/)).toBe(1);
    expect(await metric(hub, /hub_notifications_dropped_total\{kind="pos",reason="expired"\} (\d+)/)).toBe(1);
    // Synced too late: nothing comes.
    expect(
      (await sync(hub, a.credential, [sale(1, 'COU1-251125-0001', 'PO-NOBODY'), topup(2, 'COU1-T251125-0009')])).status,
    ).toBe(200);
    expect(await deliveredTo(hub)).toEqual([]);
  });

  it("the holding area is bounded: past its size an unknown order's notification is dropped at once, counted", async () => {
    const hub = await newHub({ hold: { maxHeld: 3 } });
    await enroll(hub, 'Counter 1', 'BR-A');
    for (let i = 0; i < 5; i++)
      expect((await post(hub.webhookUrls.bills, billsBody(`COU1-T251125-000${i}`))).status).toBe(200);
    expect(Number((await hub.db.query<{ n: unknown }>('select count(*) as n from quarantine'))[0]!.n)).toBe(3);
    expect(await metric(hub, /hub_notifications_dropped_total\{kind="bills",reason="full"\} (\d+)/)).toBe(2);
    expect(await metric(hub, /hub_notifications_held\{kind="bills"\} (\d+)/)).toBe(3);
    expect(await deliveredTo(hub)).toEqual([]);
  });

  it("a webhook stored while its owner's sync was committing (neither saw the other) is released by the sweep", async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-RACE', branch: 'BR-A' }));
    // The owner row committed without the release seeing the held notification.
    await hub.db.query('insert into order_owners (order_key, counter_id, registered_at) values ($1, $2, $3)', [
      'PO-RACE',
      a.counterId,
      Date.now(),
    ]);
    expect(await hub.sweepHeld()).toEqual({ released: 1, dropped: 0 });
    expect(await deliveredTo(hub)).toEqual([['PO-RACE', a.counterId]]);
  });
});

describe("Medium: a rogue counter cannot claim another counter's predictable references", () => {
  it("a reference made with another counter's code is refused; the callback goes to the counter whose code it carries", async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A'); // code COU1
    const rogue = await enroll(hub, 'Counter 7', 'BR-B'); // code COU7
    // The rogue claims A's next top-up reference and sale number (with a provider order number)
    // before A makes them, and a
    // reference of its own with a code no counter has (a counter renamed since it enrolled).
    expect(
      (
        await sync(hub, rogue.credential, [
          topup(1, 'COU1-T251125-0001'),
          sale(2, 'COU1-251125-0001', 'PO-ROGUE'),
          topup(3, 'ZZ9-T251125-0001'),
        ])
      ).status,
    ).toBe(200);
    const owners = async () =>
      (
        await hub.db.query<{ order_key: string; counter_id: string }>(
          'select order_key, counter_id from order_owners order by order_key',
        )
      ).map((r) => [r.order_key, r.counter_id]);
    // Nothing of an order made with A's code is the rogue's, its provider order number neither.
    expect(await owners()).toEqual([['ZZ9-T251125-0001', rogue.counterId]]);
    expect((await sync(hub, a.credential, [topup(1, 'COU1-T251125-0001'), sale(2, 'COU1-251125-0001')])).status).toBe(
      200,
    );
    await post(hub.webhookUrls.bills, billsBody('COU1-T251125-0001'));
    expect(await deliveredTo(hub)).toEqual([['COU1-T251125-0001', a.counterId]]);
  });

  it('a POS webhook whose merchantId header names a branch the Hub has no counter of goes to the owner only, and the log says so', async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    await enroll(hub, 'Counter 2', 'BR-B');
    await sync(hub, a.credential, [sale(1, 'COU1-251125-0001', 'PO-A-1')]);
    const sa = await stream(hub, a.credential);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-A-1', branch: 'BR-HEAD' }));
    await sa.until(() => sa.notifications.length === 1);
    expect(await deliveredTo(hub)).toEqual([['PO-A-1', a.counterId]]);
    const routed = (await stepsOf(hub, sa.notifications[0]!.notificationId)).find((s) => s.step === 'routed')!;
    expect(routed.detail).toContain(
      'merchantId header says BR-HEAD, the owner is of branch BR-A: sent to the owner only',
    );
  });
});

describe('Low: a captured webhook replayed with other whitespace or other routing headers is a repeat', () => {
  it('the same signed POS content with another layout, tranId or merchantId is stored once and relayed once; a bogus merchantId reaches nobody', async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    await enroll(hub, 'Counter 2', 'BR-B');
    await sync(hub, a.credential, [sale(1, 'COU1-251125-0001', 'PO-A-1')]);
    const w = posWebhook(hub.merchant, { tranId: 'PO-A-1', branch: 'BR-A' });
    expect((await sendPosWebhook(hub, w)).json.code).toBe('00000');
    const spaced = JSON.stringify(JSON.parse(w.body), null, 2);
    for (const headers of [
      w.headers,
      { ...w.headers, merchantId: 'BOGUS' },
      { ...w.headers, 'X-Opay-Tranid': 'PO-OTHER', merchantId: 'BR-B' },
    ]) {
      expect((await sendPosWebhook(hub, { headers, body: spaced })).json.code).toBe('00000');
    }
    expect(
      Number((await hub.db.query<{ n: unknown }>("select count(*) as n from notifications where kind = 'pos'"))[0]!.n),
    ).toBe(1);
    expect(await deliveredTo(hub)).toEqual([['PO-A-1', a.counterId]]);
    // A fresh webhook of an order nobody owns, with any merchantId, goes to no counter.
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-UNKNOWN', branch: 'BOGUS' }));
    expect(await deliveredTo(hub)).toEqual([['PO-A-1', a.counterId]]);
  });

  it('a bills callback with its signed fields and sha512 unchanged is a repeat, whatever its whitespace or unsigned fields', async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    await sync(hub, a.credential, [topup(1, 'COU1-T251125-0001')]);
    const body = billsBody('COU1-T251125-0001');
    await post(hub.webhookUrls.bills, body);
    await post(hub.webhookUrls.bills, JSON.stringify(JSON.parse(body), null, 1));
    await post(hub.webhookUrls.bills, billsBody('COU1-T251125-0001', { errorMsg: 'changed', createTime: '1' }));
    expect(await deliveredTo(hub)).toEqual([['COU1-T251125-0001', a.counterId]]);
    // A changed signed field (or sha512) is another notification.
    await post(hub.webhookUrls.bills, billsBody('COU1-T251125-0001', { orderStatus: 'FAIL' }));
    expect(await deliveredTo(hub)).toHaveLength(2);
    // Without its signed fields it is not a bills callback.
    expect(
      (
        await post(
          hub.webhookUrls.bills,
          JSON.stringify({ payload: { merchantOrderNo: 'COU1-T251125-0001' }, sha512: 'ab' }),
        )
      ).status,
    ).toBe(400);
  });
});

describe('Low: a delivery lost in transit behind a later one is sent again', () => {
  it('a counter that got N+1 (its Last-Event-ID) but lost N gets N on its next stream', async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    await sync(hub, a.credential, [sale(1, 'COU1-251125-0001', 'PO-1'), sale(2, 'COU1-251125-0002', 'PO-2')]);
    const s = await stream(hub, a.credential);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-1', branch: 'BR-A' }));
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-2', branch: 'BR-A' }));
    await s.until(() => s.notifications.length === 2);
    const [n, n1] = s.notifications;
    expect(Number(n1!.eventId)).toBeGreaterThan(Number(n!.eventId));
    await s.disconnect();
    // N never reached the counter (cut in transit): it holds and acknowledges N+1 only.
    expect((await post(`${hub.url}/api/v1/relay/ack`, { eventIds: [n1!.eventId] }, bearer(a.credential))).json).toEqual(
      { acked: 1 },
    );
    const again = await stream(hub, a.credential, n1!.eventId);
    await again.until(() => again.notifications.length === 1);
    expect(again.notifications[0]).toMatchObject({ eventId: n!.eventId, headers: { 'X-Opay-Tranid': 'PO-1' } });
  });
});

describe('Info: a refused Host header says what to fix', () => {
  it('answers HUB_HOST (not HUB_CSRF) naming the public address', async () => {
    const hub = await newHub({ publicUrls: ['https://hub.example.ng'] });
    const r = await hub.app.inject({
      method: 'GET',
      url: '/api/v1/dashboard/session',
      headers: { host: 'evil.example' },
    });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({
      code: 'HUB_HOST',
      details: { host: 'evil.example', publicOrigins: ['https://hub.example.ng'] },
    });
    expect(r.json().message).toContain('https://hub.example.ng');
    expect(r.json().message).toContain('--public-url');
  });
});

describe('Info: an enrollment code is for one branch, named when it is issued', () => {
  it('head office and the admin API say which branch; the counter cannot enroll under another; any-branch codes only when asked for', async () => {
    const hub = await newHub();
    // Each counter its own name: one live counter per counter code (NEW1, NEW2, …).
    let made = 0;
    const enrollWith = (code: unknown, branch: string) =>
      post(`${hub.url}/api/v1/enroll`, { code, counterName: `New ${++made}`, branch, appVersion: '0.1.0' });
    // The admin API: a branch, or an explicit anyBranch.
    const none = await post(`${hub.url}/api/v1/admin/enroll-codes`, { ttlMinutes: 10 }, bearer(ADMIN_TOKEN));
    expect([none.status, none.json.code]).toEqual([400, 'HUB_BAD_REQUEST']);
    expect(String(none.json.message)).toContain('anyBranch');
    const bound = await post(
      `${hub.url}/api/v1/admin/enroll-codes`,
      { ttlMinutes: 10, branch: 'BR-A' },
      bearer(ADMIN_TOKEN),
    );
    expect(bound.json.branch).toBe('BR-A');
    expect((await enrollWith(bound.json.code, 'BR-B')).json.code).toBe('HUB_ENROLL_CODE_INVALID');
    expect((await enrollWith(bound.json.code, 'BR-A')).status).toBe(200);
    const any = await post(
      `${hub.url}/api/v1/admin/enroll-codes`,
      { ttlMinutes: 10, anyBranch: true },
      bearer(ADMIN_TOKEN),
    );
    expect(any.json.branch).toBeNull();
    expect((await enrollWith(any.json.code, 'BR-Z')).status).toBe(200);
    // Head office on the dashboard names the branch.
    await createManager(
      hub.db,
      { name: 'Head', password: 'manager password 1', role: 'head-office', branch: null },
      Date.now(),
    );
    const ho = new Manager(hub.url);
    expect((await ho.login('Head', 'manager password 1')).status).toBe(200);
    const blank = await ho.post('/counters/enroll-codes', { ttlMinutes: 10 });
    expect([blank.status, blank.json.code]).toEqual([400, 'HUB_BAD_REQUEST']);
    expect(String(blank.json.message)).toContain('Say which branch');
    const forA = await ho.post('/counters/enroll-codes', { ttlMinutes: 10, branch: 'BR-A' });
    expect(forA.json.branch).toBe('BR-A');
    expect((await enrollWith(forA.json.code, 'BR-B')).json.code).toBe('HUB_ENROLL_CODE_INVALID');
  });
});
