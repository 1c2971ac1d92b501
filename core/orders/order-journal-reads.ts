// The order journal's reads for other modules (a shift's totals, the orders still without an
// outcome, the refunds after the sale), so that nothing outside orders/ writes SQL against the
// journal's tables.
import type { OrderState } from '../../shared/orders';
import type { RecordScope } from '../../shared/record-profile';
import { ledger, type LedgerExchange, type LedgerLate, type LedgerRefund, type LedgerSale } from '../../shared/ledger';
import type { LateKind } from '../../shared/late-payments';
import type { Db } from '../db';
import { sqlList } from '../lib';
import { OPEN_STATES } from './order-state';
import { toRecord, type Row } from './order-record';
import { soldBasketOf } from '../../shared/basket-sale';

/** An order still waiting for an outcome. */
export interface OpenOrder {
  id: number;
  outOrderNo: string;
  state: OrderState;
  amountKobo: number;
  createdAt: number;
  reason: string | null;
}

const realOnly = (scope: RecordScope, alias = ''): string =>
  scope.excludeDemo ? ` AND ${alias}profile <> 'demo'` : '';

export class OrderJournalReads {
  constructor(private readonly db: Db) {}

  /** Money taken after closing, learnt in [from, to), as the ledger counts it (the chaos runs' check). */
  paidAfterClosing(from: number, to: number, scope: RecordScope) {
    return ledger(
      { sales: [], late: this.ledgerLate(from, to), topups: [] },
      { from, to, excludeDemo: scope.excludeDemo },
    ).paidAfterClosing;
  }

  /**
   * The sales the ledger needs for a window (shared/ledger.ts): those created in [from, to), those
   * created before `from` that first turned paid in it, and those created before `from` that the
   * provider paid after closing, learnt in it (their tickets count with the card total). Every profile: the ledger scopes them.
   */
  ledgerSales(from: number, to: number): LedgerSale[] {
    const paidAt = `(SELECT MIN(e.at) FROM order_events e WHERE e.order_id = o.id AND e.to_state = 'paid' AND (e.from_state IS NULL OR e.from_state <> 'paid'))`;
    // Whole rows: each is read as an order record (toRecord), so its basket comes the one way every reader gets it.
    const rows = this.db
      .prepare(
        `SELECT o.*, ${paidAt} AS ledger_paid_at FROM orders o WHERE o.created_at >= ? AND o.created_at < ?
         UNION ALL
         SELECT o.*, MIN(e.at) FROM order_events e JOIN orders o ON o.id = e.order_id
         WHERE e.at >= ? AND e.at < ? AND e.to_state = 'paid' AND (e.from_state IS NULL OR e.from_state <> 'paid') AND o.created_at < ?
         GROUP BY o.id
         UNION ALL
         SELECT o.*, NULL FROM order_late l JOIN orders o ON o.id = l.order_id
         WHERE l.found_at >= ? AND l.found_at < ? AND l.kind = 'paid-after-closing' AND o.created_at < ? AND o.state <> 'paid'`,
      )
      .all(from, to, from, to, from, from, to, from) as Row[];
    return rows.map((row) => {
      const rec = toRecord(row);
      return {
        ref: rec.outOrderNo,
        createdAt: rec.createdAt,
        state: rec.state,
        amountKobo: rec.amountKobo,
        tickets: rec.sale.tickets,
        bookingFeeKobo: rec.sale.bookingFeeKobo,
        providerFeeKobo: rec.providerFeeKobo ?? 0,
        paidAt: (row.ledger_paid_at as number | null) ?? null,
        demo: rec.profile === 'demo',
        show: {
          filmName: rec.sale.filmName,
          filmTitle: rec.sale.filmTitle,
          showDate: rec.sale.showDate,
          showTime: rec.sale.showTime,
        },
        // Every sale as a basket (a sale before baskets: one Ticket line by card, its amounts).
        basket: soldBasketOf(rec),
      };
    });
  }

