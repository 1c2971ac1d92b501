// POST /api/v1/orders/claim (issue 28): a counter names a sale's provider order number the moment it
// learns it, apart from its journal's sync, so the Hub routes the POS webhook (known by that number
// only) to it on arrival, and releases one that came first at once. The claim takes no more than a
// sync's order.created would: a claim naming a reference made with another live counter's code is
// refused (403); an orderNo several counters of one branch claim goes to each. Real Hubs (PGlite in memory) over loopback HTTP; a
// real SSE client.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_CLAIM_PATH } from '../../../shared/hub-contract';
import { RelayClient } from '../helpers/sse-client';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
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

if (pgUnavailable) console.log(`order claims on real PostgreSQL skipped: ${pgUnavailable}`);

const hubs: TestHub[] = [];
const clients: RelayClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.disconnect();
  for (const h of hubs.splice(0)) await h.stop();
});
let databaseUrl: () => string | undefined = () => undefined;
const newHub = async () => {
  const h = await startTestHub({ databaseUrl: databaseUrl() });
  hubs.push(h);
  return h;
};
const stream = async (hub: TestHub, credential: string) => {
  const c = new RelayClient(hub.url, credential);
  clients.push(c);
  await c.connect();
  return c;
};
const claim = (hub: TestHub, credential: string, body: unknown) =>
  post(`${hub.url}${ORDER_CLAIM_PATH}`, body, bearer(credential));
const stepsOf = async (hub: TestHub, id: string) =>
  (
    (await get(`${hub.url}/api/v1/admin/notifications/${id}/log`, bearer(ADMIN_TOKEN))).json.steps as { step: string }[]
  ).map((s) => s.step);
const count = async (hub: TestHub, sql: string) => Number((await hub.db.query<{ n: unknown }>(sql))[0]!.n);
const deliveredTo = async (hub: TestHub) =>
  (
    await hub.db.query<{ counter_id: string; order_no: string }>(
      'select d.counter_id, n.order_no from deliveries d join notifications n on n.id = d.notification_id order by d.counter_id',
    )
  ).map((r) => [r.order_no, r.counter_id]);

