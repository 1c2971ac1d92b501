// The pickup slip for the concession stand (issue 38): numbered from the sale number, in large type,
// only the concessions with their quantities and a combo's items, the counter and the Lagos time;
// none for a sale without concessions.
import { describe, expect, it } from 'vitest';
import { escposOf } from '../../../core/records/printing/escpos';
import { htmlFragmentOf } from '../../../core/records/printing/print-html';
import { buildPickupSlip, pickupSlipDoc } from '../../../core/records/receipts/pickup-slip-doc';
import { pickupNumber } from '../../../shared/pickup-slip';
import type { OrderView } from '../../../shared/orders';
import { escposLines } from '../../helpers/loopback-printer';
import { basketOrder, MIXED } from './basket-fixtures';
import { PAID_ORDER } from './receipt-fixtures';

const slipOf = (order: OrderView, reprint = false) =>
  buildPickupSlip({ order, cinemaName: 'Filmhouse Lekki', counterName: 'Counter 3', reprint });
const MIXED_SPLIT = () => basketOrder({ ...MIXED, tender: { kind: 'split', cashKobo: 500_000 } });

describe('pickupNumber', () => {
  it('is the last three digits of the sale number’s sequence', () => {
    expect(pickupNumber('C1-261121-0042')).toBe('042');
    expect(pickupNumber('COU3-250131-0007')).toBe('007');
    expect(pickupNumber('C1-261121-12345')).toBe('345');
    expect(pickupNumber('C1-261121-1000')).toBe('000');
  });
});

describe('the pickup slip', () => {
  it('ESC/POS: the number and each concession in double size, a combo’s items under it, the counter and the time; no tickets, no money', () => {
    const lines = escposLines(escposOf(pickupSlipDoc(slipOf(MIXED_SPLIT())!), '80'));
    expect(lines.map((l) => `${l.wide ? 'W' : ' '}|${l.text}`)).toEqual([
      ' |Filmhouse Lekki',
      ' |PICKUP SLIP',
      'W|No. 042',
      ` |${'='.repeat(48)}`,
      'W|1 x Popcorn combo',
      ' |  Popcorn: Popcorn large',
      ' |  Drink: Fanta 50cl',
      'W|2 x Water 75cl',
      ` |${'='.repeat(48)}`,
      ' |Counter 3 - 19:02',
      ` |Sale no.${' '.repeat(48 - 8 - 14)}C1-261121-0042`,
      ' |Times are Lagos time (WAT).',
    ]);
  });

  it('ESC/POS: a combo’s items in double height and bold; every line within 58 mm paper', () => {
    const bytes = escposOf(pickupSlipDoc(slipOf(MIXED_SPLIT())!), '58');
    // Bold stays on from the double-size line above (ESC E 1 sent once); the size drops to double height.
    const item = bytes.indexOf(Buffer.from([0x1d, 0x21, 0x01, ...Buffer.from('  Popcorn: Popcorn large')]));
    expect(item).toBeGreaterThan(bytes.indexOf(Buffer.from([0x1b, 0x45, 1, 0x1d, 0x21, 0x11, ...Buffer.from('1 x')])));
    expect(bytes.subarray(item).indexOf(Buffer.from([0x1b, 0x45, 0]))).toBeGreaterThan(
      bytes.subarray(item).indexOf(Buffer.from('Drink')),
    );
    for (const l of escposLines(bytes))
      expect(l.text.length, `"${l.text}"`).toBeLessThanOrEqual(l.small ? 42 : l.wide ? 16 : 32);
  });

  it('HTML: the number and the lines big, the items under them, nothing unescaped', () => {
    const html = htmlFragmentOf(pickupSlipDoc(slipOf(MIXED_SPLIT())!), '80');
    expect(html).toContain('<p class="rp-big rp-center">No. 042</p>');
    expect(html).toContain('<p class="rp-big">1 × Popcorn combo</p>');
    expect(html).toContain('<p class="rp-sub rp-large">Drink: Fanta 50cl</p>');
    expect(html).toContain('<p class="rp-big">2 × Water 75cl</p>');
    expect(html).toContain('Counter 3 · 19:02');
    expect(html).not.toMatch(/Adult|Child|₦/);
  });

  it('a reprint is marked REPRINT; a Demo sale’s slip says DEMO — NOT A PAYMENT', () => {
    const doc = pickupSlipDoc(slipOf({ ...MIXED_SPLIT(), profile: 'demo' }, true)!);
    expect(doc.blocks).toContainEqual({ t: 'mark', text: 'REPRINT' });
    expect(doc.blocks.filter((b) => b.t === 'banner')).toHaveLength(2);
    expect(doc.title).toBe('Reprint of pickup slip 042 (C1-261121-0042)');
  });

  it('a cash sale’s slip has the time it was made (it has no provider time)', () => {
    const cash = basketOrder({
      concessions: [{ code: 'POPS', quantity: 1 }],
      tender: { kind: 'cash', tenderedKobo: 150_000 },
    });
    const html = htmlFragmentOf(pickupSlipDoc(slipOf(cash)!), '58');
    expect(html).toContain('Counter 3 · 19:01');
    expect(html).toContain('<p class="rp-big">1 × Popcorn small</p>');
  });

  it('none for a sale without concessions: a sale before baskets, or tickets only', () => {
    expect(slipOf(PAID_ORDER)).toBeNull();
    expect(
      slipOf(
        basketOrder({
          tickets: { ...MIXED.tickets!, seats: [{ seat: 'F7', ticketType: 'Child' }] },
          tender: { kind: 'card' },
        }),
      ),
    ).toBeNull();
  });
});
