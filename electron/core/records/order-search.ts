// Finding orders again in the journal: words typed by the cashier (order numbers or parts of them,
// film, seat, amount), states and Lagos days, newest first, a page at a time (keyset paging: a
// page costs the same on the first and on the thousandth page). Read-only SQL.
import { parseNaira } from '../../../shared/money';
import type { OrderState } from '../../../shared/orders';
import type { Db } from '../db/database';

export interface SearchQuery {
  text: string;
  states: OrderState[];
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

export interface SearchResult {
  ids: number[];
  total: number;
  next: string | null;
}

const LAGOS_OFFSET_MS = 3_600_000; // Africa/Lagos is UTC+1 all year (no daylight saving).
const MAX_WORDS = 5;

/** The first instant of a Lagos calendar day. */
export function lagosDayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) - LAGOS_OFFSET_MS;
}

function parseCursor(c: string | undefined): { at: number; id: number } | null {
  if (!c) return null;
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(c);
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

/** One typed word matches an order when it is part of an order number, the film, a whole seat, or the amount. */
function wordCondition(word: string, args: unknown[]): string {
  const upper = word.toUpperCase();
  const lower = word.toLowerCase();
  const parts = [
    'instr(out_order_no, ?) > 0',
    "instr(ifnull(order_no, ''), ?) > 0",
    "instr(ifnull(pay_no, ''), ?) > 0",
    'instr(lower(film_name), ?) > 0',
    'instr(lower(film_title), ?) > 0',
    "instr(',' || seats || ',', ?) > 0",
  ];
  args.push(upper, word, word, lower, lower, `,${upper},`);
  try {
    const kobo = parseNaira(word);
    if (kobo > 0) {
      parts.push('amount_kobo = ?');
      args.push(kobo);
    }
  } catch {
    // not an amount
  }
  return `(${parts.join(' OR ')})`;
}

export function searchOrders(db: Db, q: SearchQuery): SearchResult {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.states.length > 0) {
    where.push(`state IN (${q.states.map(() => '?').join(',')})`);
    args.push(...q.states);
  }
  if (q.from) {
    where.push('created_at >= ?');
    args.push(lagosDayStart(q.from));
  }
  if (q.to) {
    where.push('created_at < ?');
    args.push(lagosDayStart(q.to) + 86_400_000);
  }
  const words = q.text.split(/\s+/).filter((w) => w !== '').slice(0, MAX_WORDS);
  for (const w of words) where.push(wordCondition(w, args));

  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM orders INDEXED BY records_orders_search ${filter}`).get(...args) as { n: number }).n;

  const cur = parseCursor(q.cursor);
  const pageWhere = cur ? [...where, '(created_at < ? OR (created_at = ? AND id < ?))'] : where;
  const pageArgs = cur ? [...args, cur.at, cur.at, cur.id] : args;
  const rows = db
    .prepare(`SELECT id, created_at FROM orders INDEXED BY records_orders_search ${pageWhere.length ? `WHERE ${pageWhere.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .all(...pageArgs, q.limit + 1) as { id: number; created_at: number }[];
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return { ids: page.map((r) => r.id), total, next: more && last ? `${last.created_at}.${last.id}` : null };
}
