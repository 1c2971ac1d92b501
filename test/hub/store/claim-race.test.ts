// A sale's order claim (POST /api/v1/orders/claim) while its counter's journal sync is in the middle
// of its transaction (real PostgreSQL). The claim's foreign key locks the counter's row (for key
// share); the sync used to lock it for update, so the claim waited for the whole sync, and when the
// sync then claimed the same orderNo each waited for the other: a deadlock PostgreSQL saw only after a
// second (bench:hub, issue 28). The sync now locks the row for no key update: the claim does not
// wait. Paused by an advisory lock in a trigger, so the order is the test's, not the scheduler's.
// Before the fix the claim never answers while the sync is paused (the test times out).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORDER_CLAIM_PATH } from '../../../shared/hub-contract';
import { bearer, enroll, post, posWebhook, sendPosWebhook, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

if (pgUnavailable) console.log(`order claim against a sync in flight on real PostgreSQL skipped: ${pgUnavailable}`);

describe.skipIf(!!pgUnavailable)(
  "claims and releases while a counter's sync is mid-transaction (real PostgreSQL)",
  () => {
    let cluster: PgCluster;
    let hub: TestHub;
    let a: pg.Client;
    beforeAll(async () => {
      cluster = await startPgCluster();
      const url = cluster.createDatabase('claimrace');
      hub = await startTestHub({ databaseUrl: url });
      a = new pg.Client({ connectionString: url });
      await a.connect();
      // Pause point: the sync as it sets last_seq (its journal rows and claims written, not committed).
      await a.query(
        `create function claim_pause() returns trigger language plpgsql as $$ begin perform pg_advisory_xact_lock_shared(tg_argv[0]::bigint); return new; end $$`,
      );
      await a.query(
        'create trigger pause_sync before update of last_seq on counters for each row execute function claim_pause(30)',
      );
    }, 120_000);
    afterAll(async () => {
      await a?.end();
      await hub?.stop();
      cluster?.stop();
    });

    it('the claim answers while the sync is paused, the sync then stores its batch, and the webhook goes to the owner', async () => {
      const c = await enroll(hub, 'Counter 1', 'BR-CLAIM');
      await a.query('select pg_advisory_lock(30)');
      // The sale's order.created (no orderNo yet), paused before its commit with the counter's row locked.
      const syncing = post(
        `${hub.url}/api/v1/sync`,
        {
          events: [
            {
              seq: 1,
              kind: 'order.created',
              at: Date.now(),
              payload: { reference: 'COU1-251127-0001', amountKobo: 250_000, sn: 'SN-1' },
            },
          ],
          status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
        },
        bearer(c.credential),
      );
      await vi.waitFor(
        async () => {
          const r = await a.query(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 30 and not granted`,
          );
          expect(r.rows[0].n).toBe(1);
        },
        { timeout: 20_000 },
      );
      const claimed = await post(
        `${hub.url}${ORDER_CLAIM_PATH}`,
        { orders: [{ reference: 'COU1-251127-0001', orderNo: 'ORD-CLAIM-1' }] },
        bearer(c.credential),
      );
      expect(claimed).toEqual({ status: 200, json: { claimed: 1 } });
      await a.query('select pg_advisory_unlock(30)');
      expect((await syncing).status).toBe(200);
      await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'ORD-CLAIM-1', branch: 'BR-CLAIM' }));
      const to = await a.query(
        'select d.counter_id from deliveries d join notifications n on n.id = d.notification_id where n.order_no = $1',
        ['ORD-CLAIM-1'],
      );
      expect(to.rows.map((r) => r.counter_id as string)).toEqual([c.counterId]);
      const owners = await a.query('select order_key from order_owners order by order_key');
      expect(owners.rows.map((r) => r.order_key as string)).toEqual(['COU1-251127-0001', 'ORD-CLAIM-1']);
    }, 30_000);

    it('a release does not wait for a held webhook another release is taking: it skips the row, which the first delivers once', async () => {
      const c = await enroll(hub, 'Counter 2', 'BR-CLAIM');
      expect(
        (await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'ORD-CLAIM-2', branch: 'BR-CLAIM' }))).status,
      ).toBe(200);
      // Its owner known since (as when a claim and the ingest committed at once), not yet released.
      await a.query('insert into order_owners (order_key, counter_id, registered_at) values ($1, $2, $3)', [
        'ORD-CLAIM-2',
        c.counterId,
        Date.now(),
      ]);
      await a.query(
        'create trigger pause_delivery before insert on deliveries for each row execute function claim_pause(31)',
      );
      await a.query('select pg_advisory_lock(31)');
      // The first release takes the held row and pauses as it writes the delivery (not committed).
      const first = hub.sweepHeld();
      await vi.waitFor(
        async () => {
          const r = await a.query(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 31 and not granted`,
          );
          expect(r.rows[0].n).toBe(1);
        },
        { timeout: 20_000 },
      );
      // Before: this one waited on the row the first had taken (and two releases taking rows in
      // different orders deadlocked). Now it passes it by.
      expect(await hub.sweepHeld()).toEqual({ released: 0, dropped: 0 });
      await a.query('select pg_advisory_unlock(31)');
      expect(await first).toEqual({ released: 1, dropped: 0 });
      await a.query('drop trigger pause_delivery on deliveries');
      const to = await a.query(
        'select d.counter_id from deliveries d join notifications n on n.id = d.notification_id where n.order_no = $1',
        ['ORD-CLAIM-2'],
      );
      expect(to.rows.map((r) => r.counter_id as string)).toEqual([c.counterId]);
      expect((await a.query('select count(*)::int as n from quarantine')).rows[0].n).toBe(0);
    }, 30_000);
  },
);
