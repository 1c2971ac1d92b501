// Every date, time, amount and count the renderer shows, in one place. Formatters are built once
// (building an Intl formatter costs far more than using it); money is en-NG naira from integer
// kobo, times are Africa/Lagos whatever the machine's zone. Forms and orders keep their raw values.
import { formatNaira } from '../../shared/money';
import { formatLagosDateTime, formatLagosTime, LAGOS_TZ } from '../../shared/time';

export { formatLagosDateTime, formatLagosTime, formatNaira };

const showDate = new Intl.DateTimeFormat('en-NG', {
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const dayMonth = new Intl.DateTimeFormat('en-GB', { timeZone: LAGOS_TZ, day: '2-digit', month: 'short' });
const count = new Intl.NumberFormat('en-NG');

/** "2025-03-31" -> "Mon, 31 Mar 2025" (a calendar date, so no time zone can move the day); other text unchanged. */
export function showDateText(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (!m) return date;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12));
  if (d.getUTCMonth() !== Number(m[2]) - 1) return date;
  return showDate.format(d);
}

/** The Lagos day of an instant as "21 Nov". */
export function formatDayMonth(ms: number): string {
  return dayMonth.format(ms);
}

/** A count with thousands separators: 12,500. */
export function formatCount(n: number): string {
  return count.format(n);
}

const megabytes = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 1 });

/** A file size: "12 KB" under a megabyte (never "0 KB"), "3.5 MB" above. */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${megabytes.format(bytes / (1024 * 1024))} MB`;
}

/** Milliseconds left as mm:ss (never negative). */
export function mmss(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** How long since `from`: "45 min", "2 h 05 min". */
export function elapsedText(from: number, now: number): string {
  const min = Math.max(0, Math.floor((now - from) / 60_000));
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}
