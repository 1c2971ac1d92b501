// What the dashboard shows of money, times, waits and the chart, as pure functions (unit-tested in
// test/unit/hub-dashboard/format.test.ts). Money: integer kobo shown as en-NG naira; times: Africa/Lagos.
import { formatNaira } from '../../../shared/money';
import { hourlyTotals, lastWeekSoFar } from '../../../shared/ledger-day';
import { ORDER_STATE_LABELS, type OrderState } from '../../../shared/orders';
import { LAGOS_TZ } from '../../../shared/time';
import type { HourPointSchema } from '../../../shared/hub-dashboard-contract';
import type { z } from 'zod';

export { formatNaira };
type HourPoint = z.infer<typeof HourPointSchema>;

const count = new Intl.NumberFormat('en-NG');
const hm = new Intl.DateTimeFormat('en-GB', { timeZone: LAGOS_TZ, hour: '2-digit', minute: '2-digit', hour12: false });
const hms = new Intl.DateTimeFormat('en-GB', {
  timeZone: LAGOS_TZ,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const dayTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: LAGOS_TZ,
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const dayTimeSec = new Intl.DateTimeFormat('en-GB', {
  timeZone: LAGOS_TZ,
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const longDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const shortDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const mediumDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const compactNaira = new Intl.NumberFormat('en-NG', {
  style: 'currency',
  currency: 'NGN',
  notation: 'compact',
  maximumFractionDigits: 1,
});

export const formatCount = (n: number): string => count.format(n);
/** A time a Date can hold is formatted; anything else (a counter's wild value stored before the Hub bounded them) shows as "—", never an exception. */
const safe =
  (f: Intl.DateTimeFormat) =>
  (ms: number): string =>
    Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? f.format(ms) : '—';
/**
 * HH:mm in Lagos.
 * @internal for tests
 */
export const lagosTime = safe(hm);
/** HH:mm:ss in Lagos. */
export const lagosTimeSeconds = safe(hms);
/** "12 May, 19:30" in Lagos. */
export const lagosDayTime = safe(dayTime);
/** "12 May, 19:30:05" in Lagos. */
export const lagosDayTimeSeconds = safe(dayTimeSec);
/** A Lagos day "2026-05-12" as "Tuesday 12 May 2026" (a calendar date: no zone can move it). */
export const dayLong = (day: string): string => longDay.format(Date.parse(`${day}T12:00:00Z`)).replace(',', '');
export const dayShort = (day: string): string => shortDay.format(Date.parse(`${day}T12:00:00Z`));
/** A Lagos day "2026-11-25" as "Wed 25 Nov 2026" (the day fields); a value that is not a day shows as itself. */
export const dayMedium = (day: string): string => {
  const t = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T12:00:00Z`) : Number.NaN;
  // A day that does not exist (2026-02-30, which Date would roll into March) shows as typed.
  return Number.isFinite(t) && new Date(t).toISOString().startsWith(day) ? mediumDay.format(t).replace(',', '') : day;
};
/** A show's day and time as people read them ("Wed 25 Nov, 19:30"); a day that is not yyyy-MM-dd shows as itself, a missing one as "—". */
export function showDayTime(day: string | null | undefined, time: string | null | undefined): string {
  const d =
    day && /^\d{4}-\d{2}-\d{2}$/.test(day) && Number.isFinite(Date.parse(`${day}T12:00:00Z`)) ? dayShort(day) : day;
  return [d, time].filter(Boolean).join(', ') || '—';
}
/** "₦1.2M", "₦45K" for chart axes (the exact amounts are in the table beside it). */
export const nairaCompact = (kobo: number): string => compactNaira.format(kobo / 100);

/** A wait as a person reads it: "30 s", "2 min 05 s", "15 min". Always at least 1 s. */
export function waitText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const r = s % 60;
  return r === 0 ? `${m} min` : `${m} min ${String(r).padStart(2, '0')} s`;
}

/** How long ago: "just now", "4 min ago", "2 h 05 min ago", "3 days ago". */
export function agoText(from: number, now: number): string {
  const min = Math.floor((now - from) / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  if (min < 48 * 60) return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min ago`;
  return `${Math.floor(min / 1440)} days ago`;
}

/** How long since, as an age: "under a minute", "4 min", "2 h 05 min", "3 days" (a refund owed, a case open). */
export const ageText = (from: number, now: number): string => {
  const t = agoText(from, now);
  return t === 'just now' ? 'under a minute' : t.replace(/ ago$/, '');
};

/** A counter's clock against the Hub's (clockOffsetMs = Hub time − counter time, so positive is behind): "on time" within 5 s, else "3 min 10 s behind" / "ahead". */
export function clockOffsetText(offsetMs: number | null): string {
  if (offsetMs === null) return 'not known yet';
  if (Math.abs(offsetMs) < 5000) return 'on time';
  return `${waitText(Math.abs(offsetMs))} ${offsetMs > 0 ? 'behind' : 'ahead'}`;
}

/** The login refusal in plain words, with the wait when the Hub gave one. */
export function loginRefusal(e: { code: string; message: string; retryAfterMs: number | null }): string {
  if (e.code === 'HUB_RATE_LIMITED' && e.retryAfterMs !== null) {
    const who = /this address/.test(e.message) ? 'from this computer' : 'for this manager';
    return `Too many login attempts ${who}: wait ${waitText(e.retryAfterMs)}, then try again.`;
  }
  return e.message;
}

// ---- Order states: the counter app's pills (colour, symbol and words) ---------------------------

export type Tone = 'good' | 'bad' | 'warn' | 'info';
const TONE: Record<OrderState, Tone> = {
  queued: 'warn',
  creating: 'info',
  waiting: 'info',
  paid: 'good',
  failed: 'bad',
  cancelled: 'bad',
  expired: 'warn',
  unknown: 'warn',
};
const SYMBOL: Record<OrderState, string> = {
  queued: '…',
  creating: '→',
  waiting: '◷',
  paid: '✓',
  failed: '✕',
  cancelled: '✕',
  expired: '!',
  unknown: '?',
};

export function statePill(state: string): { tone: Tone; symbol: string; label: string } {
  const s = state as OrderState;
  // Own keys only: "__proto__" or "constructor" are not states.
  if (Object.hasOwn(TONE, s)) return { tone: TONE[s], symbol: SYMBOL[s], label: ORDER_STATE_LABELS[s] };
  return { tone: 'info', symbol: '•', label: state };
}
export const ORDER_STATES = Object.keys(TONE) as OrderState[];

// ---- The hourly chart -----------------------------------------------------------------------------

/** A "nice" top for the axis (1, 2, 2.5 or 5 × 10^n kobo-of-naira) at or above the largest bar, and its ticks. */
export function chartScale(maxKobo: number, ticks = 4): { top: number; ticks: number[] } {
  if (maxKobo <= 0) return { top: 100_00, ticks: [0, 25_00, 50_00, 75_00, 100_00] };
  const raw = maxKobo / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  const top = Math.ceil(maxKobo / step) * step;
  const list: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) list.push(Math.round(v));
  return { top: Math.round(top), ticks: list };
}

/** The hours to draw: the cinema's day (10:00 to 23:00) widened to any hour with sales either day. */
export function chartHours(points: HourPoint[]): HourPoint[] {
  const busy = points.filter((p) => p.paidKobo > 0 || p.lastWeekPaidKobo > 0).map((p) => p.hour);
  const lo = Math.min(10, ...busy);
  const hi = Math.max(23, ...busy);
  return points.filter((p) => p.hour >= lo && p.hour <= hi);
}

/** "19:00–20:00" */
export const hourRange = (h: number): string =>
  `${String(h).padStart(2, '0')}:00–${String((h + 1) % 24).padStart(2, '0')}:00`;

/** The chart in words, for a screen reader and for anyone who would rather read. */
export function chartSummary(points: HourPoint[]): string {
  const { paidKobo: today, lastWeekPaidKobo: last, busiest } = hourlyTotals(points);
  if (today === 0 && last === 0) return 'No card payments yet today, and none on the same day last week.';
  const parts = [
    `Card total today ${formatNaira(today)}, against ${formatNaira(last)} by the end of the same weekday last week.`,
  ];
  if (today > 0 && busiest)
    parts.push(
      `Busiest hour today: ${hourRange(busiest.hour)} with ${formatNaira(busiest.paidKobo)} (${formatCount(busiest.paidCount)} paid).`,
    );
  return parts.join(' ');
}

/** Last week up to the same hour of the day, for "so far" comparisons: the ledger adds it up (shared/ledger.ts). */
export { lastWeekSoFar };

/** Percent change, rounded: "+12 %", "−8 %", or null when last week had nothing to compare with. */
export function changeText(now: number, before: number): string | null {
  if (before <= 0) return null;
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct)} %`;
}

// ---- Orders search: the form and the query string ---------------------------------------------------

const ORDER_FILTERS = [
  'number',
  'film',
  'seat',
  'amount',
  'cashier',
  'counterId',
  'from',
  'to',
  'state',
  'practice',
  'paidAfterClosing',
  'branch',
] as const;
type OrderFilterName = (typeof ORDER_FILTERS)[number];
export type OrderFilterForm = Partial<Record<OrderFilterName, string>>;

/**
 * The form (as typed) to the API's query: empty fields dropped, the amount typed in naira ("1,500")
 * turned into amountKobo. Returns the problem in words when the amount is not an amount.
 */
export function ordersQuery(
  form: OrderFilterForm,
  parseNaira: (s: string) => number,
): { query: URLSearchParams; problem: string | null } {
  const q = new URLSearchParams();
  let problem: string | null = null;
  for (const k of ORDER_FILTERS) {
    const v = form[k]?.trim();
    if (!v) continue;
    if (k === 'amount') {
      try {
        q.set('amountKobo', String(parseNaira(v)));
      } catch {
        problem = `"${v}" is not an amount in naira (for example 1500 or 1,500.50).`;
      }
    } else if (k === 'practice' && v === 'exclude') continue;
    else q.set(k, v);
  }
  return { query: q, problem };
}

/** The query string back to the form (a bookmarked or edited URL), the amount shown in naira. */
export function formOfQuery(q: URLSearchParams): OrderFilterForm {
  const f: OrderFilterForm = {};
  for (const k of ORDER_FILTERS) {
    if (k === 'amount') {
      const kobo = q.get('amountKobo');
      if (kobo && /^\d+$/.test(kobo))
        f.amount = `${Math.floor(Number(kobo) / 100)}${Number(kobo) % 100 ? `.${String(Number(kobo) % 100).padStart(2, '0')}` : ''}`;
    } else {
      const v = q.get(k);
      if (v) f[k] = v;
    }
  }
  return f;
}
