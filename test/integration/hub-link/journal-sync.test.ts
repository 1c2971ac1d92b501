// The counter's journal reaches the Hub: sales through the real sandbox, shifts and top-ups are
// sent by the sync pusher to a real Hub (PGlite in memory; the first case also on a throwaway real
// PostgreSQL), and the Hub's copy equals the counter's outbox event for event. A Hub down for a
// while is caught up with no gap and no duplicate; a repeated batch changes nothing; a gap answer
// is resent from the Hub's number; a revoked counter or a forked journal stops the pusher.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { readJournal } from '../../../hub/store/journal';
import { OrderJournalReads } from '../../../core/orders';
import { shiftTotals } from '../../../core/records/shifts/shift-totals';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { TopupJournalReads } from '../../../core/topups';
import type { SyncEvent } from '../../../shared/hub-contract';
import { ADMIN_TOKEN, bearer, enroll, get, post, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../../hub/helpers/pg-cluster';
import { linkCounter, stopHubNow, type LinkedCounter } from '../../helpers/hub-link';
import { startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

let sb: OrdersSandbox;
let dir: string;
let pg: PgCluster | null = null;
let files = 0;
const open: { counter?: LinkedCounter; hub?: TestHub; db?: HubDb }[] = [];

if (pgUnavailable) console.log(`journal sync on real PostgreSQL skipped: ${pgUnavailable}`);

beforeAll(async () => {
  sb = await startOrdersSandbox();
  dir = mkdtempSync(join(tmpdir(), 'counterpay-hub-link-'));
  if (!pgUnavailable) pg = await startPgCluster();
});
afterAll(async () => {
  for (const o of open) {
    await o.counter?.close();
    if (o.hub) await stopHubNow(o.hub);
    await o.db?.close();
  }
  await sb.sandbox.close();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function setup(databaseUrl: string | null = null) {
  const db = await openHubDb({ databaseUrl, dataDir: null });
  const hub = await startTestHub({ db });
  const enrollment = await enroll(hub, 'Counter 3', sb.merchant.merchantId);
  const counter = linkCounter({
    file: join(dir, `counter-${++files}.sqlite`),
    hubUrl: hub.url,
    enrollment,
    sandbox: sb,
  });
  const entry: (typeof open)[number] = { counter, hub, db };
  open.push(entry);
  return { db, hub, enrollment, counter, entry };
}

/** The Hub's copy equals the counter's outbox, event for event, numbered 1..n with no gap or duplicate. */
async function expectSameJournal(db: HubDb, counter: LinkedCounter): Promise<SyncEvent[]> {
  const mine = counter.events();
  const hubs = await readJournal(db, counter.conn.counterId);
  expect(hubs).toEqual(mine);
  expect(hubs.map((e) => e.seq)).toEqual(mine.map((_, i) => i + 1));
  return hubs;
}

const backends = [
  { name: 'PGlite', url: async () => null, skip: null },
  { name: 'real PostgreSQL', url: async () => pg!.createDatabase(`sync_${Date.now()}`), skip: pgUnavailable },
];

describe.each(backends)('journal sync on $name', ({ url, skip }) => {
  it.skipIf(skip !== null)(
    'sales, a shift and a top-up reach the Hub event for event; a Hub down for a while is caught up with no gap and no duplicate',
    async () => {
      const { db, hub, counter, entry } = await setup(await url());
      const shift = counter.shifts.open('Ada', 500_000, Date.now(), 'production');
      await counter.sellPaid();
      await counter.sellPaid();
      counter.db
        .transaction(() => {
          // A top-up as the top-ups journal writes it (its engine is tested elsewhere).
          const t = counter.topups.insertSingle(
            { profile: 'production', billsMerchantId: 'B1' },
            'C3',
            '250131',
            { serviceType: 'airtime', provider: 'MTN', customerId: '08031234567', amountKobo: 50_000 },
            'Sending',
          );
          counter.topups.move([{ id: t.id, to: 'success', note: 'SUCCESS', patch: { orderNo: 'BO-1' } }]);
        })
        .immediate();
      await counter.synced();
      const first = await expectSameJournal(db, counter);
      expect(first.map((e) => e.kind)).toEqual([
        'shift.opened',
        'order.created',
        'order.status',
        'order.status',
        'order.created',
        'order.status',
        'order.status',
        'topup.submitted',
        'topup.status',
        ...first.slice(9).map(() => 'order.status'), // the payNo learnt by a follow-up query, when the provider gave it late
      ]);
      expect(first[1]!.payload).toMatchObject({
        cashier: 'Ada',
        amountKobo: 710_000,
        sale: { seats: 'F7,F8' },
        profile: 'production',
      });
      expect(
        first
          .filter((e) => e.kind === 'order.status' && e.payload.status === 'waiting')
          .every((e) => 'orderNo' in e.payload),
      ).toBe(true);

      // The Hub goes away at once, its open connections cut; the counter keeps selling.
      await stopHubNow(hub);
      entry.hub = undefined;
      const beforeDown = counter.outbox.lastSeq(counter.conn.counterId);
      await counter.sellPaid();
      await counter.until(() => counter.pusher.state() === 'offline' && counter.pusher.queueLength() > 0);
      await counter.sellPaid();
      counter.shifts.close(shift.id, Date.now(), (s) => ({
        kind: 'Z',
        shift: s,
        generatedAt: s.closedAt!,
        cinemaName: 'Film House',
        branch: 'Lekki',
        counterName: 'Counter 3',
        totals: shiftTotals(
          new OrderJournalReads(counter.db),
          topupTotals(new TopupJournalReads(counter.db)),
          s.openedAt,
          s.closedAt!,
        ),
      }));
      await counter.until(() => counter.pusher.queueLength() === counter.outbox.headSeq() - beforeDown);
      expect(counter.outbox.lastSeq(counter.conn.counterId)).toBe(beforeDown);

      // Back on the same database (on another port: the old one may have been taken meanwhile, and
      // the counter's connection is read afresh on every call): the counter catches up by itself.
      entry.hub = await startTestHub({ db });
      counter.conn.url = entry.hub.url;
      await counter.synced();
      const all = await expectSameJournal(db, counter);
      expect(all.slice(-2).map((e) => e.kind)).toEqual(['shift.closed', 'zreport']);
      expect(all.at(-1)!.payload).toMatchObject({ shiftId: String(shift.id), totalKobo: 4 * 710_000, count: 4 }); // the card total: the top-up is on its own line
    },
  );
});

describe('journal sync answers', () => {
  it('with nothing to send, the status tick tells the Hub the counter is alive, its queue and its open payments', async () => {
    const db = await openHubDb({ databaseUrl: null, dataDir: null });
    const hub = await startTestHub({ db });
    const enrollment = await enroll(hub, 'Quiet Lane', 'BR-Q');
    const counter = linkCounter({
      file: join(dir, `counter-${++files}.sqlite`),
      hubUrl: hub.url,
      enrollment,
      tuning: { statusEveryMs: 50 },
    });
    open.push({ counter, hub, db });
    // Each idle wait follows a call: three of them mean the first call and two status ticks were answered.
    while (counter.idle.idleWaits() < 3) await counter.idle.nextIdle();
    expect(counter.syncCalls()).toBeGreaterThanOrEqual(3);
    expect(counter.events()).toEqual([]);
    const seen = (await get(`${hub.url}/api/v1/admin/counters`, bearer(ADMIN_TOKEN))).json.counters as {
      id: string;
      lastSeenAt: number | null;
      appVersion: string | null;
      queueLength: number | null;
      openPayments: number | null;
      lastSeq: number;
    }[];
    expect(seen.find((c) => c.id === enrollment.counterId)).toMatchObject({
      appVersion: '0.1.0',
      queueLength: 0,
      openPayments: 0,
      lastSeq: 0,
      lastSeenAt: expect.any(Number),
    });
    expect(counter.pusher.state()).toBe('synced');
  });

  it('a repeated batch changes nothing, sent by hand or by a counter that lost its position', async () => {
    const { db, hub, enrollment, counter } = await setup();
    await counter.sellPaid();
    await counter.synced();
    const held = await expectSameJournal(db, counter);
    const status = { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 };
    const again = await post(
      `${hub.url}/api/v1/sync`,
      { events: counter.events(), status },
      bearer(enrollment.credential),
    );
    expect(again).toEqual({ status: 200, json: { lastSeq: held.length, stored: 0 } });

    // The counter died after the Hub stored its batch but before it kept the answer: it sends the same events again.
    await counter.pusher.stop();
    counter.outbox.setLastSeq(1, counter.conn.counterId);
    const calls = counter.syncCalls();
    counter.pusher.start();
    await counter.synced();
    expect(counter.syncCalls()).toBeGreaterThan(calls);
    expect(await readJournal(db, counter.conn.counterId)).toEqual(held);
  });

  it('a gap answer: the counter sends again from the number the Hub expects', async () => {
    const { db, counter } = await setup();
    await counter.sellPaid();
    await counter.synced();
    const held = counter.outbox.headSeq();
    await counter.pusher.stop();
    await counter.sellPaid();
    // The counter wrongly believes the Hub holds two more events than it does.
    counter.outbox.setLastSeq(held + 2, counter.conn.counterId);
    counter.pusher.start();
    await counter.synced();
    await expectSameJournal(db, counter);
    expect(counter.logger.lines.some((e) => /missing events/.test(e.msg) && e.fields?.expectedSeq === held + 1)).toBe(
      true,
    );
  });

  it('rate-limited: waits at least as long as the Hub asks, then carries on to the end', async () => {
    // 60 calls a minute in bursts of 12, one event per call: the burst runs out a few events before the end.
    const db = await openHubDb({ databaseUrl: null, dataDir: null });
    const hub = await startTestHub({ db, rateLimits: { perCredential: 60 } });
    const enrollment = await enroll(hub, 'Busy Lane', 'BR-R');
    const counter = linkCounter({
      file: join(dir, `counter-${++files}.sqlite`),
      hubUrl: hub.url,
      enrollment,
      tuning: { batchSize: 1 },
      noStart: true,
    });
    open.push({ counter, hub, db });
    counter.db
      .transaction(() => {
        for (let i = 0; i < 16; i++)
          counter.topups.insertSingle(
            { profile: 'production', billsMerchantId: 'B1' },
            'R1',
            '250131',
            { serviceType: 'airtime', provider: 'MTN', customerId: '08031234567', amountKobo: 10_000 + i },
            'Sending',
          );
      })
      .immediate();
    counter.pusher.start();
    await counter.synced();
    await expectSameJournal(db, counter);
    const limited = counter.logger.lines.filter((l) => l.fields?.code === 'HUB_RATE_LIMITED');
    expect(limited.length).toBeGreaterThan(0);
    for (const l of limited)
      expect(l.fields!.retryInMs as number).toBeGreaterThanOrEqual(l.fields!.retryAfterMs as number);
    expect(limited.every((l) => (l.fields!.retryAfterMs as number) > 0)).toBe(true);
  });

  it('a batch the Hub finds too large: smaller batches until it fits', async () => {
    const db = await openHubDb({ databaseUrl: null, dataDir: null });
    const hub = await startTestHub({ db, limits: { syncBodyBytes: 8 * 1024 } });
    const enrollment = await enroll(hub, 'Big Lane', 'BR-B');
    const counter = linkCounter({
      file: join(dir, `counter-${++files}.sqlite`),
      hubUrl: hub.url,
      enrollment,
      noStart: true,
    });
    open.push({ counter, hub, db });
    counter.db
      .transaction(() => {
        for (let i = 0; i < 60; i++)
          counter.topups.insertSingle(
            { profile: 'production', billsMerchantId: 'B1' },
            'G1',
            '250131',
            { serviceType: 'betting', provider: 'BET9JA', customerId: `U-${'9'.repeat(100)}-${i}`, amountKobo: 10_000 },
            'Sending',
          );
      })
      .immediate();
    counter.pusher.start();
    await counter.synced();
    await expectSameJournal(db, counter);
    const sizes = counter.logger.lines.filter((l) => /too large/.test(l.msg)).map((l) => l.fields?.batchSize as number);
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes).toEqual(sizes.map((_, i) => Math.floor(500 / 2 ** (i + 1))));
  });

  it('revoked: onRefused once, and no more calls to the Hub however much is sold', async () => {
    const { hub, enrollment, counter } = await setup();
    await counter.sellPaid();
    await counter.synced();
    const r = await post(`${hub.url}/api/v1/admin/counters/${enrollment.counterId}/revoke`, {}, bearer(ADMIN_TOKEN));
    expect(r.status).toBe(200);
    await counter.sellPaid();
    await counter.until(() => counter.refusals.length > 0);
    expect(counter.refusals.map((e) => e.code)).toEqual(['HUB_COUNTER_REVOKED']);
    expect(counter.pusher.state()).toBe('offline');
    const calls = counter.syncCalls();
    // More sales and kicks: the pusher wakes, sees it was refused, and goes back to waiting.
    const idleBefore = counter.idle.idleWaits();
    await counter.sellPaid();
    counter.pusher.kick();
    while (counter.idle.idleWaits() <= idleBefore) await counter.idle.nextIdle();
    expect(counter.syncCalls()).toBe(calls);
    expect(counter.refusals).toHaveLength(1);
    expect(counter.pusher.queueLength()).toBeGreaterThan(0);
  });

  it('a different event under a number the Hub holds: the pusher stops, says why, and never sends it again', async () => {
    const { db, hub, enrollment, counter } = await setup();
    await counter.pusher.stop();
    const foreign: SyncEvent = {
      seq: 1,
      kind: 'order.status',
      at: Date.now(),
      payload: { reference: 'NOT-OURS', status: 'paid' },
    };
    const status = { appVersion: '0.1.0', profile: 'production', sentAt: Date.now(), queueLength: 0, openPayments: 0 };
    expect(
      (await post(`${hub.url}/api/v1/sync`, { events: [foreign], status }, bearer(enrollment.credential))).json,
    ).toEqual({ lastSeq: 1, stored: 1 });
    await counter.sellPaid();
    counter.pusher.start();
    await counter.until(() =>
      counter.logger.lines.some((e) => e.level === 'error' && /HUB_SYNC_CONFLICT|different event/.test(e.msg)),
    );
    expect(counter.pusher.state()).toBe('offline');
    const calls = counter.syncCalls();
    const idleBefore = counter.idle.idleWaits();
    counter.pusher.kick();
    while (counter.idle.idleWaits() <= idleBefore) await counter.idle.nextIdle();
    expect(counter.syncCalls()).toBe(calls);
    expect(await readJournal(db, counter.conn.counterId)).toEqual([foreign]);
    // A new enrollment (reset) starts again from the first event.
    const fresh = await enroll(hub, 'Counter 3 again', sb.merchant.merchantId);
    Object.assign(counter.conn, { counterId: fresh.counterId, credential: fresh.credential });
    counter.pusher.reset();
    await counter.synced();
    await expectSameJournal(db, counter);
  });
});
