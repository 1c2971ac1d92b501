// The show date as the cashier reads it: a calendar date, so the day never moves with a time zone;
// anything that is not a real yyyy-MM-dd date is shown as typed.
import { describe, expect, it } from 'vitest';
import { showDateText } from '../../../renderer/src/components/show-date';

describe('showDateText', () => {
  it('writes a date with its weekday', () => {
    expect(showDateText('2025-03-31')).toBe('Mon, 31 Mar 2025');
    expect(showDateText(' 2026-11-21 ')).toBe('Sat, 21 Nov 2026');
  });

  it('keeps the day at the edges of the year, whatever the machine time zone', () => {
    expect(showDateText('2025-01-01')).toBe('Wed, 01 Jan 2025');
    expect(showDateText('2024-12-31')).toBe('Tue, 31 Dec 2024');
  });

  it('shows what is not a real date as it was typed', () => {
    expect(showDateText('2025-02-30')).toBe('2025-02-30');
    expect(showDateText('31/03/2025')).toBe('31/03/2025');
    expect(showDateText('')).toBe('');
  });
});
