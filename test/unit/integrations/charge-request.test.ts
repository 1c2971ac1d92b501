// A box office's charge request in its two forms (core/integrations/charge-request.ts): the
// single-type form reads and hashes exactly as before the lines form existed; the lines form (a
// basket by card) is read with every wrong field named by its path, cash and split refused on
// `tender.kind`, and a hostile body refused before its elements are read.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../protocol/crypto';
import {
  basketOf,
  checkedSale,
  checkLinesAmount,
  linesHash,
  parseCharge,
  saleHash,
} from '../../../core/integrations/charge-request';
import { IntegrationApiError } from '../../../core/integrations/integration-errors';
import { BasketSaleSchema } from '../../../shared/basket-sale';

const SHOW = { filmName: 'LAGOS-NIGHTS', filmTitle: 'Lagos Nights (2D)', showDate: '2026-12-24', showTime: '19:30' };
const single = {
  reference: 'BK-1',
  amountKobo: 520_000,
  sale: { ...SHOW, seats: 'F7,F8', tickets: 2, priceKobo: 250_000, bookingFeeKobo: 20_000 },
};
const lines = {
  reference: 'BK-2',
  tickets: {
    ...SHOW,
    seats: [
      { seat: 'f7', ticketType: 'Adult' },
      { seat: 'F8', ticketType: 'child' },
    ],
  },
  concessions: [
    { code: 'popl', quantity: 1 },
    { code: 'CMB1', quantity: 1, choices: { Drink: 'fanta' } },
  ],
};

/** The fields of the VALIDATION error `fn` throws. */
function refusal(fn: () => unknown): { status: number; code: string; fields: Record<string, string> } {
  try {
    fn();
  } catch (e) {
    if (e instanceof IntegrationApiError) return { status: e.status, code: e.code, fields: e.fields ?? {} };
    throw e;
  }
  throw new Error('not refused');
}

describe('the single-type form', () => {
  it('reads as before and hashes as before (the same reference is the same charge across the change)', () => {
    const r = parseCharge(single);
    expect(r.form).toBe('sale');
    if (r.form !== 'sale') return;
    const sale = checkedSale(r, 'SN-TEST-1');
    expect(sale).toMatchObject({ ...single.sale, sn: 'SN-TEST-1' });
    // The hash as charge-desk.ts computed it before the lines form (amount and sale without the terminal).
    const { sn: _sn, ...rest } = sale;
    const before = createHash('sha256')
      .update(canonicalJson({ amountKobo: 520_000, sale: rest }), 'utf8')
      .digest('hex');
    expect(saleHash(520_000, sale)).toBe(before);
  });

  it('keeps its refusals: the amount cross-check, unknown fields', () => {
    const r = parseCharge({ ...single, amountKobo: 500_000 });
    expect(r.form === 'sale' && refusal(() => checkedSale(r, 'SN-TEST-1')).fields.amountKobo).toMatch(
      /make ₦5,200\.00/,
    );
    expect(refusal(() => parseCharge({ ...single, discount: 5 })).fields).toHaveProperty('request');
  });

  it('is not mixed with lines: sale beside tickets or concessions is refused', () => {
    const r = refusal(() => parseCharge({ ...single, concessions: [{ code: 'POPL', quantity: 1 }] }));
    expect(r).toMatchObject({ status: 422, code: 'VALIDATION' });
    expect(r.fields.sale).toMatch(/Leave sale out/);
  });
});

