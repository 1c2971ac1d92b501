// The chaos run's verdict on cancels and exchanges after the sale (docs/refunds.md): the journal's
// undos, seats no longer valid, exchanges, refunds owed and 'order.cancelled' events in the outbox,
// against the cancels and exchanges the driver asked for and its own price of each seat
// (test/helpers/chaos-basket.ts). Pure, so the
// counting rules can be read (and checked) on their own.
import { isFinalState, type OrderState } from '../../shared/orders';

/** A sale with seats as the journal recorded it. */
export interface UndoSale {
  id: number;
  outOrderNo: string;
  state: OrderState;
  showKey: string;
  /** The seats recorded with the sale (order_seat_holds). */
  seats: string[];
  /** The seats the engine's own reading counts as sold for this sale (what the seat map shows). */
  soldSeats: string[];
}

export interface UndoRefund {
  refundNo: string;
  undoId: number;
  orderId: number;
  tender: 'cash' | 'card';
  amountKobo: number;
}

/** What the journal holds after the run. */
export interface UndoJournal {
  sales: UndoSale[];
  undos: {
    id: number;
    orderId: number;
    amountKobo: number;
    kind?: 'cancel' | 'exchange';
    exchangeOrderId?: number | null;
  }[];
  /** order_exchanges: each exchange's new sale, the sale it replaces, the moved seats, how it went. */
  exchanges?: { orderId: number; fromOrderId: number; seats: string[]; state: 'waiting' | 'done' | 'failed' }[];
  /** order_cancelled_seats. */
  cancelledSeats: { orderId: number; seat: string; undoId: number }[];
  refunds: UndoRefund[];
  /** The payloads of the outbox's 'order.cancelled' events. */
  events: {
    reference: string;
    kind?: 'cancel' | 'exchange';
    seats: string[];
    refunds: { refundNo: string; tender: string; amountKobo: number }[];
  }[];
}

/** A cancel the driver asked for: what it owes back by the driver's price of the seats. */
export interface DriverCancel {
  orderId: number;
  outOrderNo: string;
  seats: string[];
  expectedKobo: number;
  /** Answered `cancelled` with these refund numbers; absent: the app died before answering. */
  refundNos?: string[];
}

/** An exchange the driver asked for: the refund owed it expects (the credit above the new seats' price, else 0). */
export interface DriverExchange {
  orderId: number;
  outOrderNo: string;
  seats: string[];
  newSeats: string[];
  expectedRefundKobo: number;
  /** The app's answer; absent: it died first (or refused). */
  answer?: { newOrderId: number; newState: OrderState; refundNos: string[] };
}

export interface UndoCounts {
  /** Cancels the driver was told of (acknowledged). */
  cancels: number;
  /** Exchanges the driver was told were made (their new sale paid). */
  exchanges: number;
  /** Refunds owed lost: an acknowledged cancel whose refunds are missing or differ from the seats' price, a refund owed without its 'order.cancelled' event. Must be 0. */
  refundLost: number;
  /** A cancelled seat still counted as sold for its sale, or a seat of a show held by two paid sales. Must be 0. */
  seatAfterCancelSold: number;
  /** Cancels written in part (an undo whose refunds, seats or event do not add up, an event with no undo). Must be 0. */
  cancelPartial: number;
}

export interface UndoVerdict extends UndoCounts {
  problems: string[];
}

const sum = (xs: readonly { amountKobo: number }[]) => xs.reduce((n, x) => n + x.amountKobo, 0);
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;