  /** Late outcomes the counter learnt in [from, to), for the ledger. */
  ledgerLate(from: number, to: number): LedgerLate[] {
    const rows = this.db
      .prepare(
        `SELECT o.out_order_no AS ref, l.kind, l.closed_as AS closedAs, l.amount_kobo AS amountKobo, l.pay_no AS payNo, l.provider_at AS providerAt,
                l.found_at AS foundAt, l.handled_how AS how, o.profile
         FROM order_late l JOIN orders o ON o.id = l.order_id WHERE l.found_at >= ? AND l.found_at < ? ORDER BY l.found_at`,
      )
      .all(from, to) as {
      ref: string;
      kind: LateKind;
      closedAs: string;
      amountKobo: number;
      payNo: string | null;
      providerAt: number | null;
      foundAt: number;
      how: string | null;
      profile: string;
    }[];
    return rows.map((r) => ({
      ref: r.ref,
      kind: r.kind,
      closedAs: r.closedAs,
      amountKobo: r.amountKobo,
      foundAt: r.foundAt,
      refund: r.how === 'refund',
      demo: r.profile === 'demo',
      ...(r.payNo ? { payNo: r.payNo } : {}),
      ...(typeof r.providerAt === 'number' ? { providerAt: r.providerAt } : {}),
    }));
  }

  /**
   * The refunds after the sale the ledger needs for a window (shared/ledger-refunds.ts): made in
   * [from, to), returned in it, or still owed at `to` (whenever made). Every profile: the ledger scopes them.
   */
  ledgerRefunds(from: number, to: number): LedgerRefund[] {
    const rows = this.db
      .prepare(
        `SELECT r.refund_no AS refundNo, o.out_order_no AS ref, r.tender, r.amount_kobo AS amountKobo, r.at,
                r.returned_at AS returnedAt, o.profile
         FROM order_refunds r JOIN orders o ON o.id = r.order_id
         WHERE (r.at >= ? AND r.at < ?) OR (r.returned_at >= ? AND r.returned_at < ?)
            OR (r.at < ? AND (r.returned_at IS NULL OR r.returned_at >= ?))
         ORDER BY r.at, r.id`,
      )
      .all(from, to, from, to, to, to) as (Omit<LedgerRefund, 'demo'> & { profile: string })[];
    return rows.map(({ profile, ...r }) => ({ ...r, demo: profile === 'demo' }));
  }

  /**
   * The exchanges done in [from, to) (order_exchanges, state done, at their completion), the new
   * sale and the old one by their numbers (shared/ledger-exchanges.ts). Every profile: the ledger scopes them.
   */
  ledgerExchanges(from: number, to: number): LedgerExchange[] {
    const rows = this.db
      .prepare(
        `SELECT n.out_order_no AS ref, o.out_order_no AS fromRef, x.credit_kobo AS creditKobo, x.settled_at AS at, n.profile
         FROM order_exchanges x JOIN orders n ON n.id = x.order_id JOIN orders o ON o.id = x.from_order_id
         WHERE x.state = 'done' AND x.settled_at >= ? AND x.settled_at < ?
         ORDER BY x.settled_at, x.order_id`,
      )
      .all(from, to) as (Omit<LedgerExchange, 'demo'> & { profile: string })[];
    return rows.map(({ profile, ...x }) => ({ ...x, demo: profile === 'demo' }));
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

  /** The orders created in [from, to] (ms), newest first, at most `limit`: the complaint desk's candidates (core/cases). */
  createdBetween(from: number, to: number, limit: number): number[] {
    const rows = this.db
      .prepare(
        'SELECT id FROM orders WHERE created_at >= ? AND created_at <= ? ORDER BY created_at DESC, id DESC LIMIT ?',
      )
      .all(from, to, limit) as { id: number }[];
    return rows.map((r) => r.id);
  }
}
