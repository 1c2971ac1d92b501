// The Hub chaos run's verdict: every counter's journal (its outbox) against the Hub's copy, the
// Hub's accepted notifications against what each owner recorded, and the sale verdict of
// chaos-verdict.ts over all counters. Pure, so the counting rules can be read (and checked) alone.
import { isDeepStrictEqual } from 'node:util';
import type { SandboxPosOrder } from '../../sandbox';
import { chaosVerdict, type JournalRow } from './chaos-verdict';

export interface JournalEvent {
  seq: number;
  kind: string;
  at: number;
  payload: unknown;
}

export interface CounterFacts {
  name: string;
  counterId: string;
  /** The counter's outbox rows (its journal as sent to the Hub), by seq. */
  outbox: JournalEvent[];
  /** The Hub's `journal` rows of this counter, by seq. */
  hub: JournalEvent[];
  /** The counter's orders (the sale verdict's journal). */
  orders: JournalRow[];
  /** Provider order numbers with a POS row in the counter's webhook_events. */
  recordedOrderNos: Set<string>;
  /** Sales the counter acknowledged (journaled) to the driver. */
  acked: Set<string>;
}

export interface HubFacts {
  /** Every POS notification the Hub accepted (stored), with the order number it was routed by. */
  notifications: { id: string; orderNo: string | null }[];
  /** Deliveries a counter acknowledged. */
  ackedDeliveries: number;
}

export interface HubChaosCounts {
  counters: number;
  sales: number;
  relayed: number;
  relayLost: number;
  syncGaps: number;
  syncDuplicates: number;
  /** Payments taken after the counter closed the sale, carried by the order, the shift totals and the Hub's copy. */
  lateFound: number;
  /** Such payments one of the three does not carry: must be 0. */
  lateMissed: number;
  /** Seats of the seat race sold to two sales the Hub held (seat-race.ts): must be 0; absent when no race ran. */
  seatsDoubleSold?: number;
}

export interface HubChaosVerdict extends HubChaosCounts {
  /** Same seq on both sides but a different event. */
  syncMismatches: number;
  /** Sales in a counter's orders with no `order.created` in its outbox (the outbox is not its journal). */
  outboxMissing: number;
  journalsEqual: boolean;
  /** The sale verdict (chaos-verdict.ts) over every counter's orders. */
  sale: { providerOrders: number; duplicates: number; lost: number; notFinal: number };
  passed: boolean;
  problems: string[];
}

const same = (a: JournalEvent, b: JournalEvent) =>
  a.seq === b.seq && a.kind === b.kind && a.at === b.at && isDeepStrictEqual(a.payload, b.payload);
/** Key order does not matter (the Hub's jsonb keeps its own order). */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, x]) => [k, canonical(x)]),
        )
      : v;
const eventKey = (e: JournalEvent) => JSON.stringify([e.kind, e.at, canonical(e.payload)]);

/**
 * syncGaps: outbox events the Hub does not hold. syncDuplicates: Hub events the counter does not
 * have (a seq past its outbox), plus events the Hub holds more often than the counter wrote them.
 * syncMismatches: a seq held by both with different contents. outboxMissing: sales without their
 * order.created in the outbox (an empty outbox would make the comparison pass vacuously). relayLost: accepted notifications
 * for an order of counter X (by the provider's order → our outOrderNo → the counter whose journal
 * has it) that X never recorded in webhook_events. relayed: acknowledged deliveries.
 */
