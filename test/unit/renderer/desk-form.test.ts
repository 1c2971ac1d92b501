// The complaint desk's form (renderer/src/stores/desk-store.ts): what the cashier types becomes the
// engine's search — naira to kobo, "roughly when" to a Lagos instant (yesterday's when still to
// come today) — or the fields to fix.
import { describe, expect, it } from 'vitest';
import { aroundOf, searchOf } from '../../../renderer/src/stores/desk-store';
import { lagosInstant } from '../../../shared/time';

const NOW = lagosInstant('2026-12-07', '20:00');
const form = (f: Partial<{ last4: string; amount: string; when: string; sn: string }>) => ({
  last4: '',
  amount: '',
  when: '',
  sn: '',
  ...f,
});

describe('the desk form', () => {
  it('reads the last four, the naira amount, when and the terminal', () => {
    expect(searchOf(form({ last4: '4321', amount: '4,000', when: '19:40', sn: ' POS-1 ' }), NOW)).toEqual({
      ok: true,
      search: { last4: '4321', amountKobo: 400_000, around: lagosInstant('2026-12-07', '19:40'), sn: 'POS-1' },
    });
  });

  it('reads a time still to come today as yesterday’s', () => {
    expect(aroundOf('21:15', NOW)).toBe(lagosInstant('2026-12-06', '21:15'));
    expect(aroundOf('0740', NOW)).toBe(lagosInstant('2026-12-07', '07:40'));
    expect(aroundOf('7pm', NOW)).toBeNull();
  });

  it('names the fields to fix', () => {
    expect(searchOf(form({}), NOW)).toEqual({
      ok: false,
      errors: { amount: "Enter the amount or the card's last four digits" },
    });
    expect(searchOf(form({ last4: '432', amount: 'abc', when: '25:00' }), NOW)).toEqual({
      ok: false,
      errors: {
        last4: "The card's last four digits are four digits",
        amount: 'Enter the amount in naira, for example 4,000',
        when: 'Write the time as HH:mm, for example 19:40',
      },
    });
  });
});
