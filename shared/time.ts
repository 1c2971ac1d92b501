// Times are shown in Africa/Lagos whatever the machine's zone is. Lagos has kept West Africa Time
// (UTC+01:00) all year since 1919, with no daylight saving: a Lagos calendar day or clock time is the
// UTC one shifted by an hour, so the arithmetic below needs no time-zone database. The one place
// for Lagos days: the counter, the Hub and the dashboard all use it.

export const LAGOS_TZ = 'Africa/Lagos';
export const LAGOS_OFFSET_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const dateTime = new Intl.DateTimeFormat('en-NG', {
  timeZone: LAGOS_TZ,
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const timeOnly = new Intl.DateTimeFormat('en-NG', {
  timeZone: LAGOS_TZ,
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** As the cashier reads it ("25 Nov 2026, 14:30:05"). */
export function formatLagosDateTime(ms: number): string {
  return dateTime.format(new Date(ms));
}
export function formatLagosTime(ms: number): string {
  return timeOnly.format(new Date(ms));
}

/** yyyy-MM-ddTHH:mm:ss of the instant in Lagos: sortable, for stamps in names and files. */
export function lagosIso(ms: number): string {
  return new Date(ms + LAGOS_OFFSET_MS).toISOString().slice(0, 19);
}

/** The Lagos calendar day (yyyy-MM-dd) of the instant. */
export function lagosDate(ms: number): string {
  return lagosIso(ms).slice(0, 10);
}

/** HH:mm of the instant in Lagos. */
export function lagosHm(ms: number): string {
  return lagosIso(ms).slice(11, 16);
}

/** The instant a Lagos date and time ("2025-03-31", "19:30") stand for, as ms since the epoch. */
export function lagosInstant(date: string, time = '00:00'): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  return Date.UTC(y, mo - 1, d, h, mi) - LAGOS_OFFSET_MS;
}

/** The first instant (00:00) of a Lagos day. */
export function lagosDayStart(day: string): number {
  return lagosInstant(day);
}

/** The Lagos day `n` days after `day` (before, when n is negative). */
export function addDays(day: string, n: number): string {
  return lagosDate(lagosDayStart(day) + n * DAY_MS);
}
