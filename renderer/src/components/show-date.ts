// The show date as people read it; the form and the order keep yyyy-MM-dd.

/** "2025-03-31" -> "Mon, 31 Mar 2025" (a calendar date, so no time zone can move the day); other text unchanged. */
export function showDateText(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (!m) return date;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12));
  if (d.getUTCMonth() !== Number(m[2]) - 1) return date;
  return new Intl.DateTimeFormat('en-NG', { weekday: 'short', day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(d);
}