export function undoVerdict(
  j: UndoJournal,
  driver: readonly DriverCancel[],
  exchanges: readonly DriverExchange[] = [],
): UndoVerdict {
  const problems: string[] = [];
  const saleById = new Map(j.sales.map((s) => [s.id, s]));
  const refundByNo = new Map(j.refunds.map((r) => [r.refundNo, r]));
  const eventsOf = (reference: string) => j.events.filter((e) => e.reference === reference);
  const outOf = (orderId: number) => saleById.get(orderId)?.outOrderNo ?? `order ${orderId}`;

  // ---- refunds owed lost ----
  let refundLost = 0;
  for (const c of driver) {
    if (c.refundNos) {
      const found = c.refundNos.map((no) => refundByNo.get(no)).filter((r) => r?.orderId === c.orderId);
      if (found.length !== c.refundNos.length || c.refundNos.length === 0) {
        refundLost += 1;
        problems.push(
          `refund lost: the cancel of ${c.seats.join(',')} on ${c.outOrderNo} was acknowledged with ${c.refundNos.join(',') || 'no refunds'}, the journal has ${found.length} of them`,
        );
      } else if (sum(found as UndoRefund[]) !== c.expectedKobo) {
        refundLost += 1;
        problems.push(
          `refund lost: the cancel of ${c.seats.join(',')} on ${c.outOrderNo} owes ${sum(found as UndoRefund[])} kobo, its seats were priced ${c.expectedKobo}`,
        );
      }
    } else {
      // Unanswered (killed): if it committed, it owes what its seats were priced.
      const undoIds = new Set(
        j.cancelledSeats.filter((s) => s.orderId === c.orderId && c.seats.includes(s.seat)).map((s) => s.undoId),
      );
      for (const id of undoIds) {
        const u = j.undos.find((x) => x.id === id);
        const seats = j.cancelledSeats.filter((s) => s.undoId === id).map((s) => s.seat);
        if (u && sameSet(seats, c.seats) && u.amountKobo !== c.expectedKobo) {
          refundLost += 1;
          problems.push(
            `refund lost: the unanswered cancel of ${c.seats.join(',')} on ${c.outOrderNo} committed ${u.amountKobo} kobo, its seats were priced ${c.expectedKobo}`,
          );
        }
      }
    }
  }
  const made = exchanges.filter((x) => x.answer?.newState === 'paid');
  for (const x of exchanges) {
    // Made (paid) or cut by a kill: when its old seats moved, the refund owed is what the driver expects.
    const rows = (j.exchanges ?? []).filter(
      (r) => r.fromOrderId === x.orderId && (x.answer ? r.orderId === x.answer.newOrderId : sameSet(r.seats, x.seats)),
    );
    for (const row of rows) {
      const u = j.undos.find((v) => v.kind === 'exchange' && v.exchangeOrderId === row.orderId);
      if (!u) continue;
      const owed = sum(j.refunds.filter((r) => r.undoId === u.id));
      const listed = x.answer?.refundNos ?? [];
      if (owed !== x.expectedRefundKobo || listed.some((no) => refundByNo.get(no)?.undoId !== u.id)) {
        refundLost += 1;
        problems.push(
          `refund lost: the exchange of ${x.seats.join(',')} on ${x.outOrderNo} owes ${owed} kobo back, the driver ${x.expectedRefundKobo} (told ${listed.join(',') || 'none'})`,
        );
      }
    }
  }
  for (const r of j.refunds) {
    const told = eventsOf(outOf(r.orderId)).some((e) =>
      e.refunds.some((x) => x.refundNo === r.refundNo && x.tender === r.tender && x.amountKobo === r.amountKobo),
    );
    if (!told) {
      refundLost += 1;
      problems.push(
        `refund lost: ${r.refundNo} (${r.tender} ${r.amountKobo} kobo on ${outOf(r.orderId)}) has no 'order.cancelled' event`,
      );
    }
  }

  // ---- a seat sold after its cancel ----
  let seatAfterCancelSold = 0;
  for (const s of j.sales) {
    const cancelled = new Set([
      ...driver.filter((c) => c.orderId === s.id && c.refundNos).flatMap((c) => c.seats),
      ...made.filter((x) => x.orderId === s.id).flatMap((x) => x.seats),
      ...eventsOf(s.outOrderNo).flatMap((e) => e.seats),
      ...j.cancelledSeats.filter((c) => c.orderId === s.id).map((c) => c.seat),
    ]);
    for (const seat of s.soldSeats)
      if (cancelled.has(seat)) {
        seatAfterCancelSold += 1;
        problems.push(
          `seat after cancel: ${seat} of ${s.outOrderNo} was cancelled but is still counted as sold for it`,
        );
      }
  }
  const holders = new Map<string, string[]>();
  for (const s of j.sales) {
    if (s.state !== 'paid') continue;
    const gone = new Set(j.cancelledSeats.filter((c) => c.orderId === s.id).map((c) => c.seat));
    for (const seat of s.seats) {
      if (gone.has(seat)) continue;
      const key = `${s.showKey} ${seat}`;
      holders.set(key, [...(holders.get(key) ?? []), s.outOrderNo]);
    }
  }
  for (const [key, outs] of holders)
    if (outs.length > 1) {
      seatAfterCancelSold += outs.length - 1;
      problems.push(`seat after cancel: ${key} is held by ${outs.length} paid sales (${outs.join(', ')})`);
    }

  // ---- all or nothing ----
  let cancelPartial = 0;
  const undoIds = new Set(j.undos.map((u) => u.id));
  for (const u of j.undos) {
    const refunds = j.refunds.filter((r) => r.undoId === u.id);
    const seats = j.cancelledSeats.filter((s) => s.undoId === u.id).map((s) => s.seat);
    const nos = refunds.map((r) => r.refundNo);
    const event = eventsOf(outOf(u.orderId)).find(
      (e) =>
        sameSet(
          e.refunds.map((x) => x.refundNo),
          nos,
        ) && sameSet(e.seats, seats),
    );
    const exchangeRow =
      u.kind === 'exchange' ? (j.exchanges ?? []).find((r) => r.orderId === u.exchangeOrderId) : undefined;
    const why =
      sum(refunds) !== u.amountKobo
        ? `its refunds add up to ${sum(refunds)} kobo of ${u.amountKobo}`
        : seats.length === 0
          ? 'it has no seats'
          : !event
            ? "it has no 'order.cancelled' event naming its seats and refunds"
            : u.kind === 'exchange' &&
                (exchangeRow?.state !== 'done' || saleById.get(exchangeRow.orderId)?.state !== 'paid')
              ? `it is an exchange whose new sale is not a done exchange paid`
              : null;
    if (why) {
      cancelPartial += 1;
      problems.push(`cancel partial: undo ${u.id} on ${outOf(u.orderId)}: ${why}`);
    }
  }
  for (const s of j.cancelledSeats)
    if (!undoIds.has(s.undoId)) {
      cancelPartial += 1;
      problems.push(`cancel partial: ${s.seat} of ${outOf(s.orderId)} is cancelled by no undo`);
    }
  for (const e of j.events) {
    const known = e.refunds.every((x) => refundByNo.get(x.refundNo)?.amountKobo === x.amountKobo);
    const undone = j.undos.some(
      (u) =>
        outOf(u.orderId) === e.reference &&
        sameSet(
          j.cancelledSeats.filter((c) => c.undoId === u.id).map((c) => c.seat),
          e.seats,
        ),
    );
    if (!known || !undone || (e.refunds.length === 0 && e.kind !== 'exchange')) {
      cancelPartial += 1;
      problems.push(
        `cancel partial: the event for ${e.reference} (${e.seats.join(',')}) has refunds the journal lacks`,
      );
    }
  }

  for (const r of j.exchanges ?? []) {
    const done = j.undos.some((u) => u.kind === 'exchange' && u.exchangeOrderId === r.orderId);
    const state = saleById.get(r.orderId)?.state;
    const why =
      r.state === 'done' && !done
        ? 'done, but the old seats were not moved'
        : r.state !== 'done' && done
          ? `${r.state}, but the old seats were moved`
          : r.state === 'done' && state !== 'paid'
            ? `done, but its new sale is ${state ?? 'missing'}`
            : r.state === 'waiting' && state && isFinalState(state)
              ? `still waiting while its new sale is ${state}`
              : null;
    if (why) {
      cancelPartial += 1;
      problems.push(`cancel partial: the exchange of ${r.seats.join(',')} on ${outOf(r.fromOrderId)}: ${why}`);
    }
  }
  for (const x of made)
    if (!j.undos.some((u) => u.kind === 'exchange' && u.exchangeOrderId === x.answer!.newOrderId)) {
      cancelPartial += 1;
      problems.push(
        `cancel partial: the exchange of ${x.seats.join(',')} on ${x.outOrderNo} was told paid, its old seats never moved`,
      );
    }

  return {
    cancels: driver.filter((c) => c.refundNos).length,
    exchanges: made.length,
    refundLost,
    seatAfterCancelSold,
    cancelPartial,
    problems,
  };
}

export function undoLine(c: UndoCounts): string {
  return `cancels=${c.cancels} exchanges=${c.exchanges} refundLost=${c.refundLost} seatAfterCancelSold=${c.seatAfterCancelSold} cancelPartial=${c.cancelPartial}`;
}
