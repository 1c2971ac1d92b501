// The app's own work per create: sell() until the order is journaled as on the terminal
// (validation, journal writes, RSA, parsing), minus the time spent waiting on HTTP; beside the
// bare HTTP round trip to the same server.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { silentLogger } from '../../shared/logger';
import { createOutboxSink, HubOutbox } from '../../core/hub-link';
import { createCheckoutService } from '../../core/orders/checkout-service';
import { shiftCashierAt } from '../../core/records';
import { createPosClient } from '../../core/provider';
import { OrderTextIndex } from '../../core/orders/order-text-index';
import { startTerminalsSandbox } from '../helpers/chaos-sandbox';
import { percentile, round } from './bench-stats';
import type { BasketSources } from '../../core/orders';
import type { BasketSaleInput } from '../../shared/basket-sale';
import type { SaleInput } from '../../shared/orders';

export interface CreateOverheadFigures {
  p50: number;
  p95: number;
  bareRoundTripP50: number;
  /** The whole sell -> waiting, HTTP included. */
  totalP50: number;
  /** HTTP wait of the create call (the sandbox's own work included). */
  httpP50: number;
  creates: number;
}

/** Times every fetch (call -> answer headers), the way ky calls it. */
function timeFetches(): { total: () => number; reset: () => void; restore: () => void } {
  const original = globalThis.fetch;
  let spent = 0;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    const t = performance.now();
    try {
      return await original(...args);
    } finally {
      spent += performance.now() - t;
    }
  };
  return { total: () => spent, reset: () => (spent = 0), restore: () => (globalThis.fetch = original) };
}

/**
 * `baseDir`: where the journal lives (its disk's commit time is part of the overhead).
 * `withRecords`: wired as in the app, where the records module notes each order event for the
 * search index (its words are written when a search asks, not on the create's path: issue 37).
 */
export async function runCreateOverhead(o: {
  creates: number;
  warmup: number;
  baseDir: string;
  withRecords: boolean;
}): Promise<CreateOverheadFigures> {
  const [figures] = await runCreateOverheads({ ...o, kinds: [{ name: 'sale', input: twoTicketSale }] });
  return figures!.figures;
}

/** Today's sale of one ticket type: 2 tickets, by card. */
const twoTicketSale = (sn: string): SaleInput => ({
  filmName: 'Bench Film',
  filmTitle: 'Hall 1',
  showDate: '2025-03-31',
  showTime: '19:30',
  seats: 'A1,A2',
  tickets: 2,
  priceKobo: 250_000,
  bookingFeeKobo: 10_000,
  sn,
});

/** A kind of sale measured: its name and what the door sends for a terminal. */
export interface CreateKind {
  name: string;
  input: (sn: string) => SaleInput | BasketSaleInput;
}

/**
 * The create overhead of several kinds of sale in one run, taken in turn (sale after sale, kind after
 * kind), so that each kind sees the same machine: `o.creates` of each, after `o.warmup` of each.
 */
export async function runCreateOverheads(o: {
  creates: number;
  warmup: number;
  baseDir: string;
  withRecords: boolean;
  kinds: CreateKind[];
  basket?: BasketSources;
}): Promise<{ name: string; figures: CreateOverheadFigures }[]> {
  const k = o.kinds.length;
  const dir = mkdtempSync(join(o.baseDir, 'counterpay-bench-create-'));
  // One terminal per create: the orders stay waiting, and a terminal holds at most one unpaid order.
  const ts = await startTerminalsSandbox({
    terminals: (o.warmup + o.creates) * k,
    prefix: 'OVER-POS',
    requestTimeoutMs: 15_000,
  });
  const db = openJournalDb(join(dir, 'journal.sqlite'));
  const svc = createCheckoutService({
    db,
    pos: createPosClient(ts.provider, { logger: silentLogger }),
    clock: systemClock,
    logger: silentLogger,
    // As wired in the app: every journal event also goes to the Hub's outbox, in its transaction.
    journalSink: createOutboxSink(new HubOutbox(db), { cashierAt: shiftCashierAt(db) }),
    settings: () => ({
      counterName: 'Counter 1',
      headMerchantId: ts.provider.headMerchantId,
      merchantId: ts.provider.merchantId,
      orderExpireSeconds: 3600,
    }),
    // No status checks during the run: only the creates are measured.
    tuning: { poll: { fastMs: 3_600_000, mediumMs: 3_600_000, slowMs: 3_600_000 } },
    ...(o.basket ? { basket: o.basket } : {}),
  });
  if (o.withRecords) {
    const textIndex = new OrderTextIndex(db);
    svc.on('order', (v) => textIndex.changed(v.id));
  }
  const fetches = timeFetches();
  const per = o.kinds.map(() => ({ overhead: [] as number[], totals: [] as number[], http: [] as number[] }));
  const bare: number[] = [];
  try {
    for (let n = 0; n < (o.warmup + o.creates) * k; n++) {
      const i = Math.floor(n / k);
      const kind = n % k;
      const { overhead, totals, http } = per[kind]!;
      fetches.reset();
      const t0 = performance.now();
      const v = await svc.sell(o.kinds[kind]!.input(ts.terminals[n]!));
      await new Promise<void>((resolve) => {
        const off = svc.on('order', (e) => {
          if (e.id === v.id && e.state !== 'creating') {
            off();
            resolve();
          }
        });
      });
      const total = performance.now() - t0;
      if (svc.get(v.id)?.state !== 'waiting') throw new Error(`create ${i} ended ${svc.get(v.id)?.state}`);
      if (i < o.warmup) continue;
      totals.push(total);
      http.push(fetches.total());
      overhead.push(total - fetches.total());
    }
    for (let i = 0; i < o.warmup + o.creates; i++) {
      const t = performance.now();
      const r = await fetch(`${ts.sandbox.url}/_sandbox/health`);
      await r.text();
      if (i >= o.warmup) bare.push(performance.now() - t);
    }
  } finally {
    fetches.restore();
    await svc.stop();
    db.close();
    await ts.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return per.map(({ overhead, totals, http }, kind) => ({
    name: o.kinds[kind]!.name,
    figures: {
      p50: round(percentile(overhead, 50), 2),
      p95: round(percentile(overhead, 95), 2),
      bareRoundTripP50: round(percentile(bare, 50), 2),
      totalP50: round(percentile(totals, 50), 2),
      httpP50: round(percentile(http, 50), 2),
      creates: overhead.length,
    },
  }));
}
