// The dashboard's sales by category and by tender (Today, each shift) and the items export, summed
// by SQL over the projection: the lines of each synced sale (dash_order_lines, projection-lines.ts)
// and its tender columns on dash_orders. A sale counts where the ledger counts it
// (shared/ledger-row.ts, the order's counted_at): its lines when it is inside the card total
// (in_card), its tender when it is paid (the ledger's tender lines, shared/tender-lines.ts). Demo
// and Sandbox sales are never in it. Scoped like every dashboard read (scope.ts).
import { LAGOS_OFFSET_MS } from '../../shared/hub-dashboard-contract';
import type { SalesMix } from '../../shared/hub-sales-contract';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { DAY_MS, type Row } from './dashboard-orders';
import { Where, type Scope } from './scope';

/** A line's group: tickets, or concessions (items and combos alike, by category). */
const KIND = "case when l.kind = 'tickets' then 'tickets' else 'concessions' end";
const TENDERS = ['card', 'cash', 'split'] as const;
const emptyMix = (): SalesMix => ({
  categories: [],
  tenders: TENDERS.map((tender) => ({ tender, count: 0, totalKobo: 0, cashKobo: 0, cardKobo: 0 })),
  totalKobo: 0,
  cashKobo: 0,
  cardKobo: 0,
});

/** Where the orders come from: `from` names `o` (dash_orders), `key` what each mix is of, `where` the filter (without in_card/outcome). */
interface Source {
  from: string;
  key: string;
  where: string;
  params: unknown[];
}

/** The mixes of a source's keys (a key with no sale has none: the caller takes `emptyMix`). */
async function mixes(q: SqlRunner, s: Source): Promise<Map<string, SalesMix>> {
  const and = s.where ? `${s.where} and` : 'where';
  const cats = await q.query<Row>(
    `select ${s.key} as key, grouping(l.category) as whole, ${KIND} as kind, l.category,
            sum(l.quantity) as quantity, sum(l.amount_kobo) as amount, sum(l.fee_kobo) as fee, sum(l.amount_kobo + l.fee_kobo) as total
       from ${s.from} join dash_order_lines l on l.order_id = o.id
       ${and} o.in_card
      group by grouping sets ((${s.key}, ${KIND}, l.category), (${s.key}))
      order by 1, 2, 3 desc, l.category`,
    s.params,
  );
  const tenders = await q.query<Row>(
    `select ${s.key} as key, grouping(o.tender) as whole, o.tender, count(*) as n,
            sum(o.total_kobo) as total, sum(o.cash_part_kobo) as cash, sum(o.card_part_kobo) as card
       from ${s.from} ${and} o.outcome = 'paid'
      group by grouping sets ((${s.key}, o.tender), (${s.key}))`,
    s.params,
  );
  const out = new Map<string, SalesMix>();
  const mixOf = (k: unknown) => {
    const key = String(k);
    let m = out.get(key);
    if (!m) out.set(key, (m = emptyMix()));
    return m;
  };
  for (const r of cats) {
    const m = mixOf(r.key);
    if (num(r.whole) === 1) {
      m.totalKobo = num(r.total);
      continue;
    }
    const amountKobo = num(r.amount);
    if (r.kind === 'tickets') {
      m.categories.push({ kind: 'tickets', category: String(r.category), quantity: num(r.quantity), amountKobo });
      m.categories.push({ kind: 'fees', category: 'Booking fees', quantity: 0, amountKobo: num(r.fee) });
    } else
      m.categories.push({ kind: 'concessions', category: String(r.category), quantity: num(r.quantity), amountKobo });
  }
  for (const r of tenders) {
    const m = mixOf(r.key);
    if (num(r.whole) === 1) {
      m.cashKobo = num(r.cash);
      m.cardKobo = num(r.card);
      continue;
    }
    const t = m.tenders.find((x) => x.tender === r.tender);
    if (t) Object.assign(t, { count: num(r.n), totalKobo: num(r.total), cashKobo: num(r.cash), cardKobo: num(r.card) });
  }
  return out;
}