describe('the lines form', () => {
  it('reads tickets with a type per seat and concession lines, by card; codes and seats in capitals', () => {
    const r = parseCharge(lines);
    expect(r.form).toBe('lines');
    if (r.form !== 'lines') return;
    const basket = basketOf(r);
    expect(basket.tender).toEqual({ kind: 'card' });
    expect(basket.tickets?.seats.map((s) => s.seat)).toEqual(['F7', 'F8']);
    expect(basket.concessions).toEqual([
      { code: 'POPL', quantity: 1, choices: {} },
      { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
    ]);
    // What the desk sells is what the checkout's one door takes for a basket.
    expect(BasketSaleSchema.safeParse({ ...basket, sn: 'SN-TEST-1' }).success).toBe(true);
    expect(parseCharge({ ...lines, tender: { kind: 'card' } }).form).toBe('lines');
  });

  it('may be concessions only, never empty', () => {
    expect(parseCharge({ reference: 'BK-3', concessions: [{ code: 'POPS', quantity: 3 }] }).form).toBe('lines');
    expect(refusal(() => parseCharge({ reference: 'BK-3' })).fields.tickets).toMatch(/tickets .* concessions/);
    expect(refusal(() => parseCharge({ reference: 'BK-3', concessions: [] })).fields.tickets).toBeTruthy();
  });

  it('the same basket written differently hashes the same; another basket or amount does not', () => {
    const h = (b: unknown) => {
      const r = parseCharge(b);
      return r.form === 'lines' ? linesHash(r) : '';
    };
    const same = {
      ...lines,
      tickets: { ...lines.tickets, seats: [{ seat: ' F7 ', ticketType: 'Adult' }, lines.tickets.seats[1]] },
      concessions: [
        { code: 'POPL', quantity: 1, choices: {} },
        { code: 'cmb1', quantity: 1, choices: { Drink: 'FANTA' } },
      ],
      tender: { kind: 'card' },
    };
    expect(h(same)).toBe(h(lines));
    expect(h({ ...lines, concessions: [lines.concessions[0]] })).not.toBe(h(lines));
    expect(h({ ...lines, amountKobo: 900_000 })).not.toBe(h(lines));
  });

  it('cash and split are refused on tender.kind: a box office has no cash drawer', () => {
    for (const tender of [
      { kind: 'cash', tenderedKobo: 1_000_000 },
      { kind: 'split', cashKobo: 500_000 },
    ]) {
      const r = refusal(() => parseCharge({ ...lines, tender }));
      expect(r).toMatchObject({ status: 422, code: 'VALIDATION' });
      expect(r.fields['tender.kind']).toMatch(/paid by card .* no cash drawer/);
    }
    expect(refusal(() => parseCharge({ ...lines, tender: 'card' })).fields.tender).toMatch(/no cash drawer/);
    expect(
      refusal(() => parseCharge({ ...lines, tender: { kind: 'card', tenderedKobo: 1 } })).fields.tender,
    ).toBeTruthy();
  });

  it('names each wrong field by its path', () => {
    const r = refusal(() =>
      parseCharge({
        ...lines,
        tickets: { ...lines.tickets, showTime: '7pm', seats: [{ seat: 'F7', ticketType: '' }, { seat: 'F 8!' }] },
        concessions: [
          { code: 'POPL', quantity: 0 },
          { code: 'CMB1', quantity: 1, choices: { Drink: 'not a code!' } },
          { code: 'POPS', quantity: -2 },
          { code: 'POPS', quantity: 1.5 },
        ],
      }),
    );
    expect(r.fields).toMatchObject({
      'tickets.showTime': expect.stringMatching(/HH:mm/),
      'tickets.seats.0.ticketType': expect.stringMatching(/ticket type/),
      'tickets.seats.1.seat': expect.stringMatching(/letters and digits/),
      'tickets.seats.1.ticketType': expect.any(String),
      'concessions.0.quantity': expect.stringMatching(/1 to 99/),
      'concessions.1.choices.Drink': expect.stringMatching(/code/),
      'concessions.2.quantity': expect.stringMatching(/1 to 99/),
      'concessions.3.quantity': expect.stringMatching(/whole number/),
    });
  });

  it('a hostile body is refused: unknown fields, a thousand lines, too many seats, not an object', () => {
    expect(refusal(() => parseCharge({ ...lines, priceKobo: 1 })).fields).toHaveProperty('request');
    expect(refusal(() => parseCharge({ ...lines, tickets: { ...lines.tickets, showKey: 'k' } })).fields).toHaveProperty(
      ['tickets.showKey'],
    );
    expect(
      refusal(() => parseCharge({ ...lines, concessions: [{ code: 'POPL', quantity: 1, priceKobo: 1 }] })).fields,
    ).toHaveProperty('concessions.0');
    const many = refusal(() => parseCharge({ ...lines, concessions: Array.from({ length: 1000 }, () => ({})) }));
    expect(many.fields).toEqual({ concessions: 'At most 40 concession lines in one charge (1000 sent)' });
    const seats = Array.from({ length: 51 }, (_, i) => ({ seat: `A${i + 1}`, ticketType: 'Adult' }));
    expect(Object.keys(refusal(() => parseCharge({ ...lines, tickets: { ...SHOW, seats } })).fields)).toEqual([
      'tickets.seats',
    ]);
    for (const body of [null, [], 'BK-1', 42]) expect(refusal(() => parseCharge(body)).status).toBe(422);
  });
});

describe('the amount of a lines request', () => {
  const amounts = {
    ticketsKobo: 1_200_000,
    bookingFeeKobo: 60_000,
    concessionsKobo: 380_000,
    totalKobo: 1_640_000,
    cashKobo: 0,
    cardKobo: 1_640_000,
    tenderedKobo: 0,
    changeKobo: 0,
  };
  const price = () => ({ ok: true as const, amounts });

  it('when sent, must be the total the counter prices; left out, it is not asked', () => {
    expect(() => checkLinesAmount(parseCharge({ ...lines, amountKobo: 1_640_000 }), price)).not.toThrow();
    expect(() => checkLinesAmount(parseCharge(lines), price)).not.toThrow();
    const r = refusal(() => checkLinesAmount(parseCharge({ ...lines, amountKobo: 1_600_000 }), price));
    expect(r.fields.amountKobo).toBe(
      "The amount is ₦16,000.00 but the basket makes ₦16,400.00 at the counter's prices (tickets ₦12,000.00, booking fee ₦600.00, concessions ₦3,800.00): check the prices",
    );
  });

  it('a basket the counter cannot price is left to the checkout (which names each line); a single-type request is not asked', () => {
    expect(() => checkLinesAmount(parseCharge({ ...lines, amountKobo: 1 }), () => ({ ok: false }))).not.toThrow();
    const asked: unknown[] = [];
    checkLinesAmount(parseCharge(single), (b) => (asked.push(b), price()));
    expect(asked).toEqual([]);
  });
});

describe('docs/integration.md', () => {
  it('its lines request parses as the lines form, and its basket answer adds up', () => {
    const doc = readFileSync(resolve(__dirname, '../../../docs/integration.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Lines: several ticket types, concessions'));
    const request = /```http\n[^{]*(\{[\s\S]*?\n\})\n```/.exec(section)![1]!;
    const r = parseCharge(JSON.parse(request));
    expect(r.form).toBe('lines');
    const answer = /```json\n"basket": (\{[\s\S]*?\n\})\n```/.exec(section)![1]!;
    const { lines: sold, amounts } = JSON.parse(answer) as {
      lines: { kind: string; amountKobo: number; bookingFeeKobo?: number }[];
      amounts: { totalKobo: number; cardKobo: number };
    };
    const sum = sold.reduce((n, l) => n + l.amountKobo + (l.bookingFeeKobo ?? 0), 0);
    expect(amounts.totalKobo).toBe(sum);
    expect(amounts.cardKobo).toBe(sum);
    expect(r.form === 'lines' && r.amountKobo).toBe(sum);
  });
});