export function hubChaosVerdict(
  counters: CounterFacts[],
  hub: HubFacts,
  provider: SandboxPosOrder[],
  paidLate: ReadonlySet<string> = new Set(),
): HubChaosVerdict {
  const problems: string[] = [];
  let syncGaps = 0;
  let syncDuplicates = 0;
  let syncMismatches = 0;
  for (const c of counters) {
    const hubBySeq = new Map(c.hub.map((e) => [e.seq, e]));
    const outBySeq = new Map(c.outbox.map((e) => [e.seq, e]));
    for (const e of c.outbox) {
      const h = hubBySeq.get(e.seq);
      if (!h) {
        syncGaps += 1;
        if (syncGaps <= 20) problems.push(`sync gap: ${c.name} event ${e.seq} (${e.kind}) is not on the Hub`);
      } else if (!same(e, h)) {
        syncMismatches += 1;
        problems.push(`sync mismatch: ${c.name} event ${e.seq}: counter ${JSON.stringify(e)} Hub ${JSON.stringify(h)}`);
      }
    }
    for (const h of c.hub) {
      if (!outBySeq.has(h.seq)) {
        syncDuplicates += 1;
        problems.push(
          `sync duplicate: the Hub holds ${c.name} event ${h.seq} (${h.kind}) that the counter does not have`,
        );
      }
    }
    // The same event under two numbers on the Hub, more often than the counter wrote it.
    const count = (list: JournalEvent[]) => {
      const m = new Map<string, number>();
      for (const e of list) m.set(eventKey(e), (m.get(eventKey(e)) ?? 0) + 1);
      return m;
    };
    const onCounter = count(c.outbox);
    for (const [k, n] of count(c.hub.filter((h) => outBySeq.has(h.seq)))) {
      const extra = n - (onCounter.get(k) ?? 0);
      if (extra > 0) {
        syncDuplicates += extra;
        problems.push(`sync duplicate: the Hub holds ${c.name}'s event ${k.slice(0, 120)} ${n} times`);
      }
    }
  }

  // The outbox must hold the journal: every sale has its order.created (reference = outOrderNo).
  let outboxMissing = 0;
  for (const c of counters) {
    const created = new Set(
      c.outbox.filter((e) => e.kind === 'order.created').map((e) => (e.payload as { reference?: unknown }).reference),
    );
    for (const r of c.orders) {
      if (!created.has(r.outOrderNo)) {
        outboxMissing += 1;
        if (outboxMissing <= 20)
          problems.push(`outbox missing: ${c.name}'s sale ${r.outOrderNo} has no order.created event in its outbox`);
      }
    }
  }

  // Whose order is it: provider orderNo → outOrderNo → the counter whose journal has it.
  const outOf = new Map(provider.map((p) => [p.orderNo, p.outOrderNo]));
  const ownerOf = new Map<string, CounterFacts>();
  for (const c of counters) for (const r of c.orders) ownerOf.set(r.outOrderNo, c);
  let relayLost = 0;
  for (const n of hub.notifications) {
    const out = n.orderNo ? outOf.get(n.orderNo) : undefined;
    const owner = out ? ownerOf.get(out) : undefined;
    if (!owner || !n.orderNo) continue; // not one of our orders: nobody had to record it
    if (!owner.recordedOrderNos.has(n.orderNo)) {
      relayLost += 1;
      problems.push(
        `relay lost: notification ${n.id} for ${out} (provider ${n.orderNo}) never reached ${owner.name}'s webhook_events`,
      );
    }
  }

  // A payment after closing is found only when the Hub's copy carries it too (its order.late event).
  const withHub = counters.flatMap((c) => {
    const onHub = new Set(
      c.hub.filter((e) => e.kind === 'order.late').map((e) => (e.payload as { reference?: string }).reference),
    );
    return c.orders.map((r) => (r.inTotals && !onHub.has(r.outOrderNo) ? { ...r, inTotals: false } : r));
  });
  const sale = chaosVerdict(
    withHub,
    provider,
    counters.flatMap((c) => [...c.acked]),
    paidLate,
  );
  problems.push(...sale.problems);
  const journalsEqual = syncGaps + syncDuplicates + syncMismatches === 0;
  const passed =
    journalsEqual &&
    outboxMissing === 0 &&
    relayLost === 0 &&
    sale.duplicates + sale.lost + sale.notFinal + sale.lateMissed === 0;
  return {
    counters: counters.length,
    sales: sale.sales,
    relayed: hub.ackedDeliveries,
    relayLost,
    syncGaps,
    syncDuplicates,
    syncMismatches,
    outboxMissing,
    journalsEqual,
    sale: {
      providerOrders: sale.providerOrders,
      duplicates: sale.duplicates,
      lost: sale.lost,
      notFinal: sale.notFinal,
    },
    lateFound: sale.lateFound,
    lateMissed: sale.lateMissed,
    passed,
    problems,
  };
}

export function hubChaosLine(c: HubChaosCounts): string {
  return `counters=${c.counters} sales=${c.sales} relayed=${c.relayed} relayLost=${c.relayLost} syncGaps=${c.syncGaps} syncDuplicates=${c.syncDuplicates} lateFound=${c.lateFound} lateMissed=${c.lateMissed}${c.seatsDoubleSold === undefined ? '' : ` seatsDoubleSold=${c.seatsDoubleSold}`}`;
}
