// What the cashier reads: the show date as a calendar date (the day never moves with a time zone;
// anything that is not a real yyyy-MM-dd date is shown as typed), Lagos days, counts, durations.
import { describe, expect, it } from 'vitest';
import { elapsedText, formatCount, formatDayMonth, formatSize, mmss, showDateText } from '../../../renderer/src/format';

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

describe('the other formatters', () => {
  it('names the day in Lagos, not in the machine zone', () => {
    // 23:30 UTC on 31 March is already 1 April in Lagos (UTC+1).
    expect(formatDayMonth(Date.UTC(2025, 2, 31, 23, 30))).toBe('01 Apr');
  });

  it('writes counts with thousands separators', () => {
    expect(formatCount(12_500)).toBe('12,500');
    expect(formatCount(7)).toBe('7');
  });

  it('writes file sizes in KB under a megabyte (never 0 KB) and in MB with one decimal above', () => {
    expect(formatSize(10)).toBe('1 KB');
    expect(formatSize(300 * 1024)).toBe('300 KB');
    expect(formatSize(3.5 * 1024 * 1024)).toBe('3.5 MB');
  });

  it('writes time left as mm:ss, never negative, and time since as minutes or hours', () => {
    expect(mmss(61_001)).toBe('01:02');
    expect(mmss(-5_000)).toBe('00:00');
    expect(elapsedText(0, 45 * 60_000)).toBe('45 min');
    expect(elapsedText(0, 125 * 60_000)).toBe('2 h 05 min');
  });
});
