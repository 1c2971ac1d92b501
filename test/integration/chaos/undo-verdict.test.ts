// The chaos run's cancel verdict (test/chaos/undo-verdict.ts) on hand-made journals: a refund owed
// that is lost (not in the journal, another amount than the seats' price, no 'order.cancelled'
// event), a seat still sold after its cancel or held by two paid sales, and a cancel written in part
// are each counted; a clean journal counts zeros.
import { describe, expect, it } from 'vitest';
import {
  undoLine,
  undoVerdict,
  type DriverCancel,
  type DriverExchange,
  type UndoJournal,
} from '../../chaos/undo-verdict';

/** Sale 1 (A) paid F7–F9 at 310,000 kobo a seat, F8 and F9 cancelled (R0001 card); sale 2 (B) paid F8 afterwards. */
function clean(): UndoJournal {
  return {
    sales: [
      { id: 1, outOrderNo: 'A', state: 'paid', showKey: 'S', seats: ['F7', 'F8', 'F9'], soldSeats: ['F7'] },
      { id: 2, outOrderNo: 'B', state: 'paid', showKey: 'S', seats: ['F8'], soldSeats: ['F8'] },
      { id: 3, outOrderNo: 'C', state: 'expired', showKey: 'S', seats: ['F7'], soldSeats: [] },
    ],
    undos: [{ id: 10, orderId: 1, amountKobo: 620_000 }],
    cancelledSeats: [
      { orderId: 1, seat: 'F8', undoId: 10 },
      { orderId: 1, seat: 'F9', undoId: 10 },
    ],
    refunds: [{ refundNo: 'R0001', undoId: 10, orderId: 1, tender: 'card', amountKobo: 620_000 }],
    events: [
      { reference: 'A', seats: ['F8', 'F9'], refunds: [{ refundNo: 'R0001', tender: 'card', amountKobo: 620_000 }] },
    ],
  };
}
const asked = (over: Partial<DriverCancel> = {}): DriverCancel => ({
  orderId: 1,
  outOrderNo: 'A',
  seats: ['F8', 'F9'],
  expectedKobo: 620_000,
  refundNos: ['R0001'],
  ...over,
});

