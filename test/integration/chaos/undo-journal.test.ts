// The chaos run's cancel verdict as the run reads it (test/chaos/undo-journal.ts): a real SQLite
// journal written by the checkout with the chaos app's parts (baskets, seats, the outbox, the PIN),
// a cash sale with a seat cancelled and then sold again; the verdict counts zeros, and counts a
// refund lost and a seat sold after its cancel once the journal file is made to lose them.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { createCheckoutService, type CheckoutService } from '../../../core/orders/checkout-service';
import { createOutboxSink, HubOutbox } from '../../../core/hub-link';
import { createPinGuard } from '../../../core/settings/pin-guard';
import { hashPin } from '../../../core/settings/pin';
import { memoryStore } from '../../../core/settings/kv-store';
import type { BasketSaleInput } from '../../../shared/basket-sale';
import { chaosBasketSources, chaosSeatPlanner, modelSeatKobo } from '../../helpers/chaos-basket';
import { CHAOS_PIN } from '../../helpers/chaos-protocol';
import { FakePos } from '../../helpers/orders-fake-pos';
import { openTempDb } from '../../helpers/orders-db';
import { readUndoJournal } from '../../chaos/undo-journal';
import { undoLine, undoVerdict, type DriverCancel } from '../../chaos/undo-verdict';

const open: { svc: CheckoutService; cleanup: () => void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.svc.stop();
    o.cleanup();
  }
});

async function chaosCounter() {
  const t = openTempDb();
  const logger = memoryLogger();
  const pinHash = await hashPin(CHAOS_PIN);
  const guard = createPinGuard({ store: memoryStore(), clock: systemClock, logger, hash: () => pinHash });
  const svc = createCheckoutService({
    db: t.db,
    pos: new FakePos(),
    clock: systemClock,
    logger,
    settings: () => ({ counterName: 'Chaos 1', headMerchantId: 'H1', merchantId: 'M1', orderExpireSeconds: 30 }),
    basket: chaosBasketSources(t.db),
    journalSink: createOutboxSink(new HubOutbox(t.db), { logger }),
    seats: { planner: chaosSeatPlanner },
    undo: { checkPin: (pin) => guard.check(pin), shiftAt: () => ({ id: 1 }) },
  });
  open.push({ svc, cleanup: t.cleanup });
  return { svc, file: t.file };
}

const cashSale = (seats: [string, string][]): BasketSaleInput => ({
  tickets: {
    filmName: 'Anikulapo',
    filmTitle: 'Hall 3',
    showDate: '2025-03-31',
    showTime: '19:30',
    seats: seats.map(([seat, ticketType]) => ({ seat, ticketType })),
  },
  concessions: [],
  tender: { kind: 'cash', tenderedKobo: 1_000_000 },
});

describe('the chaos verdict of cancels on a real journal', () => {
  it('a seat cancelled and sold again counts zeros; losing the Hub event or the freed seat is counted', async () => {
    const { svc, file } = await chaosCounter();
    const first = cashSale([
      ['E7', 'Adult'],
      ['E8', 'Child'],
    ]);
    const a = await svc.sell(first);
    expect(a.state).toBe('paid');
    const r = await svc.undo.cancel({
      orderId: a.id,
      seats: ['E8'],
      reason: 'customer-request',
      approval: { pin: CHAOS_PIN },
      cashier: 'Chaos',
    });
    const b = await svc.sell(cashSale([['E8', 'Student']]));
    expect(b.state).toBe('paid');
    await svc.stop();
    const asked: DriverCancel[] = [
      {
        orderId: a.id,
        outOrderNo: a.outOrderNo,
        seats: ['E8'],
        expectedKobo: modelSeatKobo(first, 'E8'),
        refundNos: r.refunds.map((x) => x.refundNo),
      },
    ];
    const verdict = () => {
      const db = new Database(file, { readonly: true });
      try {
        return undoVerdict(readUndoJournal(db, 'Chaos 1'), asked);
      } finally {
        db.close();
      }
    };
    expect(asked[0]!.expectedKobo).toBe(210_000);
    expect(undoLine(verdict())).toBe('cancels=1 exchanges=0 refundLost=0 seatAfterCancelSold=0 cancelPartial=0');

    const rw = new Database(file);
    rw.prepare("DELETE FROM hub_outbox WHERE kind = 'order.cancelled'").run();
    rw.close();
    const noEvent = verdict();
    expect(noEvent.refundLost).toBe(1);
    expect(noEvent.cancelPartial).toBe(1);

    const rw2 = new Database(file);
    rw2.prepare('DELETE FROM order_cancelled_seats').run();
    rw2.close();
    // E8 is sold for the first sale again (its cancel acknowledged) and held by both paid sales.
    expect(verdict().seatAfterCancelSold).toBe(2);
  });
});
