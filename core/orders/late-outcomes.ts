// The provider's late outcomes of closed orders (docs/late-payments.md): a payment taken after the
// counter closed the order as failed, cancelled or expired, or a paid order the provider later
// reports otherwise. Recorded beside the order (table order_late), never by changing its final
// state; each record and its handling is an order event in the journal and goes to the Hub's outbox
// (`order.late`, `order.late.handled`) in the same transaction.
import type { Db } from '../db';
import { clipText, NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import type {
  HandledHow,
  LateItem,
  LateKind,
  LateOutcome,
  LateSource,
  MarkLateHandled,
} from '../../shared/late-payments';
import { HANDLED_HOW_LABELS } from '../../shared/late-payments';
import { formatNaira } from '../../shared/money';
import type { OrderState } from '../../shared/orders';
import { AppError } from '../../shared/errors';
import type { PosOrderDetails } from '../provider';
import type { OrderRecord } from './order-journal';
import { stateForProviderStatus } from './order-state';
import { detailsMismatch, maskAccount } from './sale-wire';

type Row = Record<string, unknown>;

/** States an order is closed in without payment: a SUCCESS for one of them is money taken after closing. */
export const CLOSED_UNPAID: readonly OrderState[] = ['failed', 'cancelled', 'expired'];

/**
 * What the provider's report means for a closed order: a late outcome to record, or null (the
 * order is open, the report agrees with it, says nothing final, or is not about this sale — amount,
 * terminal and number checked to the kobo).
 */
function lateKindOf(rec: OrderRecord, d: PosOrderDetails): LateKind | null {
  if (detailsMismatch(rec, d)) return null;
  const said = stateForProviderStatus(String(d.status ?? ''));
  if (said === 'paid' && CLOSED_UNPAID.includes(rec.state)) return 'paid-after-closing';
  if (rec.state === 'paid' && said !== null && said !== 'paid' && said !== 'waiting') return 'reported-otherwise';
  return null;
}

function toLate(r: Row): LateOutcome {
  const late: LateOutcome = {
    kind: r.kind as LateKind,
    providerStatus: r.provider_status as string,
    closedAs: r.closed_as as string,
    amountKobo: r.amount_kobo as number,
    foundAt: r.found_at as number,
    source: r.source as LateSource,
    handled:
      r.handled_at === null || r.handled_at === undefined
        ? null
        : {
            how: r.handled_how as HandledHow,
            by: r.handled_by as string,
            at: r.handled_at as number,
            ...(r.handled_note ? { note: r.handled_note as string } : {}),
          },
  };
  if (r.pay_no) late.payNo = r.pay_no as string;
  if (r.sender_account) late.senderAccount = r.sender_account as string;
  if (typeof r.provider_at === 'number') late.providerAt = r.provider_at;
  return late;
}

export class LateOutcomeStore {
  constructor(
    private readonly db: Db,
    private readonly sink: JournalSink = NO_JOURNAL_SINK,
  ) {}

  get(orderId: number): LateOutcome | null {
    const r = this.db.prepare('SELECT * FROM order_late WHERE order_id = ?').get(orderId) as Row | undefined;
    return r ? toLate(r) : null;
  }

  /**
   * Records the provider's late outcome of a closed order, once (the first word is kept; a repeat
   * of it changes nothing). Returns the record when it is new.
   */
  record(rec: OrderRecord, d: PosOrderDetails, source: LateSource, at: number): LateOutcome | null {
    const kind = lateKindOf(rec, d);
    if (!kind) return null;
    const tx = this.db.transaction((): LateOutcome | null => {
      if (this.get(rec.id)) return null;
      const account =
        typeof d.senderAccount === 'string' && d.senderAccount.trim() !== '' ? maskAccount(d.senderAccount) : null;
      const payNo = typeof d.payNo === 'string' && d.payNo.trim() !== '' ? d.payNo.trim() : null;
      const providerAt = typeof d.completedTime === 'number' && d.completedTime > 0 ? d.completedTime : null;
      this.db
        .prepare(
          `INSERT INTO order_late (order_id, kind, provider_status, closed_as, amount_kobo, pay_no, sender_account, provider_at, found_at, source)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(rec.id, kind, String(d.status), rec.state, rec.amountKobo, payNo, account, providerAt, at, source);
      const note =
        kind === 'paid-after-closing'
          ? `Paid after closing: the provider reports ${String(d.status)} for ${formatNaira(rec.amountKobo)}${payNo ? ` (payment ${payNo})` : ''}, by ${source}`
          : `Reported otherwise: the provider now reports ${String(d.status)} for this paid order, by ${source}`;
      this.event(rec.id, at, rec.state, note);
      this.sink.append(
        'order.late',
        {
          reference: rec.outOrderNo,
          ...(rec.orderNo ? { orderNo: clipText(rec.orderNo, 64) } : {}),
          kind,
          closedAs: rec.state,
          providerStatus: clipText(String(d.status), 32),
          amountKobo: rec.amountKobo,
          ...(payNo ? { payNo: clipText(payNo, 64) } : {}),
          ...(providerAt ? { providerAt } : {}),
          source,
        },
        at,
      );
      return this.get(rec.id);
    });
    return tx.immediate();
  }

  /**
   * Completes a payment after closing recorded without its payment number (a notification carries
   * none): from the provider's answer about the same sale, still paid, the payment number and
   * what else is missing. Journaled, and sent to the Hub as `order.late` again with the full facts
   * (the Hub keeps one per sale and fills what its first one lacked). Returns the record when it changed.
   */
  fillDetails(rec: OrderRecord, d: PosOrderDetails, at: number): LateOutcome | null {
    const payNo = typeof d.payNo === 'string' && d.payNo.trim() !== '' ? d.payNo.trim() : null;
    if (!payNo || lateKindOf(rec, d) !== 'paid-after-closing') return null;
    const tx = this.db.transaction((): LateOutcome | null => {
      const cur = this.get(rec.id);
      if (!cur || cur.kind !== 'paid-after-closing' || cur.payNo !== undefined) return null;
      const account =
        cur.senderAccount ??
        (typeof d.senderAccount === 'string' && d.senderAccount.trim() !== '' ? maskAccount(d.senderAccount) : null);
      const providerAt =
        cur.providerAt ?? (typeof d.completedTime === 'number' && d.completedTime > 0 ? d.completedTime : null);
      this.db
        .prepare('UPDATE order_late SET pay_no = ?, sender_account = ?, provider_at = ? WHERE order_id = ?')
        .run(payNo, account, providerAt, rec.id);
      this.event(rec.id, at, rec.state, `Paid after closing: payment number ${payNo}, asked of the provider`);
      this.sink.append(
        'order.late',
        {
          reference: rec.outOrderNo,
          ...(rec.orderNo ? { orderNo: clipText(rec.orderNo, 64) } : {}),
          kind: cur.kind,
          closedAs: rec.state,
          providerStatus: clipText(cur.providerStatus, 32),
          amountKobo: cur.amountKobo,
          payNo: clipText(payNo, 64),
          ...(providerAt ? { providerAt } : {}),
          source: cur.source,
        },
        at,
      );
      return this.get(rec.id);
    });
    return tx.immediate();
  }

  /** Orders whose payment after closing has no payment number yet (completed after a restart). */
  missingPayNo(limit = 100): number[] {
    return (
      this.db
        .prepare(
          "SELECT order_id FROM order_late WHERE kind = 'paid-after-closing' AND pay_no IS NULL ORDER BY found_at LIMIT ?",
        )
        .all(limit) as { order_id: number }[]
    ).map((r) => r.order_id);
  }

  /** Marks an order's late outcome handled (once): how, by whom, with an optional note. */
  markHandled(rec: OrderRecord, h: Omit<MarkLateHandled, 'id'>, at: number): LateOutcome {
    const tx = this.db.transaction((): LateOutcome => {
      const cur = this.get(rec.id);
      if (!cur)
        throw new AppError('NOT_FOUND', 'This order has no payment after closing to mark as handled.', { id: rec.id });
      if (cur.handled)
        throw new AppError('CONFLICT', `This was marked handled already by ${cur.handled.by}.`, { id: rec.id });
      this.db
        .prepare(
          'UPDATE order_late SET handled_how = ?, handled_by = ?, handled_at = ?, handled_note = ? WHERE order_id = ?',
        )
        .run(h.how, h.by, at, h.note ?? null, rec.id);
      this.event(
        rec.id,
        at,
        rec.state,
        `Handled: ${HANDLED_HOW_LABELS[h.how]} (by ${h.by})${h.note ? `: ${h.note}` : ''}`,
      );
      this.sink.append(
        'order.late.handled',
        {
          reference: rec.outOrderNo,
          how: h.how,
          by: clipText(h.by, 80),
          ...(h.note ? { note: clipText(h.note, 200) } : {}),
        },
        at,
      );
      return this.get(rec.id)!;
    });
    return tx.immediate();
  }

  /** Unhandled late outcomes, oldest first, then the `recent` last handled ones. */
  list(recentHandled = 20): { unhandled: number; items: LateItem[] } {
    const sel = (where: string, order: string, limit: number) =>
      (
        this.db
          .prepare(
            `SELECT l.*, o.out_order_no, o.film_title FROM order_late l JOIN orders o ON o.id = l.order_id WHERE ${where} ORDER BY ${order} LIMIT ?`,
          )
          .all(limit) as Row[]
      ).map((r): LateItem => ({
        orderId: r.order_id as number,
        outOrderNo: r.out_order_no as string,
        filmTitle: r.film_title as string,
        late: toLate(r),
      }));
    const open = sel('l.handled_at IS NULL', 'l.found_at', 500);
    return {
      unhandled: this.unhandledCount(),
      items: [...open, ...sel('l.handled_at IS NOT NULL', 'l.handled_at DESC', recentHandled)],
    };
  }

  unhandledCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM order_late WHERE handled_at IS NULL').get() as { n: number }).n;
  }

  /** Closed, not-paid orders created in [from, to) with no late outcome yet: what the sweep asks about again. */
  sweepCandidates(from: number, to: number, limit: number): number[] {
    return (
      this.db
        .prepare(
          `SELECT o.id FROM orders o LEFT JOIN order_late l ON l.order_id = o.id
         WHERE o.created_at >= ? AND o.created_at < ? AND o.state IN ('failed', 'cancelled', 'expired') AND o.order_no IS NOT NULL AND l.order_id IS NULL
         ORDER BY o.created_at LIMIT ?`,
        )
        .all(from, to, limit) as { id: number }[]
    ).map((r) => r.id);
  }

  private event(orderId: number, at: number, state: OrderState, note: string): void {
    // An event of the order that does not move it: from and to are its (final) state.
    this.db
      .prepare('INSERT INTO order_events (order_id, at, from_state, to_state, note) VALUES (?, ?, ?, ?, ?)')
      .run(orderId, at, state, state, clipText(note, 400));
  }
}