describe('chaos verdict of cancels', () => {
  it('a clean journal: the acknowledged cancel owed at its price, told to the Hub, its seats sold again once', () => {
    const v = undoVerdict(clean(), [asked()]);
    expect(undoLine(v)).toBe('cancels=1 exchanges=0 refundLost=0 seatAfterCancelSold=0 cancelPartial=0');
    expect(v.problems).toEqual([]);
  });

  it('counts an acknowledged cancel whose refund is not in the journal as a refund lost', () => {
    const j = clean();
    j.undos = [];
    j.cancelledSeats = [];
    j.refunds = [];
    j.events = [];
    const v = undoVerdict(j, [asked()]);
    expect(v.refundLost).toBe(1);
    expect(v.problems.join('\n')).toMatch(
      /refund lost: the cancel of F8,F9 on A was acknowledged with R0001, the journal has 0/,
    );
  });

  it('counts a refund owed of another amount than the seats were priced as a refund lost', () => {
    const v = undoVerdict(clean(), [asked({ expectedKobo: 630_000 })]);
    expect(v.refundLost).toBe(1);
    expect(v.problems.join('\n')).toMatch(/owes 620000 kobo, its seats were priced 630000/);
  });

  it("counts a refund owed whose 'order.cancelled' event is missing as a refund lost (and the cancel as written in part)", () => {
    const j = clean();
    j.events = [];
    const v = undoVerdict(j, [asked()]);
    expect(v.refundLost).toBe(1);
    expect(v.cancelPartial).toBe(1);
  });

  it('counts a cancelled seat still counted as sold for its sale', () => {
    const j = clean();
    j.sales[0]!.soldSeats = ['F7', 'F9'];
    const v = undoVerdict(j, [asked()]);
    expect(v.seatAfterCancelSold).toBe(1);
    expect(v.problems.join('\n')).toMatch(/F9 of A was cancelled but is still counted as sold/);
  });

  it('counts a seat two paid sales hold (the cancel acknowledged but the seat never freed)', () => {
    const j = clean();
    // The journal lost F8's cancelled seat: sale A still holds it while sale B sold it again.
    j.cancelledSeats = [{ orderId: 1, seat: 'F9', undoId: 10 }];
    j.sales[0]!.soldSeats = ['F7', 'F8'];
    const v = undoVerdict(j, [asked()]);
    // F8 still sold for A though cancelled, and held by A and B.
    expect(v.seatAfterCancelSold).toBe(2);
    expect(v.problems.join('\n')).toMatch(/S F8 is held by 2 paid sales \(A, B\)/);
    // The undo's seats no longer match its event: written in part (the undo without its event, the event without its undo).
    expect(v.cancelPartial).toBe(2);
  });

  it('an expired sale does not hold its seats', () => {
    const j = clean();
    j.sales[2]!.state = 'paid';
    expect(undoVerdict(j, [asked()]).seatAfterCancelSold).toBe(1);
    j.sales[2]!.state = 'expired';
    expect(undoVerdict(j, [asked()]).seatAfterCancelSold).toBe(0);
  });

  it('a cancel unanswered because the app was killed: nothing written is fine, all of it is fine, a part is counted', () => {
    const unanswered = asked({ refundNos: undefined });
    // Nothing written: sale A keeps its three seats (and B was never sold).
    const nothing: UndoJournal = {
      ...clean(),
      sales: [{ ...clean().sales[0]!, soldSeats: ['F7', 'F8', 'F9'] }],
      undos: [],
      cancelledSeats: [],
      refunds: [],
      events: [],
    };
    expect(undoLine(undoVerdict(nothing, [unanswered]))).toBe(
      'cancels=0 exchanges=0 refundLost=0 seatAfterCancelSold=0 cancelPartial=0',
    );
    expect(undoLine(undoVerdict(clean(), [unanswered]))).toBe(
      'cancels=0 exchanges=0 refundLost=0 seatAfterCancelSold=0 cancelPartial=0',
    );
    // The undo and its seats without its refund and event.
    const part: UndoJournal = { ...clean(), refunds: [], events: [] };
    expect(undoVerdict(part, [unanswered]).cancelPartial).toBe(1);
    // The event without anything in the journal.
    const eventOnly: UndoJournal = { ...nothing, events: clean().events };
    expect(undoVerdict(eventOnly, [unanswered]).cancelPartial).toBe(1);
    // Committed at another amount than its seats' price.
    expect(undoVerdict(clean(), [asked({ refundNos: undefined, expectedKobo: 1 })]).refundLost).toBe(1);
  });

  describe('exchanges', () => {
    /** Sale 1 (A) paid F7–F9; F7 exchanged to G1 of another show (new sale 4, D, paid), 10,000 kobo back by card (R0002). */
    function exchanged(): UndoJournal {
      const j = clean();
      j.sales.push({ id: 4, outOrderNo: 'D', state: 'paid', showKey: 'T', seats: ['G1'], soldSeats: ['G1'] });
      j.sales[0]!.soldSeats = [];
      j.undos.push({ id: 11, orderId: 1, amountKobo: 10_000, kind: 'exchange', exchangeOrderId: 4 });
      j.cancelledSeats.push({ orderId: 1, seat: 'F7', undoId: 11 });
      j.refunds.push({ refundNo: 'R0002', undoId: 11, orderId: 1, tender: 'card', amountKobo: 10_000 });
      j.events.push({
        reference: 'A',
        kind: 'exchange',
        seats: ['F7'],
        refunds: [{ refundNo: 'R0002', tender: 'card', amountKobo: 10_000 }],
      });
      j.exchanges = [{ orderId: 4, fromOrderId: 1, seats: ['F7'], state: 'done' }];
      return j;
    }
    const x = (over: Partial<DriverExchange> = {}): DriverExchange => ({
      orderId: 1,
      outOrderNo: 'A',
      seats: ['F7'],
      newSeats: ['G1'],
      expectedRefundKobo: 10_000,
      answer: { newOrderId: 4, newState: 'paid', refundNos: ['R0002'] },
      ...over,
    });

    it('a clean exchange: the old seat moved, the refund owed as expected, the Hub told', () => {
      const v = undoVerdict(exchanged(), [asked()], [x()]);
      expect(undoLine(v)).toBe('cancels=1 exchanges=1 refundLost=0 seatAfterCancelSold=0 cancelPartial=0');
      expect(v.problems).toEqual([]);
    });

    it('counts an exchange whose refund owed differs from the credit above the new price as a refund lost', () => {
      expect(undoVerdict(exchanged(), [asked()], [x({ expectedRefundKobo: 0 })]).refundLost).toBe(1);
    });

    it('counts an exchange told paid whose old seats never moved, and a done exchange without its undo, as written in part', () => {
      const j = exchanged();
      j.undos = j.undos.filter((u) => u.id !== 11);
      j.cancelledSeats = j.cancelledSeats.filter((c) => c.undoId !== 11);
      j.refunds = j.refunds.filter((r) => r.undoId !== 11);
      j.events = j.events.filter((e) => e.kind !== 'exchange');
      j.sales[0]!.soldSeats = ['F7'];
      const v = undoVerdict(j, [asked()], [x()]);
      // The row says done without the undo; the driver was told paid; and F7 is still sold for A.
      expect(v.cancelPartial).toBe(2);
      expect(v.seatAfterCancelSold).toBe(1);
    });

    it('an exchange whose new sale failed moved nothing (fine); one that moved the seats anyway is counted', () => {
      const failed = exchanged();
      failed.sales[3]!.state = 'failed';
      failed.exchanges = [{ orderId: 4, fromOrderId: 1, seats: ['F7'], state: 'failed' }];
      failed.undos = failed.undos.filter((u) => u.id !== 11);
      failed.cancelledSeats = failed.cancelledSeats.filter((c) => c.undoId !== 11);
      failed.refunds = failed.refunds.filter((r) => r.undoId !== 11);
      failed.events = failed.events.filter((e) => e.kind !== 'exchange');
      failed.sales[0]!.soldSeats = ['F7'];
      const none = x({ answer: undefined });
      expect(undoLine(undoVerdict(failed, [asked()], [none]))).toBe(
        'cancels=1 exchanges=0 refundLost=0 seatAfterCancelSold=0 cancelPartial=0',
      );
      const moved = exchanged();
      moved.sales[3]!.state = 'failed';
      moved.exchanges = [{ orderId: 4, fromOrderId: 1, seats: ['F7'], state: 'failed' }];
      expect(undoVerdict(moved, [asked()], [none]).cancelPartial).toBe(2);
    });

    it('counts a new seat an exchange sold that another paid sale holds', () => {
      const j = exchanged();
      j.sales.push({ id: 5, outOrderNo: 'E', state: 'paid', showKey: 'T', seats: ['G1'], soldSeats: ['G1'] });
      expect(undoVerdict(j, [asked()], [x()]).seatAfterCancelSold).toBe(1);
    });
  });
});
