// The Orders screen's filters in words, for the result line and the "nothing found" line: so a
// time window or a state chosen earlier is never a hidden reason for an empty list.
import type { OrderState } from '../../../../shared/orders';
import { lagosDate } from '../../../../shared/time';
import type { OrderQuery } from '../../stores/orders-store';
import { showDateText } from '../../format';

export const STATE_FILTERS: { label: string; states: OrderState[] }[] = [
  { label: 'Paid', states: ['paid'] },
  { label: 'Failed', states: ['failed'] },
  { label: 'Cancelled', states: ['cancelled'] },
  { label: 'Expired', states: ['expired'] },
  { label: 'Checking the payment', states: ['unknown'] },
  { label: 'Not finished', states: ['queued', 'creating', 'waiting'] },
];

function dayName(date: string, today: string): string {
  return date === today ? 'today' : showDateText(date);
}

/** The day and time window in words, or null when it is today's whole day (the default) or every day. */
function windowText(q: OrderQuery, now = Date.now()): string | null {
  const today = lagosDate(now);
  const fromTime = q.fromTime ?? '';
  const toTime = q.toTime ?? '';
  if (!fromTime && !toTime && ((q.from === today && q.to === today) || (!q.from && !q.to))) return null;
  if (q.from && q.from === q.to) {
    const times =
      fromTime && toTime ? ` ${fromTime}–${toTime}` : fromTime ? ` from ${fromTime}` : toTime ? ` until ${toTime}` : '';
    return `${dayName(q.from, today)}${times}`;
  }
  const end = (d: string, t: string) => (d ? `${dayName(d, today)}${t ? ` ${t}` : ''}` : 'any day');
  return `${end(q.from, fromTime)} to ${end(q.to, toTime)}`;
}

/** Every filter that narrows the list, in words ([] for today's orders, nothing else). */
export function activeFilters(q: OrderQuery, now = Date.now()): string[] {
  const out: string[] = [];
  if (q.text.trim()) out.push(`“${q.text.trim()}”`);
  const w = windowText(q, now);
  if (w) out.push(w);
  for (const f of STATE_FILTERS) if (f.states.every((s) => q.states.includes(s))) out.push(f.label);
  if (q.paidAfterClosing) out.push('only paid after closing');
  return out;
}
