// The order journal's reads for other modules (a shift's totals, the orders still without an
// outcome), so that nothing outside orders/ writes SQL against the journal's tables.
import type { OrderState } from '../../shared/orders';
import type { RecordScope } from '../../shared/record-profile';
import type { Db } from '../db';
import { sqlList } from '../lib';
import { OPEN_STATES } from './order-state';
import { LateOutcomeStore } from './late-outcomes';

/** The orders of one state created in a window, summed. */
export interface OrderStateTotals {
  state: OrderState;
  count: number;
  amountKobo: number;
  bookingFeesKobo: number;
  providerFeesKobo: number;
  tickets: number;
}

/** Paid orders of one show (film, title, date, time) created in a window: its fill at a glance. */
export interface ShowTotals {
  filmName: string;
  filmTitle: string;
  showDate: string;
  showTime: string;
  orders: number;
  /** One seat per ticket. */
  seats: number;
  amountKobo: number;
}

/** An order still waiting for an outcome. */
export interface OpenOrder {
  id: number;
  outOrderNo: string;
  state: OrderState;
  amountKobo: number;
  createdAt: number;
  reason: string | null;
}

const realOnly = (scope: RecordScope, alias = ''): string => (scope.excludeDemo ? ` AND ${alias}profile <> 'demo'` : '');

export class OrderJournalReads {
  constructor(private readonly db: Db) {}

  /** Orders created in [from, to), by state. */
  totalsByState(from: number, to: number, scope: RecordScope): OrderStateTotals[] {
    return this.db
      .prepare(
        `SELECT state, COUNT(*) AS count, COALESCE(SUM(amount_kobo), 0) AS amountKobo, COALESCE(SUM(booking_fee_kobo), 0) AS bookingFeesKobo,
                COALESCE(SUM(provider_fee_kobo), 0) AS providerFeesKobo, COALESCE(SUM(tickets), 0) AS tickets
         FROM orders WHERE created_at >= ? AND created_at < ?${realOnly(scope)} GROUP BY state`,
      )
      .all(from, to) as OrderStateTotals[];
  }

  /** Paid orders created in [from, to), per show, by show date and time. */
  paidByShow(from: number, to: number, scope: RecordScope): ShowTotals[] {
    return this.db
      .prepare(
        `SELECT film_name AS filmName, film_title AS filmTitle, show_date AS showDate, show_time AS showTime, COUNT(*) AS orders,
                COALESCE(SUM(tickets), 0) AS seats, COALESCE(SUM(amount_kobo), 0) AS amountKobo
         FROM orders WHERE state = 'paid' AND created_at >= ? AND created_at < ?${realOnly(scope)}
         GROUP BY film_name, film_title, show_date, show_time ORDER BY show_date, show_time, film_name`,
      )
      .all(from, to) as ShowTotals[];
  }

  /** Orders created before `from` and paid in [from, to). Driven by the window's events (indexed by time), not by every older order. */
  paidLate(from: number, to: number, scope: RecordScope): { count: number; amountKobo: number } {
    return this.db
      .prepare(
        `SELECT COUNT(*) AS count, COALESCE(SUM(o.amount_kobo), 0) AS amountKobo FROM order_events e JOIN orders o ON o.id = e.order_id
         WHERE e.at >= ? AND e.at < ? AND e.to_state = 'paid' AND (e.from_state IS NULL OR e.from_state <> 'paid') AND o.created_at < ?${realOnly(scope, 'o.')}`,
      )
      .get(from, to, from) as { count: number; amountKobo: number };
  }

  /** Money the provider took after the counter closed the order, learnt in [from, to): counted in that window's takings. */
  paidAfterClosing(from: number, to: number, scope: RecordScope) {
    return new LateOutcomeStore(this.db).paidAfterClosing(from, to, scope);
  }

  /** Orders created before `to` still without an outcome, oldest first. */
  openOrders(to: number, limit: number, scope: RecordScope): OpenOrder[] {
    return this.db
      .prepare(
        `SELECT id, out_order_no AS outOrderNo, state, amount_kobo AS amountKobo, created_at AS createdAt, reason FROM orders
         WHERE state IN (${sqlList(OPEN_STATES)}) AND created_at < ?${realOnly(scope)} ORDER BY created_at LIMIT ?`,
      )
      .all(to, limit) as OpenOrder[];
  }
}
