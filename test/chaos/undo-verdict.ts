// The chaos run's verdict on cancels after the sale (docs/refunds.md): the journal's undos, seats
// no longer valid, refunds owed and 'order.cancelled' events in the outbox, against the cancels the
// driver asked for and its own price of each seat (test/helpers/chaos-basket.ts). Pure, so the
// counting rules can be read (and checked) on their own.
import type { OrderState } from '../../shared/orders';

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
  undos: { id: number; orderId: number; amountKobo: number }[];
  /** order_cancelled_seats. */
  cancelledSeats: { orderId: number; seat: string; undoId: number }[];
  refunds: UndoRefund[];
  /** The payloads of the outbox's 'order.cancelled' events. */
  events: { reference: string; seats: string[]; refunds: { refundNo: string; tender: string; amountKobo: number }[] }[];
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

export interface UndoCounts {
  /** Cancels the driver was told of (acknowledged). */
  cancels: number;
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

export function undoVerdict(j: UndoJournal, driver: readonly DriverCancel[]): UndoVerdict {
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
    const event = eventsOf(outOf(u.orderId)).find((e) =>
      sameSet(
        e.refunds.map((x) => x.refundNo),
        nos,
      ),
    );
    const why =
      sum(refunds) !== u.amountKobo
        ? `its refunds add up to ${sum(refunds)} kobo of ${u.amountKobo}`
        : seats.length === 0
          ? 'it has no seats'
          : !event
            ? "it has no 'order.cancelled' event"
            : !sameSet(event.seats, seats)
              ? `its event names ${event.seats.join(',')}, the journal ${seats.join(',')}`
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
    if (!known || e.refunds.length === 0) {
      cancelPartial += 1;
      problems.push(
        `cancel partial: the event for ${e.reference} (${e.seats.join(',')}) has refunds the journal lacks`,
      );
    }
  }

  return {
    cancels: driver.filter((c) => c.refundNos).length,
    refundLost,
    seatAfterCancelSold,
    cancelPartial,
    problems,
  };
}

export function undoLine(c: UndoCounts): string {
  return `cancels=${c.cancels} refundLost=${c.refundLost} seatAfterCancelSold=${c.seatAfterCancelSold} cancelPartial=${c.cancelPartial}`;
}
