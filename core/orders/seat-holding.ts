// The seats of a sale, below every door (docs/seat-maps.md): the seat plan a sale of a show with a
// seat map gets (its show and seats, checked against the layout by the programme's planner), this
// counter's own sales of a show (open: held, paid or paid after closing: sold), and the hold asked
// of the SeatHolds port after the sale is journaled and before the provider is asked.
import { validationError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { OrderView, Sale } from '../../shared/orders';
import { seatList } from '../../shared/seat-list';
import {
  SEAT_HOLD_DEADLINE_MS,
  SEATS_UNCHECKED,
  SEATS_UNCHECKED_REASONS,
  type SeatHoldOutcome,
  type SeatHoldRequest,
  type SeatHolds,
  type SeatTaken,
} from '../../shared/seats';
import type { Db } from '../db';
import type { TimerHandle, Timers } from '../lib';
import type { OrderJournal, OrderRecord } from './order-journal';
import { isFinalState, type OrderState } from './order-state';

/** A sale's seats of a show with a seat map: what is held and what the seat map shows as this counter's. */
export interface SeatPlan {
  showKey: string;
  show: SeatHoldRequest['show'];
  seats: string[];
}

/**
 * The programme's rules for a sale's seats (the show found from the sale, or named by the door):
 * null when the show has no seat map (typed seats), else the plan; throws VALIDATION when a seat
 * does not exist, is blocked, or is not of the ticket type's zone.
 */
export interface SeatPlanner {
  /** `seatTypes`: a basket's ticket type of each seat (each seat judged by its own zone); else one `ticketType` for all. */
  plan(
    sale: Sale,
    hint: {
      showKey?: string | undefined;
      ticketType?: string | undefined;
      seatTypes?: ReadonlyMap<string, string> | undefined;
    },
  ): SeatPlan | null;
}

/** A sale's seats of a show with a seat map as its order view carries them. */
type SeatHoldView = NonNullable<OrderView['seatHold']>;

/** A seat of this counter's own sales of a show, with the order it belongs to. */
interface OwnSeat extends SeatTaken {
  orderId: number;
  outOrderNo: string;
}

/** The owner of order_seat_holds (orders-005): each sale's show and seats, and how its hold went. */
export class SeatHoldStore {
  constructor(private readonly db: Db) {}

  /** In the sale's own transaction (the journal's `alongside`). */
  insert(orderId: number, plan: SeatPlan): void {
    this.db
      .prepare('INSERT INTO order_seat_holds (order_id, show_key, screen, seats) VALUES (?, ?, ?, ?)')
      .run(orderId, plan.showKey, plan.show.screen, plan.seats.join(','));
  }

  setOutcome(orderId: number, outcome: 'held' | 'unchecked' | 'taken' | 'refused', note: string | null): void {
    this.db.prepare('UPDATE order_seat_holds SET outcome = ?, note = ? WHERE order_id = ?').run(outcome, note, orderId);
  }

  of(orderId: number): SeatHoldView | null {
    const r = this.db
      .prepare('SELECT show_key AS showKey, screen, seats, outcome, note FROM order_seat_holds WHERE order_id = ?')
      .get(orderId) as (Omit<SeatHoldView, 'seats'> & { seats: string }) | undefined;
    return r ? { ...r, seats: seatList(r.seats) } : null;
  }

  /**
   * This counter's seats of a show: an open sale's are held, a paid one's (or paid after closing)
   * sold; a seat cancelled after the sale (order_cancelled_seats, docs/refunds.md) is free again.
   */
  ownTaken(showKey: string, counterName: string): OwnSeat[] {
    const rows = this.db
      .prepare(
        `SELECT h.order_id AS orderId, h.seats, o.state, o.out_order_no AS outOrderNo,
           EXISTS (SELECT 1 FROM order_late l WHERE l.order_id = o.id AND l.kind = 'paid-after-closing') AS latePaid,
           (SELECT group_concat(c.seat) FROM order_cancelled_seats c WHERE c.order_id = o.id) AS cancelled
         FROM order_seat_holds h JOIN orders o ON o.id = h.order_id
         WHERE h.show_key = ? AND (h.outcome IS NULL OR h.outcome NOT IN ('taken', 'refused'))`,
      )
      .all(showKey) as {
      orderId: number;
      seats: string;
      state: OrderState;
      outOrderNo: string;
      latePaid: number;
      cancelled: string | null;
    }[];
    const out: OwnSeat[] = [];
    for (const r of rows) {
      const state = r.state === 'paid' || r.latePaid ? 'sold' : isFinalState(r.state) ? null : 'held';
      if (!state) continue;
      const gone = new Set(r.cancelled ? seatList(r.cancelled) : []);
      for (const seat of seatList(r.seats))
        if (!gone.has(seat))
          out.push({ seat, state, counterName, mine: true, orderId: r.orderId, outOrderNo: r.outOrderNo });
    }
    return out;
  }
}

/** The own-sales rule: a seat of an open or paid sale of this counter is not sold again. */
export function refuseOwnTaken(store: SeatHoldStore, plan: SeatPlan, counterName: string): void {
  const mine = new Map(store.ownTaken(plan.showKey, counterName).map((t) => [t.seat, t]));
  const clash = plan.seats.filter((s) => mine.has(s));
  if (clash.length === 0) return;
  const sold = clash.some((s) => mine.get(s)!.state === 'sold');
  const message = `${clash.join(', ')} ${clash.length === 1 ? 'is' : 'are'} already ${sold ? 'sold' : 'being paid for'} at this counter (sale ${mine.get(clash[0]!)!.outOrderNo}): choose other seats`;
  throw validationError({ seats: message }, message);
}

/**
 * The hold, bounded by SEAT_HOLD_DEADLINE_MS: a port that throws or outlasts it leaves the seats
 * unchecked. The Hub's port ends its own wait first (SEAT_HOLD_WAIT_MS) and says why.
 */
async function askHold(holds: SeatHolds, req: SeatHoldRequest, timers: Timers): Promise<SeatHoldOutcome> {
  let timer: TimerHandle | undefined;
  const late = new Promise<SeatHoldOutcome>((resolve) => {
    timer = timers.setTimeout(
      () => resolve({ kind: 'unchecked', reason: SEATS_UNCHECKED_REASONS.slow }),
      SEAT_HOLD_DEADLINE_MS,
    );
  });
  const asked = holds.hold(req).catch((): SeatHoldOutcome => ({
    kind: 'unchecked',
    reason: SEATS_UNCHECKED_REASONS.unreachable,
  }));
  try {
    return await Promise.race([asked, late]);
  } finally {
    if (timer !== undefined) timers.clearTimeout(timer);
  }
}

/** The reason a sale ends failed when its seats were taken elsewhere, naming the seats and the counter. */
function takenReason(taken: readonly Pick<SeatTaken, 'seat' | 'counterName'>[]): string {
  const byCounter = new Map<string, string[]>();
  for (const t of taken) byCounter.set(t.counterName, [...(byCounter.get(t.counterName) ?? []), t.seat]);
  const parts = [...byCounter].map(
    ([counter, seats]) => `${seats.join(', ')} ${seats.length === 1 ? 'was' : 'were'} just taken at ${counter}`,
  );
  return `${parts.join('; ')}: choose other seats (the customer was not charged)`;
}

/** Why an exchange's new sale ended when the Hub could not hold its seats. */
export const EXCHANGE_NEEDS_HOLD =
  'An exchange needs its new seats held at the Hub, and the Hub could not be asked: try again once it answers; nothing moved.';

/** What the hold step takes of the checkout. */
export interface HoldStepDeps {
  journal: Pick<OrderJournal, 'transition' | 'get'>;
  store: SeatHoldStore;
  holds: () => SeatHolds;
  timers: Timers;
  logger: Logger;
  changed: (rec: OrderRecord | null) => void;
}

/**
 * Holds a journaled sale's seats before the provider is asked: taken elsewhere, the order ends
 * failed naming the seats and the counter ('stop', never sent); refused by the Hub, it ends failed
 * with the Hub's reason (never sold unchecked); held or not checked, it goes on, the outcome kept on
 * the order ('go').
 */
export async function holdForSale(
  d: HoldStepDeps,
  rec: Pick<OrderRecord, 'id' | 'outOrderNo'>,
  plan: SeatPlan,
  practice: boolean,
  needHeld = false,
): Promise<'go' | 'stop'> {
  const req: SeatHoldRequest = {
    orderKey: rec.outOrderNo,
    showKey: plan.showKey,
    show: plan.show,
    seats: plan.seats,
    practice,
  };
  const out = await askHold(d.holds(), req, d.timers);
  if (out.kind === 'taken') {
    const named =
      out.taken.length > 0 ? out.taken : plan.seats.map((seat) => ({ seat, counterName: 'another counter' }));
    const reason = takenReason(named);
    d.store.setOutcome(rec.id, 'taken', reason);
    const r = d.journal.transition(rec.id, 'failed', reason, { from: ['creating', 'queued'], patch: { reason } });
    d.logger.warn('seats taken at another counter; the sale was not sent', {
      orderId: rec.id,
      outOrderNo: rec.outOrderNo,
      seats: named.map((t) => t.seat).join(','),
    });
    d.changed(r.changed ? r.record : d.journal.get(rec.id));
    return 'stop';
  }
  // An exchange (`needHeld`) moves tickets only onto seats held across counters: with a Hub it could
  // not ask, it is refused as the Hub's refusal is (a counter without a Hub holds its own seats).
  const unheld =
    needHeld && out.kind === 'unchecked' && out.reason.startsWith(SEATS_UNCHECKED.hubUnreachable)
      ? `${EXCHANGE_NEEDS_HOLD} ${out.reason}`
      : null;
  if (out.kind === 'refused' || unheld) {
    const why = unheld ?? (out.kind === 'refused' ? out.reason : '');
    const reason = `${why} (the customer was not charged)`;
    d.store.setOutcome(rec.id, 'refused', why);
    const r = d.journal.transition(rec.id, 'failed', reason, { from: ['creating', 'queued'], patch: { reason } });
    d.logger.warn('the Hub refused the seat hold; the sale was not sent', {
      orderId: rec.id,
      outOrderNo: rec.outOrderNo,
      reason: why,
    });
    d.changed(r.changed ? r.record : d.journal.get(rec.id));
    return 'stop';
  }
  d.store.setOutcome(rec.id, out.kind, out.kind === 'unchecked' ? out.reason : null);
  if (out.kind === 'unchecked' && out.reason.startsWith(SEATS_UNCHECKED.hubUnreachable))
    d.logger.warn('seats not checked across counters (Hub unreachable); the sale is sent', {
      orderId: rec.id,
      outOrderNo: rec.outOrderNo,
      reason: out.reason,
    });
  d.changed(d.journal.get(rec.id));
  return 'go';
}

/**
 * The SeatHolds of a counter without a Hub: its own sales are the only knowledge (the own-sales rule
 * already refused a clash before the sale was journaled), so every hold answers "not checked".
 */
export function localSeatHolds(reason: string = SEATS_UNCHECKED_REASONS.noHub): SeatHolds {
  return {
    hold: () => Promise.resolve({ kind: 'unchecked', reason }),
    settle: () => {},
  };
}
