// A webhook that arrives while its owner's sync is committing (real PostgreSQL, READ COMMITTED):
// neither transaction sees the other's rows, so the ingest holds the webhook and the sync's release
// finds nothing. Whichever commits last must release it at once (the sync after its commit, the
// ingest after its own), not the sweep 15 s later. Once the counter's sync sends an orderNo the moment
// it learns it (issue 28), this is the common case on a fast tap, not a rare one. Interleaved here
// by advisory locks in triggers, so the order is the test's, not the scheduler's.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, enroll, post, posWebhook, sendPosWebhook, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

if (pgUnavailable) console.log(`held-notification race on real PostgreSQL skipped: ${pgUnavailable}`);

describe.skipIf(!!pgUnavailable)("a webhook and its owner's sync committing at once (real PostgreSQL)", () => {
  let cluster: PgCluster;
  let hub: TestHub;
  let url: string;
  let a: pg.Client;
  beforeAll(async () => {
    cluster = await startPgCluster();
    url = cluster.createDatabase('race');
    hub = await startTestHub({ databaseUrl: url });
    a = new pg.Client({ connectionString: url });
    await a.connect();
    // Pause points: the sync after its release (it then sets last_seq), the ingest as it holds.
    await a.query(
      `create function bench_pause() returns trigger language plpgsql as $$ begin perform pg_advisory_xact_lock_shared(tg_argv[0]::bigint); return new; end $$`,
    );
    await a.query(
      'create trigger pause_sync before update of last_seq on counters for each row execute function bench_pause(28)',
    );
    await a.query(
      'create trigger pause_hold before insert on quarantine for each row execute function bench_pause(29)',
    );
  }, 120_000);
  afterAll(async () => {
    await a?.end();
    await hub?.stop();
    cluster?.stop();
  });

  const waitingOn = (key: number) =>
    vi.waitFor(
      async () => {
        const r = await a.query(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1 and not granted`,
          [key],
        );
        expect(r.rows[0].n).toBeGreaterThan(0);
      },
      { timeout: 20_000 },
    );
  const state = async (orderNo: string) => {
    const held = await a.query(
      'select count(*)::int as n from quarantine q join notifications n on n.id = q.notification_id where n.order_no = $1',
      [orderNo],
    );
    const sent = await a.query(
      'select d.counter_id from deliveries d join notifications n on n.id = d.notification_id where n.order_no = $1',
      [orderNo],
    );
    return { held: held.rows[0].n as number, to: sent.rows.map((r) => r.counter_id as string) };
  };
  let seq = 0;
  const sync = (credential: string, orderNo: string) =>
    post(
      `${hub.url}/api/v1/sync`,
      {
        events: [
          {
            seq: ++seq,
            kind: 'order.created',
            at: Date.now(),
            payload: { reference: `REF-${orderNo}`, orderNo, amountKobo: 250_000, sn: 'SN-1' },
          },
        ],
        status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
      },
      bearer(credential),
    );

  it('the sync commits last: its answer comes after the held webhook went to the owner', async () => {
    const c = await enroll(hub, 'Race A', 'BR-RACE');
    seq = 0;
    await a.query('select pg_advisory_lock(28)');
    const syncing = sync(c.credential, 'ORD-RACE-1'); // owner written, release found nothing, paused before commit
    await waitingOn(28);
    expect(
      (await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'ORD-RACE-1', branch: 'BR-RACE' }))).status,
    ).toBe(200);
    expect(await state('ORD-RACE-1')).toEqual({ held: 1, to: [] });
    await a.query('select pg_advisory_unlock(28)');
    expect((await syncing).status).toBe(200);
    expect(await state('ORD-RACE-1')).toEqual({ held: 0, to: [c.counterId] });
  });

  it('the webhook commits last: its answer comes after it went to the owner', async () => {
    const c = await enroll(hub, 'Race B', 'BR-RACE');
    seq = 0;
    await a.query('select pg_advisory_lock(29)');
    const sending = sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'ORD-RACE-2', branch: 'BR-RACE' })); // no owner seen, paused as it holds
    await waitingOn(29);
    expect((await sync(c.credential, 'ORD-RACE-2')).status).toBe(200);
    await a.query('select pg_advisory_unlock(29)');
    expect((await sending).status).toBe(200);
    expect(await state('ORD-RACE-2')).toEqual({ held: 0, to: [c.counterId] });
  });
});
