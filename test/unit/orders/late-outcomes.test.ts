// A provider outcome that contradicts a closed order is recorded on it, never dropped: a payment
// taken after the order was closed as expired, cancelled or failed; a paid order reported otherwise
// later. The order's final state stays; the late outcome, its event and its handling sit beside it.
import { afterEach, describe, expect, it } from 'vitest';
import { lateOutcomeText } from '../../../shared/late-payments';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';
import { OrderTextIndex, searchOrders } from '../../../core/orders';

let h: CheckoutHarness;
afterEach(async () => h?.close());

async function closed(status: 'CLOSE' | 'CANCEL' | 'FAIL', state: 'expired' | 'cancelled' | 'failed') {
  h = checkoutHarness();
  const lates: number[] = [];
  h.svc.on('late', (e) => lates.push(e.orderId));
  const v = await h.sell();
  await h.until(v.id, 'waiting');
  h.pos.settle(v.outOrderNo, status);
  await h.until(v.id, state);
  return { v, lates };
}

describe('paid after closing', () => {
  it.each([
    ['CLOSE', 'expired'],
    ['CANCEL', 'cancelled'],
    ['FAIL', 'failed'],
  ] as const)(
    'a SUCCESS webhook after %s: the order stays %s and carries the payment, with its event',
    async (status, state) => {
      const { v, lates } = await closed(status, state);
      const details = h.pos.settle(v.outOrderNo, 'SUCCESS');
      const after = h.svc.onWebhook(details)!;
      expect(after.state).toBe(state);
      expect(after.late).toMatchObject({
        kind: 'paid-after-closing',
        providerStatus: 'SUCCESS',
        closedAs: state,
        amountKobo: 710_000,
        payNo: details.payNo,
        senderAccount: '******6789',
        source: 'webhook',
        handled: null,
      });
      expect(lates).toEqual([v.id]);
      expect(h.svc.history(v.id).at(-1)).toMatchObject({
        from: state,
        to: state,
        note: expect.stringMatching(/^Paid after closing: the provider reports SUCCESS for ₦7,100\.00 \(payment PAY/),
      });
      expect(lateOutcomeText(after.late!)).toMatch(
        /^Paid after it was closed: ₦7,100\.00 was taken from the customer's card at \d\d:\d\d \(payment PAY\w+\)\. If the customer is still here, hand over the tickets/,
      );
      expect(h.svc.late.list()).toMatchObject({ unhandled: 1, items: [{ orderId: v.id, outOrderNo: v.outOrderNo }] });
      await expect(h.svc.retrySale(v.id)).rejects.toThrow(
        /debited for this sale after it was closed: do not charge again/,
      );
      // Orders finds it: by the filter, by its late payment number, by the card's last four digits.
      const index = new OrderTextIndex(h.db);
      index.catchUp();
      index.refresh(v.id);
      const find = (q: { text?: string; paidAfterClosing?: boolean }) =>
        searchOrders(h.db, { text: '', states: [], limit: 50, ...q }).ids;
      expect(find({ paidAfterClosing: true })).toEqual([v.id]);
      expect(find({ text: details.payNo! })).toEqual([v.id]);
      expect(find({ text: '6789' })).toEqual([v.id]);
      // Counted apart in what the search found (its state stays closed, so it is not among the paid), with or without typed words.
      for (const q of [{}, { text: '6789' }, { paidAfterClosing: true }]) {
        expect(searchOrders(h.db, { text: '', states: [], limit: 50, ...q }), JSON.stringify(q)).toMatchObject({
          paid: { count: 0, amountKobo: 0 },
          paidAfterClosing: { count: 1, amountKobo: 710_000 },
        });
      }
      // The same word again changes nothing.
      h.svc.onWebhook(details);
      expect(lates).toEqual([v.id]);
      expect(h.svc.history(v.id).filter((e) => e.from === e.to)).toHaveLength(1);
    },
  );

  it('a late SUCCESS that is not this sale (one kobo off) is not recorded', async () => {
    const { v } = await closed('CLOSE', 'expired');
    const details = h.pos.settle(v.outOrderNo, 'SUCCESS');
    expect(h.svc.onWebhook({ ...details, amountKobo: details.amountKobo + 1 })!.late).toBeUndefined();
    expect(h.svc.late.unhandledCount()).toBe(0);
  });

  it('the sweep’s query records it the same way, and marking it handled says how, who and when (once)', async () => {
    const { v } = await closed('CANCEL', 'cancelled');
    const details = h.pos.settle(v.outOrderNo, 'SUCCESS');
    expect(h.svc.noteProviderReport(v.id, details, 'sweep').late).toMatchObject({
      source: 'sweep',
      kind: 'paid-after-closing',
    });
    const handled = h.svc.markLateHandled(v.id, { how: 'tickets-given', by: 'Ngozi' }).late!;
    expect(handled.handled).toEqual({ how: 'tickets-given', by: 'Ngozi', at: h.time.now });
    expect(h.svc.late.unhandledCount()).toBe(0);
    expect(h.svc.history(v.id).at(-1)!.note).toBe('Handled: Tickets given to the customer (by Ngozi)');
    expect(() => h.svc.markLateHandled(v.id, { how: 'refund', by: 'Tunde' })).toThrow(/already by Ngozi/);
  });
});

describe('a paid order reported otherwise later', () => {
  it('stays paid and carries the provider’s new word', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    await h.until(v.id, 'paid');
    const after = h.svc.onWebhook(h.pos.settle(v.outOrderNo, 'FAIL'))!;
    expect(after.state).toBe('paid');
    expect(after.late).toMatchObject({ kind: 'reported-otherwise', providerStatus: 'FAIL', closedAs: 'paid' });
    expect(lateOutcomeText(after.late!)).toMatch(/now reports this paid order as FAIL/);
  });

  it('an agreeing or pending word on a closed order records nothing', async () => {
    const { v } = await closed('FAIL', 'failed');
    expect(h.svc.onWebhook(h.pos.detailsOf(v.outOrderNo))!.late).toBeUndefined();
    expect(h.svc.onWebhook({ ...h.pos.detailsOf(v.outOrderNo), status: 'PENDING' })!.late).toBeUndefined();
  });
});
