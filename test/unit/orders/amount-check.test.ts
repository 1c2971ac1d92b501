// The amount check at the provider's edge, to the kobo: a query or a webhook that reports the
// order one kobo more or less than the sale never makes it paid (it is not this sale, or something
// is badly wrong); the exact amount does. A ±₦1 tolerance would pass all of these.
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';

let h: CheckoutHarness;
afterEach(async () => h?.close());

describe('the amount the provider reports', () => {
  it.each([1, -1, 100, -100])(
    'a query reporting it %i kobo off holds the order as unknown, never paid',
    async (off) => {
      h = checkoutHarness();
      const v = await h.sell();
      await h.until(v.id, 'waiting');
      h.pos.reportAmountOff(v.outOrderNo, off);
      h.pos.settle(v.outOrderNo, 'SUCCESS');
      const held = await h.until(v.id, 'unknown', 60_000);
      expect(held.reason).toMatch(/Naira, not 7100\.00\. Do not hand over the tickets/);
      expect(h.path(v.id)).not.toContain('paid');
    },
  );

  it.each([1, -1])('a webhook reporting it %i kobo off does not make the order paid', async (off) => {
    h = checkoutHarness();
    h.pos.defaultQuery = 'hold'; // only the webhook speaks
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const details = h.pos.settle(v.outOrderNo, 'SUCCESS');
    const after = h.svc.onWebhook({ ...details, amountKobo: details.amountKobo + off });
    expect(after?.state).toBe('unknown');
    expect(after?.reason).toMatch(/not 7100\.00/);
    expect(h.svc.get(v.id)?.state).not.toBe('paid');
  });

  it('a webhook and a query with the exact amount make it paid', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const details = h.pos.settle(v.outOrderNo, 'SUCCESS');
    expect(details.amountKobo).toBe(710_000);
    expect(h.svc.onWebhook(details)?.state).toBe('paid');
  });
});
