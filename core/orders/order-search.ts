// Finding orders again in the journal: words typed by the cashier (parts of order numbers, film,
// a seat, an amount, a card's last four digits), states, Lagos days and times, newest first, a
// page at a time. Words go through this module's trigram index and the amount index; pages are
// keyset (the thousandth page costs what the first does). Read-only over the journal.
import { parseNaira } from '../../shared/money';
import { DAY_MS, lagosDayStart, lagosInstant } from '../../shared/time';
import type { OrderState } from '../../shared/orders';
import { cardTotalOf } from '../../shared/ledger';
import { SEAT_LABEL_RE } from '../../shared/seat-list';
import type { Db } from '../db';

/** @internal for tests */
export interface SearchQuery {
  text: string;
  states: OrderState[];
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit: number;
  /** Demo sales are play money: found only when asked for. */
  includeDemo?: boolean | undefined;
  /** Only sales paid after the counter closed them. */
  paidAfterClosing?: boolean | undefined;
  /** HH:mm (Lagos) on the day `from`: the window starts then (else at 00:00). */
  fromTime?: string | undefined;
  /** HH:mm (Lagos) on the day `to`: the window ends with that minute (else with the day). */
  toTime?: string | undefined;
}

interface SearchResult {
  ids: number[];
  total: number;
  paid: { count: number; amountKobo: number };
  /** Of those found, the ones the provider paid after the counter closed them (money taken all the same). */
  paidAfterClosing: { count: number; amountKobo: number };
  /** What of the found orders is in the card total (shared/ledger.ts `cardTotalOf`): paid and paid after closing, less refunds to be arranged. */
  cardTotal: { count: number; amountKobo: number };
  next: string | null;
}

const MAX_WORDS = 5;
/** The orders the provider paid after the counter closed them. */
const LATE_PAID = "(SELECT order_id FROM order_late WHERE kind = 'paid-after-closing')";
/** Of those, the ones the cashier marked "customer gone: refund to be arranged" (out of the card total). */
const LATE_REFUND = "(SELECT order_id FROM order_late WHERE kind = 'paid-after-closing' AND handled_how = 'refund')";
const ZERO = { count: 0, amountKobo: 0 };
const totals = (pc: number, pk: number, lc: number, lk: number, rc: number, rk: number) => {
  const paid = { count: pc, amountKobo: pk };
  const paidAfterClosing = { count: lc, amountKobo: lk };
  return { paid, paidAfterClosing, cardTotal: cardTotalOf([paid, paidAfterClosing], { count: rc, amountKobo: rk }) };
};
/** One or two digits: too short for the trigram index, read as the last digits of a sale number ("1", "01" find …-0001). */
const SHORT_DIGITS_RE = /^\d{1,2}$/;

