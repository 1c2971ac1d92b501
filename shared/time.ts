// Times are shown in Africa/Lagos whatever the machine's zone is.

export const LAGOS_TZ = 'Africa/Lagos';

const dateTime = new Intl.DateTimeFormat('en-NG', {
  timeZone: LAGOS_TZ, year: 'numeric', month: 'short', day: '2-digit',
  hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false,
});
const timeOnly = new Intl.DateTimeFormat('en-NG', { timeZone: LAGOS_TZ, hour: '2-digit', minute: '2-digit', hour12: false });

export function formatLagosDateTime(ms: number): string {
  return dateTime.format(new Date(ms));
}
export function formatLagosTime(ms: number): string {
  return timeOnly.format(new Date(ms));
}

// Formatters are built once: constructing one costs far more than using it (it is on the sale path).
const isoDay = new Intl.DateTimeFormat('en-CA', { timeZone: LAGOS_TZ, year: 'numeric', month: '2-digit', day: '2-digit' });
const hm = new Intl.DateTimeFormat('en-GB', { timeZone: LAGOS_TZ, hour: '2-digit', minute: '2-digit', hour12: false });

/** yyyy-MM-dd of the instant in Lagos (en-CA formats dates that way). */
export function lagosDate(ms: number): string {
  return isoDay.format(new Date(ms));
}

/** HH:mm of the instant in Lagos. */
export function lagosHm(ms: number): string {
  return hm.format(new Date(ms));
}