/** Today's sales by category and tender: the real sales the ledger counts in [from, to). */
export async function daySales(
  q: SqlRunner,
  scope: Scope,
  from: number,
  to: number,
  branchFilter?: string,
): Promise<SalesMix> {
  const w = new Where(scope, 'o.branch', branchFilter);
  w.and(`o.counted_at >= ${w.p(from)} and o.counted_at < ${w.p(to)}`).and('not o.practice');
  const m = await mixes(q, { from: 'dash_orders o', key: "'day'::text", where: w.sql(), params: w.params });
  return m.get('day') ?? emptyMix();
}

/** A shift as its sales are counted: its counter's, from its opening to its close (still open: to now and on). */
export interface ShiftWindow {
  counterId: string;
  shiftId: string;
  openedAt: number;
  closedAt: number | null;
  practice: boolean;
}
export const shiftKey = (s: Pick<ShiftWindow, 'counterId' | 'shiftId'>) => `${s.counterId}|${s.shiftId}`;

/** Each shift's sales by category and tender (the shifts already read in the manager's scope). */
export async function shiftSales(q: SqlRunner, list: readonly ShiftWindow[]): Promise<Map<string, SalesMix>> {
  if (!list.length) return new Map();
  const m = await mixes(q, {
    from: `unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::boolean[]) as w(key, counter_id, from_at, to_at, practice)
           join dash_orders o on o.counter_id = w.counter_id and o.counted_at >= w.from_at
            and (w.to_at is null or o.counted_at < w.to_at) and o.practice = w.practice`,
    key: 'w.key',
    where: '',
    params: [
      list.map(shiftKey),
      list.map((s) => s.counterId),
      list.map((s) => s.openedAt),
      list.map((s) => s.closedAt),
      list.map((s) => s.practice),
    ],
  });
  return new Map(list.map((s) => [shiftKey(s), m.get(shiftKey(s)) ?? emptyMix()]));
}

/** A row of the items export: one kind of line of one branch on one Lagos day. */
export interface ItemsSoldRow {
  day: string;
  branch: string;
  kind: string;
  code: string;
  name: string;
  category: string;
  quantity: number;
  amountKobo: number;
  bookingFeeKobo: number;
}

/** Everything sold (tickets by type, items, combos) per branch and Lagos day, from `from` to `to` (days, both in). */
export async function itemsSold(
  q: SqlRunner,
  scope: Scope,
  fromMs: number,
  toMs: number,
  branchFilter?: string,
): Promise<ItemsSoldRow[]> {
  const w = new Where(scope, 'o.branch', branchFilter);
  w.and(`o.counted_at >= ${w.p(fromMs)} and o.counted_at < ${w.p(toMs)}`)
    .and('o.in_card')
    .and('not o.practice');
  const off = w.p(LAGOS_OFFSET_MS);
  const rows = await q.query<Row>(
    `select ((o.counted_at + ${off}) / ${DAY_MS})::bigint as dayno, o.branch, l.kind, l.code, l.name, l.category,
            sum(l.quantity) as quantity, sum(l.amount_kobo) as amount, sum(l.fee_kobo) as fee
       from dash_orders o join dash_order_lines l on l.order_id = o.id ${w.sql()}
      group by 1, 2, 3, 4, 5, 6
      order by 1, 2, case l.kind when 'tickets' then 0 else 1 end, 6, 4, 5`,
    w.params,
  );
  return rows.map((r) => ({
    day: new Date(num(r.dayno) * DAY_MS).toISOString().slice(0, 10),
    branch: String(r.branch),
    kind: String(r.kind),
    code: String(r.code),
    name: String(r.name),
    category: String(r.category),
    quantity: num(r.quantity),
    amountKobo: num(r.amount),
    bookingFeeKobo: num(r.fee),
  }));
}
