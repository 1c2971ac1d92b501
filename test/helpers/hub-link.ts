// A counter linked to a real Hub for the sync tests: its SQLite journal with the Hub outbox wired
// as in the app (orders, shifts and top-ups write their events into it), the checkout against the
// real sandbox, the real Hub client (with its calls counted) and the sync pusher. Waits are on the
// pusher's own change notices, never on sleeps.
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { type Db } from '../../core/db';
import {
  createHubClient,
  createOutboxSink,
  createSyncPusher,
  HubOutbox,
  type HubCallError,
  type HubConnection,
  type SyncPusher,
  type SyncTuning,
} from '../../core/hub-link';
import { memoryLogger } from '../../shared/logger';
import { systemTimers, type Timers } from '../../core/lib';
import { createCheckoutService, type CheckoutService } from '../../core/orders/checkout-service';
import type { BasketSources } from '../../core/orders/basket-intake';
import { createPosClient } from '../../core/provider';
import { ShiftStore } from '../../core/records/shifts/shift-store';
import { TopupJournal } from '../../core/topups/topup-journal';
import type { EnrollResponse } from '../../shared/hub-contract';
import { FAST_TUNING, inState, type OrdersSandbox } from './orders-sandbox';
import { SALE_INPUT } from './orders-db';

/** Fast, real timings: appends go out within milliseconds, a dead Hub is retried every 20-200 ms. */
export const FAST_SYNC: Partial<SyncTuning> = {
  debounceMs: 5,
  statusEveryMs: 60_000,
  backoff: { baseMs: 20, maxMs: 200 },
  requestTimeoutMs: 5_000,
};

/** Timers that say when the pusher starts an idle wait (the status tick's length): it has nothing more to do. */
export function idleWatch(idleMs: number): { timers: Timers; idleWaits: () => number; nextIdle: () => Promise<void> } {
  let n = 0;
  const waiters: (() => void)[] = [];
  return {
    timers: {
      setTimeout(fn, ms) {
        const h = systemTimers.setTimeout(fn, ms);
        if (ms === idleMs) {
          n += 1;
          for (const w of waiters.splice(0)) w();
        }
        return h;
      },
      clearTimeout: (h) => systemTimers.clearTimeout(h),
    },
    idleWaits: () => n,
    nextIdle: () => new Promise<void>((r) => waiters.push(r)),
  };
}

/**
 * Stops a test Hub with its open connections cut: a graceful close can otherwise wait up to a
 * minute on a client's keep-alive connection (seen under load; a matter for the Hub's close).
 */
export async function stopHubNow(hub: {
  stop(): Promise<void>;
  app: { server: { closeAllConnections(): void } };
}): Promise<void> {
  const closing = hub.stop();
  hub.app.server.closeAllConnections();
  await closing;
}

export interface LinkedCounterOptions {
  file: string;
  hubUrl: string;
  enrollment: EnrollResponse;
  sandbox?: OrdersSandbox;
  tuning?: Partial<SyncTuning>;
  /** Leave the pusher stopped (the test starts it). */
  noStart?: boolean;
  /** Its order numbers come from it: counters sharing one sandbox need different names (default Lane 1, Lane 2, ...). */
  counterName?: string;
  /** The sales' expiry in seconds, read at each sale (default 300). */
  expireSeconds?: () => number;
  /** Where baskets are priced from (the programme's show, the catalogue); none by default. */
  basket?: BasketSources;
}

let made = 0;

export interface LinkedCounter {
  db: Db;
  outbox: HubOutbox;
  shifts: ShiftStore;
  topups: TopupJournal;
  checkout: CheckoutService | null;
  pusher: SyncPusher;
  conn: HubConnection;
  logger: ReturnType<typeof memoryLogger>;
  refusals: HubCallError[];
  /** POST /sync calls the pusher made (answered or not). */
  syncCalls(): number;
  idle: ReturnType<typeof idleWatch>;
  /** Every outbox event, in order. */
  events(): ReturnType<HubOutbox['readAfter']>;
  /** Resolves once `test` holds: now, or at a change notice of the pusher; fails after `deadlineMs` saying where the pusher stands. */
  until(test: () => boolean, what?: string, deadlineMs?: number): Promise<void>;
  /** The Hub holds every event of the outbox, and the pusher says so. */
  synced(): Promise<void>;
  /** One sale through the sandbox, paid on the terminal. */
  sellPaid(): Promise<number>;
  close(): Promise<void>;
}

