// The complaint desk's rules (shared/cases.ts): which sales fit what the customer says, the truth
// from the provider's word, the case number.
import { describe, expect, it } from 'vitest';
import {
  CASE_AROUND_MS,
  caseNumber,
  caseTruthOf,
  ComplaintSearchSchema,
  complaintWindow,
  fitsComplaint,
  lastFourOf,
  type ComplaintFacts,
} from '../../../shared/cases';

const H = 3_600_000;
const NOW = Date.UTC(2026, 11, 7, 20, 0);
const sale = (over: Partial<ComplaintFacts> = {}): ComplaintFacts => ({
  createdAt: NOW - 2 * H,
  amountKobo: 400_000,
  totalKobo: 400_000,
  sn: 'POS-0001',
  ...over,
});
const q = (s: unknown) => ComplaintSearchSchema.parse(s);

describe('what the customer says', () => {
  it('needs the amount or the last four', () => {
    expect(ComplaintSearchSchema.safeParse({ sn: 'POS-0001' }).success).toBe(false);
    expect(ComplaintSearchSchema.safeParse({ last4: '43a1' }).success).toBe(false);
    expect(ComplaintSearchSchema.safeParse({ last4: ' 4321 ' }).success).toBe(true);
  });
});

describe('fitsComplaint', () => {
  it('finds a sale by its card amount or by its basket total', () => {
    expect(fitsComplaint(sale(), q({ amountKobo: 400_000 }), NOW)).toBe(true);
    expect(fitsComplaint(sale({ amountKobo: 150_000, totalKobo: 400_000 }), q({ amountKobo: 400_000 }), NOW)).toBe(
      true,
    );
    expect(fitsComplaint(sale({ amountKobo: 150_000, totalKobo: 400_000 }), q({ amountKobo: 150_000 }), NOW)).toBe(
      true,
    );
    expect(fitsComplaint(sale(), q({ amountKobo: 400_100 }), NOW)).toBe(false);
  });

  it('looks back 72 hours unless asked for more', () => {
    const old = sale({ createdAt: NOW - 73 * H });
    expect(fitsComplaint(sale({ createdAt: NOW - 71 * H }), q({ amountKobo: 400_000 }), NOW)).toBe(true);
    expect(fitsComplaint(old, q({ amountKobo: 400_000 }), NOW)).toBe(false);
    expect(fitsComplaint(old, q({ amountKobo: 400_000, sinceMs: 96 * H }), NOW)).toBe(true);
  });

  it('looks three hours either side of roughly when', () => {
    const around = NOW - 10 * H;
    expect(complaintWindow(q({ amountKobo: 1, around }), NOW)).toEqual({
      from: around - CASE_AROUND_MS,
      to: around + CASE_AROUND_MS,
    });
    expect(fitsComplaint(sale({ createdAt: around + 3 * H }), q({ amountKobo: 400_000, around }), NOW)).toBe(true);
    expect(fitsComplaint(sale({ createdAt: around + 3 * H + 1 }), q({ amountKobo: 400_000, around }), NOW)).toBe(false);
    expect(fitsComplaint(sale({ createdAt: around - 3 * H - 1 }), q({ amountKobo: 400_000, around }), NOW)).toBe(false);
  });

  it('keeps to the terminal named, whatever its case', () => {
    expect(fitsComplaint(sale(), q({ amountKobo: 400_000, sn: 'pos-0001' }), NOW)).toBe(true);
    expect(fitsComplaint(sale(), q({ amountKobo: 400_000, sn: 'POS-0002' }), NOW)).toBe(false);
  });

  it('matches the last four against the card the provider named; a sale whose card is not known yet needs the amount', () => {
    const paid = sale({ senderAccount: '539983******4321' });
    expect(fitsComplaint(paid, q({ last4: '4321' }), NOW)).toBe(true);
    expect(fitsComplaint(paid, q({ last4: '1234', amountKobo: 400_000 }), NOW)).toBe(false);
    // Closed before the provider took the money: no card on it yet.
    expect(fitsComplaint(sale(), q({ last4: '4321' }), NOW)).toBe(false);
    expect(fitsComplaint(sale(), q({ last4: '4321', amountKobo: 400_000 }), NOW)).toBe(true);
  });

  it('reads the last four of a masked account only when four digits show', () => {
    expect(lastFourOf('539983******4321')).toBe('4321');
    expect(lastFourOf('****4321')).toBe('4321');
    expect(lastFourOf('***21')).toBeNull();
    expect(lastFourOf(undefined)).toBeNull();
  });
});

describe('the truth in one line', () => {
  it('says paid and tickets given only for a sale the counter itself saw paid', () => {
    expect(caseTruthOf('SUCCESS', { state: 'paid', paidAfterClosing: false })).toBe('paid-tickets-given');
    expect(caseTruthOf('SUCCESS', { state: 'expired', paidAfterClosing: true })).toBe('paid-after-closing');
    expect(caseTruthOf('SUCCESS', { state: 'failed', paidAfterClosing: false })).toBe('paid-after-closing');
  });

  it('says not paid for the provider’s closed words and an order it does not have', () => {
    for (const w of ['FAIL', 'CLOSE', 'CANCEL', 'NOT_FOUND', 'NOT_SENT'])
      expect(caseTruthOf(w, { state: 'failed', paidAfterClosing: false })).toBe('not-paid');
    // A paid sale the provider now reports otherwise is not paid by it.
    expect(caseTruthOf('FAIL', { state: 'paid', paidAfterClosing: false })).toBe('not-paid');
  });

  it('says unknown when the provider could not be asked or has not settled', () => {
    expect(caseTruthOf(null, { state: 'paid', paidAfterClosing: false })).toBe('unknown');
    expect(caseTruthOf('PENDING', { state: 'waiting', paidAfterClosing: false })).toBe('unknown');
  });
});

describe('case numbers', () => {
  it('are the counter code, C and four digits', () => {
    expect(caseNumber('COU1', 7)).toBe('COU1-C0007');
    expect(caseNumber('MH2', 12345)).toBe('MH2-C12345');
    expect(caseNumber('', 1)).toBe('C0001');
  });
});
