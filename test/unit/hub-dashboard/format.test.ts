// The dashboard's pure helpers: naira and Lagos times, waits, the login refusal in words, the chart's
// scale, hours and summary, and the order search form ⇄ query string.
import { describe, expect, it } from 'vitest';
import {
  ageText,
  agoText,
  changeText,
  chartHours,
  chartScale,
  chartSummary,
  clockOffsetText,
  dayLong,
  dayMedium,
  formatNaira,
  formOfQuery,
  lagosDayTime,
  lagosDayTimeSeconds,
  lagosTime,
  lagosTimeSeconds,
  lastWeekSoFar,
  loginRefusal,
  ordersQuery,
  showDayTime,
  statePill,
  waitText,
} from '../../../hub/dashboard/src/format';
import { parseNaira } from '../../../shared/money';

const hours = (f: (h: number) => [number, number]) =>
  Array.from({ length: 24 }, (_, hour) => ({
    hour,
    paidKobo: f(hour)[0],
    paidCount: f(hour)[0] ? 1 : 0,
    lastWeekPaidKobo: f(hour)[1],
    lastWeekPaidCount: f(hour)[1] ? 1 : 0,
  }));

describe('dashboard format', () => {
  it('money in en-NG naira, times in Lagos whatever the machine zone', () => {
    expect(formatNaira(123_456_78)).toBe('₦123,456.78');
    const t = Date.UTC(2026, 4, 12, 22, 30); // 23:30 in Lagos
    expect(lagosTime(t)).toBe('23:30');
    expect(lagosDayTime(Date.UTC(2026, 4, 12, 23, 30))).toBe('13 May, 00:30');
    expect(dayLong('2026-05-12')).toBe('Tuesday 12 May 2026'); // no comma, as the day fields ("Tue 12 May 2026")
  });

  it("a day field's day in one format for people, whatever the browser's language; anything else as itself", () => {
    expect(dayMedium('2026-11-25')).toBe('Wed 25 Nov 2026');
    expect(dayMedium('2026-01-01')).toBe('Thu 1 Jan 2026');
    expect(dayMedium('2026-02-30')).toBe('2026-02-30');
    expect(dayMedium('25/11/2026')).toBe('25/11/2026');
    expect(dayMedium('')).toBe('');
  });

  it('waits and ages as a person reads them', () => {
    expect(waitText(30_000)).toBe('30 s');
    expect(waitText(29_001)).toBe('30 s');
    expect(waitText(0)).toBe('1 s');
    expect(waitText(125_000)).toBe('2 min 05 s');
    expect(waitText(15 * 60_000)).toBe('15 min');
    expect(agoText(0, 30_000)).toBe('just now');
    expect(agoText(0, 4 * 60_000)).toBe('4 min ago');
    expect(agoText(0, 125 * 60_000)).toBe('2 h 05 min ago');
    expect(agoText(0, 3 * 86_400_000)).toBe('3 days ago');
    expect(ageText(0, 30_000)).toBe('under a minute');
    expect(ageText(0, 3 * 86_400_000)).toBe('3 days');
    expect(clockOffsetText(null)).toBe('not known yet');
    expect(clockOffsetText(-4000)).toBe('on time');
    expect(clockOffsetText(190_000)).toBe('3 min 10 s behind');
    expect(clockOffsetText(-61_000)).toBe('1 min 01 s ahead');
  });

  it('login refusals: the wait in seconds, for the manager or the computer', () => {
    expect(
      loginRefusal({
        code: 'HUB_RATE_LIMITED',
        message: 'Too many login attempts for this manager: wait, then try again.',
        retryAfterMs: 30_000,
      }),
    ).toBe('Too many login attempts for this manager: wait 30 s, then try again.');
    expect(
      loginRefusal({
        code: 'HUB_RATE_LIMITED',
        message: 'Too many login attempts from this address: wait, then try again.',
        retryAfterMs: 2_500,
      }),
    ).toBe('Too many login attempts from this computer: wait 3 s, then try again.');
    expect(
      loginRefusal({ code: 'HUB_LOGIN_FAILED', message: 'Wrong manager name or password.', retryAfterMs: null }),
    ).toBe('Wrong manager name or password.');
  });

  it('state pills as the counter app: colour, symbol and words', () => {
    expect(statePill('paid')).toEqual({ tone: 'good', symbol: '✓', label: 'Paid' });
    expect(statePill('unknown')).toEqual({ tone: 'warn', symbol: '?', label: 'Checking the payment' });
    expect(statePill('weird')).toEqual({ tone: 'info', symbol: '•', label: 'weird' });
  });

  it('chart: a round top at or above the largest bar, even ticks; the cinema day widened to any sale', () => {
    expect(chartScale(1_870_000)).toEqual({ top: 2_000_000, ticks: [0, 500_000, 1_000_000, 1_500_000, 2_000_000] });
    expect(chartScale(0).ticks[0]).toBe(0);
    const s = chartScale(37_123);
    expect(s.top).toBeGreaterThanOrEqual(37_123);
    expect(s.ticks.at(-1)).toBe(s.top);
    expect(chartHours(hours(() => [0, 0])).map((p) => p.hour)).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
    ]);
    expect(chartHours(hours((h) => (h === 7 ? [100, 0] : [0, 0])))[0]!.hour).toBe(7);
  });

  it('chart in words; last week so far; the change', () => {
    const p = hours((h) => (h === 19 ? [500_000, 300_000] : h === 12 ? [100_000, 100_000] : [0, 0]));
    expect(chartSummary(p)).toBe(
      'Card total today ₦6,000.00, against ₦4,000.00 by the end of the same weekday last week. Busiest hour today: 19:00–20:00 with ₦5,000.00 (1 paid).',
    );
    expect(chartSummary(hours(() => [0, 0]))).toBe('No card payments yet today, and none on the same day last week.');
    expect(lastWeekSoFar(p, 18)).toBe(100_000);
    expect(changeText(150, 100)).toBe('+50 %');
    expect(changeText(92, 100)).toBe('−8 %');
    expect(changeText(100, 0)).toBeNull();
  });

  it('order search: the form to the query (amount in naira to kobo, empties dropped) and back', () => {
    const { query, problem } = ordersQuery(
      { number: ' 1003 ', film: '', amount: '1,500.50', practice: 'exclude', state: 'paid', from: '2026-05-01' },
      parseNaira,
    );
    expect(problem).toBeNull();
    expect(query.toString()).toBe('number=1003&amountKobo=150050&from=2026-05-01&state=paid');
    expect(formOfQuery(query)).toEqual({ number: '1003', amount: '1500.50', from: '2026-05-01', state: 'paid' });
    expect(formOfQuery(new URLSearchParams('amountKobo=150000'))).toEqual({ amount: '1500' });
    expect(ordersQuery({ amount: 'lots' }, parseNaira).problem).toBe(
      '"lots" is not an amount in naira (for example 1500 or 1,500.50).',
    );
  });

  it('a wild value from a counter shows as itself or "—", never an exception (issue 21)', () => {
    expect(statePill('__proto__')).toEqual({ tone: 'info', symbol: '•', label: '__proto__' });
    expect(statePill('constructor').label).toBe('constructor');
    expect(lagosDayTime(8.7e15)).toBe('—');
    expect(lagosTimeSeconds(Number.NaN)).toBe('—');
    expect(lagosDayTimeSeconds(8.64e15)).not.toBe('—');
  });
  it("a show's day and time read as people read them, never the ISO day; a wild day shows as itself", () => {
    expect(showDayTime('2026-11-25', '19:30')).toBe('Wed 25 Nov, 19:30');
    expect(showDayTime('2026-11-25', null)).toBe('Wed 25 Nov');
    expect(showDayTime('2026-13-45', '19:30')).toBe('2026-13-45, 19:30');
    expect(showDayTime('tomorrow', undefined)).toBe('tomorrow');
    expect(showDayTime(null, null)).toBe('—');
  });
});