function claimSuite(name: string) {
  describe(name, () => {
    it('a webhook that came first is held, and released to the claimant by the claim itself: no journal sync at all', async () => {
      const hub = await newHub();
      const a = await enroll(hub, 'Counter 1', 'BR-A');
      const sa = await stream(hub, a.credential);
      const w = posWebhook(hub.merchant, { tranId: 'PO-FIRST', branch: 'BR-A' });
      expect((await sendPosWebhook(hub, w)).json.code).toBe('00000');
      expect(await count(hub, 'select count(*) as n from quarantine')).toBe(1);
      const r = await claim(hub, a.credential, { orders: [{ reference: 'COU1-251127-0001', orderNo: 'PO-FIRST' }] });
      expect(r).toEqual({ status: 200, json: { claimed: 1 } });
      await sa.until(() => sa.notifications.length === 1);
      expect(sa.notifications[0]).toMatchObject({ kind: 'pos', body: w.body });
      expect(await count(hub, 'select count(*) as n from quarantine')).toBe(0);
      expect(await count(hub, 'select count(*) as n from journal')).toBe(0);
      expect(await stepsOf(hub, sa.notifications[0]!.notificationId)).toEqual([
        'received',
        'verified',
        'held',
        'routed',
        'relayed',
      ]);
    });

    it('a webhook after the claim is routed on arrival, never held; the sync naming the same orderNo later changes nothing', async () => {
      const hub = await newHub();
      const a = await enroll(hub, 'Counter 1', 'BR-A');
      const sa = await stream(hub, a.credential);
      expect(
        (await claim(hub, a.credential, { orders: [{ reference: 'COU1-251127-0002', orderNo: 'PO-AFTER' }] })).json,
      ).toEqual({ claimed: 1 });
      // A repeated claim (a retry) is harmless.
      expect(
        (await claim(hub, a.credential, { orders: [{ reference: 'COU1-251127-0002', orderNo: 'PO-AFTER' }] })).json,
      ).toEqual({ claimed: 1 });
      const w = posWebhook(hub.merchant, { tranId: 'PO-AFTER', branch: 'BR-A' });
      await sendPosWebhook(hub, w);
      await sa.until(() => sa.notifications.length === 1);
      expect(await stepsOf(hub, sa.notifications[0]!.notificationId)).toEqual([
        'received',
        'verified',
        'routed',
        'relayed',
      ]);
      const synced = await post(
        `${hub.url}/api/v1/sync`,
        {
          status: { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
          events: [
            {
              seq: 1,
              kind: 'order.created',
              at: Date.now(),
              payload: { reference: 'COU1-251127-0002', orderNo: 'PO-AFTER', amountKobo: 150_000, sn: 'SN' },
            },
          ],
        },
        bearer(a.credential),
      );
      expect(synced.status).toBe(200);
      expect(await deliveredTo(hub)).toEqual([['PO-AFTER', a.counterId]]);
      expect(
        (await hub.db.query<{ order_key: string }>('select order_key from order_owners order by order_key')).map(
          (x) => x.order_key,
        ),
      ).toEqual(['COU1-251127-0002', 'PO-AFTER']);
    });

    it("a claim naming a reference made with another counter's code is refused (403 HUB_CLAIM_NOT_YOURS) and takes nothing: the webhook stays held for its owner", async () => {
      const hub = await newHub();
      await enroll(hub, 'Counter 1', 'BR-A'); // code COU1
      const rogue = await enroll(hub, 'Counter 7', 'BR-A'); // code COU7
      const sr = await stream(hub, rogue.credential);
      const r = await claim(hub, rogue.credential, {
        orders: [{ reference: 'COU1-251127-0003', orderNo: 'PO-VICTIM' }],
      });
      expect(r.status).toBe(403);
      expect(r.json.code).toBe('HUB_CLAIM_NOT_YOURS');
      expect(r.json.details).toEqual({ keys: ['COU1-251127-0003'] });
      await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-VICTIM', branch: 'BR-A' }));
      expect(await count(hub, 'select count(*) as n from order_owners')).toBe(0);
      expect(await count(hub, 'select count(*) as n from quarantine')).toBe(1);
      expect(await deliveredTo(hub)).toEqual([]);
      expect(sr.notifications).toEqual([]);
    });

    it('an orderNo another counter of the branch claims too goes to each claimant, as a sync’s claim does', async () => {
      const hub = await newHub();
      const a = await enroll(hub, 'Counter 1', 'BR-A');
      const b = await enroll(hub, 'Counter 2', 'BR-A');
      await claim(hub, a.credential, { orders: [{ reference: 'COU1-251127-0004', orderNo: 'PO-SHARED' }] });
      await claim(hub, b.credential, { orders: [{ reference: 'COU2-251127-0001', orderNo: 'PO-SHARED' }] });
      await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-SHARED', branch: 'BR-A' }));
      expect((await deliveredTo(hub)).sort()).toEqual(
        [
          ['PO-SHARED', a.counterId],
          ['PO-SHARED', b.counterId],
        ].sort(),
      );
      expect(await count(hub, "select count(*) as n from shared_claims where order_key = 'PO-SHARED'")).toBe(2);
      // A claim after the webhook went to another claimant: given to this counter too, once.
      const late = await enroll(hub, 'Counter 3', 'BR-A');
      const sl = await stream(hub, late.credential);
      await claim(hub, late.credential, { orders: [{ reference: 'COU3-251127-0001', orderNo: 'PO-SHARED' }] });
      await claim(hub, late.credential, { orders: [{ reference: 'COU3-251127-0001', orderNo: 'PO-SHARED' }] });
      await sl.until(() => sl.notifications.length === 1);
      expect((await deliveredTo(hub)).filter(([, id]) => id === late.counterId)).toEqual([
        ['PO-SHARED', late.counterId],
      ]);
      expect(await count(hub, "select count(*) as n from shared_claims where order_key = 'PO-SHARED'")).toBe(3);
    });

    it('a claim that is not one is refused with what to fix; without a credential, 401', async () => {
      const hub = await newHub();
      const a = await enroll(hub, 'Counter 1', 'BR-A');
      const bad: [unknown, RegExp][] = [
        [{}, /orders/],
        [{ orders: [] }, /orders/],
        [{ orders: [{ reference: 'COU1-1' }] }, /orderNo/],
        [{ orders: [{ reference: 'COU1-1', orderNo: 'x'.repeat(65) }] }, /64 characters/],
        [
          { orders: Array.from({ length: 51 }, (_, i) => ({ reference: `COU1-${i}`, orderNo: `P${i}` })) },
          /at most 50/,
        ],
        [{ orders: [{ reference: 'COU1-1', orderNo: 'P1', extra: 1 }] }, /extra|unrecognized/i],
      ];
      for (const [body, why] of bad) {
        const r = await claim(hub, a.credential, body);
        expect(r.status).toBe(400);
        expect(r.json.code).toBe('HUB_BAD_REQUEST');
        expect(JSON.stringify(r.json)).toMatch(why);
      }
      const anon = await post(`${hub.url}${ORDER_CLAIM_PATH}`, { orders: [{ reference: 'COU1-1', orderNo: 'P1' }] });
      expect(anon.status).toBe(401);
      expect(await count(hub, 'select count(*) as n from order_owners')).toBe(0);
    });
  });
}

claimSuite('a sale’s orderNo claimed on a call of its own (PGlite)');
describe.skipIf(pgUnavailable)('real PostgreSQL', () => {
  let cluster: PgCluster;
  let n = 0;
  beforeAll(async () => {
    cluster = await startPgCluster();
    databaseUrl = () => cluster.createDatabase(`claims${++n}`);
  });
  afterAll(() => {
    databaseUrl = () => undefined;
    cluster?.stop();
  });
  claimSuite('a sale’s orderNo claimed on a call of its own (real PostgreSQL)');
});
