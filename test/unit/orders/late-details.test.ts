// A payment taken after closing that the counter learnt from a notification (which carries no
// payment number) is completed by one status query: its payment number, the provider's time and the
// card then show on the order (the alert, the panel, the detail, the receipt) and go to the Hub as
// `order.late` again with the full facts. Only the same sale, still paid, fills it; once.
import { afterEach, describe, expect, it } from 'vitest';
import type { PosOrderDetails } from '../../../core/provider';
import { LateOutcomeStore } from '../../../core/orders/late-outcomes';
import { OrderJournal } from '../../../core/orders/order-journal';
import type { JournalSink } from '../../../core/journal-sink';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';

let h: CheckoutHarness;
afterEach(async () => h?.close());

/** What a notification says: everything but the payment number. */
const asNotified = (d: PosOrderDetails): PosOrderDetails => {
  const { payNo: _p, ...rest } = d;
  return rest;
};

async function expiredThenPaid() {
  h = checkoutHarness();
  const v = await h.sell();
  await h.until(v.id, 'waiting');
  h.pos.settle(v.outOrderNo, 'CLOSE');
  await h.until(v.id, 'expired');
  return { v, details: h.pos.settle(v.outOrderNo, 'SUCCESS') };
}

describe('the payment number of a payment after closing', () => {
  it('a notification without it: the order asks the provider once and shows it, with a history note', async () => {
    const { v, details } = await expiredThenPaid();
    expect(details.payNo).toBeTruthy();
    const lates: number[] = [];
    h.svc.on('late', (e) => lates.push(e.orderId));
    const after = h.svc.onWebhook(asNotified(details))!;
    expect(after.late).toMatchObject({ kind: 'paid-after-closing', source: 'webhook' });
    expect(after.late!.payNo).toBeUndefined();
    await h.time.until(() => h.svc.get(v.id)?.late?.payNo !== undefined);
    expect(h.svc.get(v.id)!.late).toMatchObject({ payNo: details.payNo, source: 'webhook', handled: null });
    expect(lates).toEqual([v.id, v.id]);
    expect(h.svc.history(v.id).at(-1)!.note).toBe(
      `Paid after closing: payment number ${details.payNo}, asked of the provider`,
    );
    // It stays one late outcome: the same notification again changes nothing.
    h.svc.onWebhook(asNotified(details));
    expect(h.svc.history(v.id).filter((e) => e.from === e.to)).toHaveLength(2);
  });

  it('the store fills it once, from the same sale still paid, and sends order.late again with the full facts', async () => {
    const { v, details } = await expiredThenPaid();
    const sent: { kind: string; payload: Record<string, unknown> }[] = [];
    const sink: JournalSink = {
      append: (kind, payload) => void sent.push({ kind, payload: payload as Record<string, unknown> }),
    };
    const store = new LateOutcomeStore(h.db, sink);
    const journal = new OrderJournal(h.db, () => 0);
    const rec = () => journal.get(v.id)!;
    expect(store.record(rec(), asNotified(details), 'relay', 1_000)).toMatchObject({ source: 'relay' });
    expect(store.missingPayNo()).toEqual([v.id]);
    // Not this sale (a kobo off), or no longer paid: nothing changes.
    expect(store.fillDetails(rec(), { ...details, amountKobo: details.amountKobo + 1 }, 2_000)).toBeNull();
    expect(store.fillDetails(rec(), { ...details, status: 'CLOSE' }, 2_000)).toBeNull();
    expect(store.fillDetails(rec(), asNotified(details), 2_000)).toBeNull();
    expect(store.fillDetails(rec(), details, 3_000)).toMatchObject({ payNo: details.payNo, source: 'relay' });
    expect(store.fillDetails(rec(), { ...details, payNo: 'OTHER' }, 4_000)).toBeNull();
    expect(store.get(v.id)!.payNo).toBe(details.payNo);
    expect(store.missingPayNo()).toEqual([]);
    expect(sent.map((e) => [e.kind, e.payload.reference, e.payload.payNo])).toEqual([
      ['order.late', v.outOrderNo, undefined],
      ['order.late', v.outOrderNo, details.payNo],
    ]);
    expect(sent[1]!.payload).toMatchObject({
      kind: 'paid-after-closing',
      closedAs: 'expired',
      amountKobo: details.amountKobo,
      source: 'relay',
    });
  });
});