function parseCursor(c: string | undefined): { at: number; id: number } | null {
  if (!c) return null;
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(c);
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

/**
 * The orders one typed word can mean, as a SELECT of ids: a part of an order number or of the film
 * (three characters or more: the index is of trigrams), the last one or two digits of a sale
 * number, a whole seat, or the amount in naira.
 */
function wordHits(word: string, args: unknown[]): string | null {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const match: string[] = [];
  if ([...word].length >= 3) match.push(`refs : ${q(word)}`, `film : ${q(word)}`);
  if (SEAT_LABEL_RE.test(word.toUpperCase())) match.push(`seats : ${q(`#${word}#`)}`);
  const parts: string[] = [];
  if (match.length) {
    parts.push('SELECT rowid AS id FROM records_order_text WHERE records_order_text MATCH ?');
    args.push(match.join(' OR '));
  }
  if (SHORT_DIGITS_RE.test(word)) {
    parts.push('SELECT id FROM orders WHERE out_order_no LIKE ?');
    args.push(`%${word}`);
  }
  let kobo = 0;
  try {
    kobo = parseNaira(word);
  } catch {
    // not an amount
  }
  if (kobo > 0) {
    parts.push('SELECT id FROM orders WHERE amount_kobo = ?');
    args.push(kobo);
  }
  return parts.length ? parts.join(' UNION ') : null;
}

export function searchOrders(db: Db, q: SearchQuery): SearchResult {
  const where: string[] = [];
  const args: unknown[] = [];

  const words = q.text
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, MAX_WORDS);
  if (words.length) {
    const hitArgs: unknown[] = [];
    const sets = words.map((w) => wordHits(w, hitArgs));
    // A word that can mean nothing (a lone "-") matches nothing.
    if (sets.some((s) => s === null))
      return {
        ids: [],
        total: 0,
        paid: ZERO,
        paidAfterClosing: ZERO,
        cardTotal: ZERO,
        next: null,
      };
    where.push(`id IN (${sets.map((s) => `SELECT id FROM (${s})`).join(' INTERSECT ')})`);
    args.push(...hitArgs);
  }
  if (q.states.length > 0) {
    where.push(`state IN (${q.states.map(() => '?').join(',')})`);
    args.push(...q.states);
  }
  if (!q.includeDemo) where.push("profile <> 'demo'");
  if (q.paidAfterClosing) where.push(`id IN ${LATE_PAID}`);
  if (q.from) {
    where.push('created_at >= ?');
    args.push(q.fromTime ? lagosInstant(q.from, q.fromTime) : lagosDayStart(q.from));
  }
  if (q.to) {
    where.push('created_at < ?');
    args.push(q.toTime ? lagosInstant(q.to, q.toTime) + 60_000 : lagosDayStart(q.to) + DAY_MS);
  }

  const cur = parseCursor(q.cursor);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';

  if (words.length) {
    // Typed words: the text index is matched once, and the totals and the page both come from that
    // one pass (matching twice cost twice as much for a broad word such as a film's name).
    const rows = db
      .prepare(
        `SELECT id, created_at, state, amount_kobo, id IN ${LATE_PAID}, id IN ${LATE_REFUND} FROM orders ${filter}`,
      )
      .raw()
      .all(...args) as [number, number, string, number, number, number][];
    let pc = 0;
    let pk = 0;
    let lc = 0;
    let lk = 0;
    let rc = 0;
    let rk = 0;
    for (const r of rows) {
      if (r[2] === 'paid') {
        pc++;
        pk += r[3];
      }
      if (r[4]) {
        lc++;
        lk += r[3];
      }
      if (r[5]) {
        rc++;
        rk += r[3];
      }
    }
    const after = cur ? rows.filter((r) => r[1] < cur.at || (r[1] === cur.at && r[0] < cur.id)) : rows;
    after.sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    const page = after.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      ids: page.map((r) => r[0]),
      total: rows.length,
      ...totals(pc, pk, lc, lk, rc, rk),
      next: after.length > q.limit && last ? `${last[1]}.${last[0]}` : null,
    };
  }

  const sums = db
    .prepare(
      `SELECT COUNT(*) AS n, COALESCE(SUM(state = 'paid'), 0) AS pc, COALESCE(SUM(CASE WHEN state = 'paid' THEN amount_kobo END), 0) AS pk,
      COALESCE(SUM(id IN ${LATE_PAID}), 0) AS lc, COALESCE(SUM(CASE WHEN id IN ${LATE_PAID} THEN amount_kobo END), 0) AS lk,
      COALESCE(SUM(id IN ${LATE_REFUND}), 0) AS rc, COALESCE(SUM(CASE WHEN id IN ${LATE_REFUND} THEN amount_kobo END), 0) AS rk FROM orders ${filter}`,
    )
    .get(...args) as { n: number; pc: number; pk: number; lc: number; lk: number; rc: number; rk: number };

  const pageWhere = cur ? [...where, '(created_at < ? OR (created_at = ? AND id < ?))'] : where;
  const pageArgs = cur ? [...args, cur.at, cur.at, cur.id] : args;
  const rows = db
    .prepare(
      `SELECT id, created_at FROM orders ${pageWhere.length ? `WHERE ${pageWhere.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(...pageArgs, q.limit + 1) as { id: number; created_at: number }[];
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return {
    ids: page.map((r) => r.id),
    total: sums.n,
    ...totals(sums.pc, sums.pk, sums.lc, sums.lk, sums.rc, sums.rk),
    next: more && last ? `${last.created_at}.${last.id}` : null,
  };
}