export function linkCounter(o: LinkedCounterOptions): LinkedCounter {
  const db = openJournalDb(o.file);
  const outbox = new HubOutbox(db);
  const logger = memoryLogger();
  const reader = new ShiftStore(db);
  const sink = createOutboxSink(outbox, { cashierAt: (at) => reader.cashierAt(at), logger });
  const shifts = new ShiftStore(db, sink);
  const sb = o.sandbox;
  const counterName = o.counterName ?? `Lane ${++made}`;
  const checkout = sb
    ? createCheckoutService({
        db,
        pos: createPosClient(() => sb.providerConfig(), { logger }),
        clock: systemClock,
        logger,
        journalSink: sink,
        tuning: FAST_TUNING,
        ...(o.basket ? { basket: o.basket } : {}),
        settings: () => ({
          counterName,
          headMerchantId: sb.merchant.headMerchantId,
          merchantId: sb.merchant.merchantId,
          orderExpireSeconds: o.expireSeconds?.() ?? 300,
          profile: 'production',
        }),
      })
    : null;
  let calls = 0;
  const countingFetch: typeof fetch = (input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/api/v1/sync')) calls += 1;
    return fetch(input, init);
  };
  const tuning = { ...FAST_SYNC, ...o.tuning };
  const idle = idleWatch(tuning.statusEveryMs ?? 60_000);
  const listeners = new Set<() => void>();
  const refusals: HubCallError[] = [];
  const conn: HubConnection = {
    url: o.hubUrl,
    counterId: o.enrollment.counterId,
    credential: o.enrollment.credential,
    branch: o.enrollment.branch,
  };
  const pusher = createSyncPusher({
    db,
    connection: () => conn,
    client: createHubClient({ fetch: countingFetch }),
    clock: systemClock,
    timers: idle.timers,
    logger,
    status: () => ({ appVersion: '0.1.0', profile: 'production', openPayments: checkout?.listOpen().length ?? 0 }),
    onChange: () => {
      for (const l of [...listeners]) l();
    },
    onRefused: (e) => refusals.push(e),
    journalSink: sink,
    tuning,
  });
  if (!o.noStart) pusher.start();

  const where = () =>
    `state ${pusher.state()}, queue ${pusher.queueLength()}, Hub holds ${outbox.lastSeq(conn.counterId)} of ${outbox.headSeq()}; last log: ${JSON.stringify(logger.lines.slice(-4))}`;

  function until(test: () => boolean, what = 'the condition', deadlineMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (test()) return resolve();
      // A deadline, not a sleep: it only turns a hang into a failure that says where things stand.
      const deadline = setTimeout(() => {
        listeners.delete(l);
        reject(new Error(`${what} did not happen within ${deadlineMs} ms: ${where()}`));
      }, deadlineMs);
      const l = () => {
        if (!test()) return;
        listeners.delete(l);
        clearTimeout(deadline);
        resolve();
      };
      listeners.add(l);
    });
  }

  function orderIn(id: number, state: 'waiting' | 'paid'): Promise<unknown> {
    let deadline: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      inState(checkout!, id, state).finally(() => clearTimeout(deadline)),
      new Promise((_, reject) => {
        deadline = setTimeout(
          () =>
            reject(
              new Error(
                `order ${id} did not become ${state} within 30 s: it is ${checkout!.get(id)?.state} (${checkout!.get(id)?.reason ?? ''})`,
              ),
            ),
          30_000,
        );
      }),
    ]);
  }

  return {
    db,
    outbox,
    shifts,
    topups: new TopupJournal(db, () => Date.now(), sink),
    checkout,
    pusher,
    conn,
    logger,
    refusals,
    idle,
    syncCalls: () => calls,
    events: () => outbox.readAfter(0, 1_000_000),
    until,
    synced: () =>
      until(
        () =>
          pusher.state() === 'synced' &&
          pusher.queueLength() === 0 &&
          outbox.lastSeq(conn.counterId) === outbox.headSeq(),
        'the Hub holding every event',
      ),
    async sellPaid() {
      if (!checkout || !sb) throw new Error('linkCounter: no sandbox given');
      const v = await checkout.sell({ ...SALE_INPUT, sn: sb.merchant.terminalSn });
      await orderIn(v.id, 'waiting');
      sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
      await orderIn(v.id, 'paid');
      return v.id;
    },
    async close() {
      await pusher.stop();
      await checkout?.stop();
      db.close();
    },
  };
}
