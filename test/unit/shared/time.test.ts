// Lagos days and clock times, the one implementation the counter, the Hub and the dashboard share:
// UTC shifted by an hour, checked against the time-zone database, whatever this machine's zone.
import { describe, expect, it } from 'vitest';
import { addDays, LAGOS_TZ, lagosDate, lagosDayStart, lagosHm, lagosInstant, lagosIso } from '../../../shared/time';

const byTzDatabase = {
  day: new Intl.DateTimeFormat('en-CA', { timeZone: LAGOS_TZ, year: 'numeric', month: '2-digit', day: '2-digit' }),
  hm: new Intl.DateTimeFormat('en-GB', { timeZone: LAGOS_TZ, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
};

describe('Lagos time', () => {
  it('a Lagos day starts at 23:00 UTC the day before', () => {
    const lateUtc = Date.UTC(2026, 11, 31, 22, 59, 59);
    expect(lagosDate(lateUtc)).toBe('2026-12-31');
    expect(lagosDate(lateUtc + 1000)).toBe('2027-01-01');
    expect(lagosHm(lateUtc + 1000)).toBe('00:00');
    expect(lagosIso(lateUtc + 1000)).toBe('2027-01-01T00:00:00');
    expect(lagosDayStart('2027-01-01')).toBe(lateUtc + 1000);
  });

  it('matches the time-zone database every 7 hours 13 minutes over three years', () => {
    const bad: string[] = [];
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 7 * 3_600_000 + 13 * 60_000) {
      const want = `${byTzDatabase.day.format(ms)} ${byTzDatabase.hm.format(ms)}`;
      if (`${lagosDate(ms)} ${lagosHm(ms)}` !== want) bad.push(`${new Date(ms).toISOString()}: ${want}`);
    }
    expect(bad).toEqual([]);
  });

  it("a show's date and time are the instant they name, and back", () => {
    const at = lagosInstant('2025-03-31', '19:30');
    expect(at).toBe(Date.UTC(2025, 2, 31, 18, 30));
    expect([lagosDate(at), lagosHm(at)]).toEqual(['2025-03-31', '19:30']);
    expect(lagosInstant('2025-03-31')).toBe(lagosDayStart('2025-03-31'));
  });

  it('adds days across months, years and a leap day', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-11-25', -7)).toBe('2026-11-18');
    expect(addDays('2026-11-25', 0)).toBe('2026-11-25');
  });
});
