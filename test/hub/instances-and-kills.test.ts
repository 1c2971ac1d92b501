// A Hub killed (SIGKILL) mid-sync on PGlite and on real PostgreSQL, and instances on one real
// PostgreSQL: a webhook received by instance A reaches a counter
// streaming from instance B (LISTEN/NOTIFY). After a kill the counter resumes from the Hub's answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../hub/db/adapter';
import { openHubDb } from '../../hub/db/open';
import { readJournal } from '../../hub/store/journal';
import type { SyncEvent } from '../../shared/hub-contract';
import {
  ADMIN_TOKEN,
  bearer,
  enroll,
  makeMerchant,
  posWebhook,
  post,
  sendPosWebhook,
  startTestHub,
} from './helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from './helpers/hub-process';
import { pgUnavailable, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { RelayClient } from './helpers/sse-client';

if (pgUnavailable)
  console.log(
    `multi-instance tests skipped: they need a real PostgreSQL (PGlite is one process per folder): ${pgUnavailable}`,
  );

/**
 * The counter sends its outbox in batches of 50 from the first seq the Hub has not confirmed; when
 * a call fails it waits for the Hub to be back and sends the same batch again. Meanwhile the Hub is
 * SIGKILLed twice, right after a confirmed batch, with the next call already started (so it is cut),
 * and started again. The test asserts its own preconditions: two kills, and calls really cut.
 */
async function killMidSync(args: string[], openAfter: () => Promise<HubDb>): Promise<void> {
  let hub = await spawnHub(args);
  let hubReady: Promise<HubProcess> = Promise.resolve(hub);
  const c = await enroll(hub, 'Syncer', 'BR-K');
  const total = 3000;
  const events: SyncEvent[] = Array.from({ length: total }, (_, i) => ({
    seq: i + 1,
    kind: 'order.status',
    at: 1_700_000_000_000 + i,
    payload: { reference: `R${i + 1}`, status: i % 3 ? 'paid' : 'waiting' },
  }));
  const status = () => ({ appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 });
  const killAt = [800, 1900];
  let failures = 0;
  let kills = 0;
  try {
    let next = 1;
    while (next <= total) {
      const h = await hubReady;
      const call = post(
        `${h.url}/api/v1/sync`,
        { events: events.slice(next - 1, next + 49), status: status() },
        bearer(c.credential),
      ).catch(() => null);
      if (kills < killAt.length && next > killAt[kills]!) {
        // Killed with this batch in flight (the call was started before the kill): it is cut.
        kills++;
        hubReady = (async () => {
          await hub.kill();
          hub = await spawnHub(args);
          return hub;
        })();
      }
      const r = await call;
      if (r?.status === 200) next = Number(r.json.lastSeq) + 1;
      else failures++;
    }
  } finally {
    await (await hubReady.catch(() => hub)).kill();
  }
  // The preconditions of this test: the Hub really was killed twice, each time with a call in flight.
  expect(kills).toBe(killAt.length);
  expect(failures).toBeGreaterThanOrEqual(killAt.length);
  const db = await openAfter();
  try {
    const journal = await readJournal(db, c.counterId);
    expect(journal.map((e) => e.seq)).toEqual(events.map((e) => e.seq)); // no gap, no duplicate
    expect(journal).toEqual(events);
    console.log(`kill mid-sync (${db.kind}): 2 kills, ${failures} calls cut, ${journal.length} events held`);
  } finally {
    await db.close();
  }
}

afterAll(killAllHubs);

describe('a Hub on PGlite killed mid-sync', () => {
  it('restarts on its data folder; the counter resumes with no gap and no duplicate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-kill-'));
    try {
      await killMidSync(['--data-dir', dir], () => openHubDb({ dataDir: dir }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000); // three cold starts of a PGlite Hub process: slow on a busy 2-core machine
});

describe.skipIf(!!pgUnavailable)('several Hub instances on one real PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());

  it('a webhook received by instance A reaches a counter streaming from instance B; a revocation on A closes the stream on B', async () => {
    const url = cluster.createDatabase('two');
    const merchant = makeMerchant();
    const a = await startTestHub({ databaseUrl: url, merchant });
    // B's heartbeats (which also re-read) are far apart: only A's NOTIFY can bring the webhook to B in time.
    const b = await startTestHub({ databaseUrl: url, merchant, heartbeatMs: 120_000 });
    try {
      const c = await enroll(a, 'On B', 'BR-X'); // enrolled through A, streams from B
      const st = { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 1 };
      const order = {
        seq: 1,
        kind: 'order.created',
        at: Date.now(),
        payload: { reference: 'OB-250101-0001', orderNo: 'PAY-AB', amountKobo: 1000, sn: 'SN' },
      };
      expect((await post(`${a.url}/api/v1/sync`, { events: [order], status: st }, bearer(c.credential))).status).toBe(
        200,
      );
      const s = new RelayClient(b.url, c.credential);
      await s.connect();
      await s.until(() => s.heartbeats() >= 1);
      const w = posWebhook(merchant, { tranId: 'PAY-AB', branch: 'BR-X' });
      expect((await sendPosWebhook(a, w)).json.code).toBe('00000');
      await s.until(() => s.notifications.length === 1);
      expect(s.notifications[0]!.body).toBe(w.body);
      // The ack goes to A; the delivery is done for both.
      expect(
        (await post(`${a.url}/api/v1/relay/ack`, { eventIds: [s.notifications[0]!.eventId] }, bearer(c.credential)))
          .json,
      ).toEqual({ acked: 1 });
      expect((await b.db.query('select 1 from deliveries where acked_at is null')).length).toBe(0);
      // Revoked through A: B closes the counter's stream, saying why.
      expect((await post(`${a.url}/api/v1/admin/counters/${c.counterId}/revoke`, {}, bearer(ADMIN_TOKEN))).status).toBe(
        200,
      );
      await s.until(() => s.events.some((e) => e.event === 'closed'));
      expect(s.events.find((e) => e.event === 'revoked')?.data).toContain('HUB_COUNTER_REVOKED');
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a Hub killed mid-sync and restarted: the counter resumes with no gap and no duplicate', async () => {
    const url = cluster.createDatabase('kill');
    await killMidSync(['--database-url', url], () => openHubDb({ databaseUrl: url, dataDir: null }));
  }, 240_000); // three cold starts of a Hub process
});
