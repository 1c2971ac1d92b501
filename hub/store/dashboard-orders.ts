// The dashboard's reads of orders over the projections (projections.ts): search with its filters
// and cursor, one order with its history, and what changed since a change id (the live feed). Every
// function takes the session's Scope first and builds its WHERE from it (scope.ts): a branch
// manager's query cannot reach another branch's rows. Today, shifts and counters: dashboard.ts.
import {
  lagosDayStart,
  ORDER_STATES_OPEN,
  type OrderDetail,
  type OrderRow,
  type OrdersPage,
  type OrdersQuery,
  type LateOnOrder,
} from '../../shared/hub-dashboard-contract';
import type { SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { counterInScope, Where, type Scope } from './scope';

export const DAY_MS = 86_400_000;
export type Row = Record<string, unknown>;
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const OPEN_LIST = ORDER_STATES_OPEN.map((s) => `'${s}'`).join(', ');

export const ORDER_COLUMNS = `o.id, o.counter_id, c.name as counter_name, o.branch, o.reference, o.order_no, o.pay_no, o.state, o.amount_kobo, o.tender, o.total_kobo, o.cash_part_kobo, o.film_name, o.film_title,
  o.show_date, o.show_time, o.seats, o.tickets, o.cashier, o.profile, o.practice, o.created_at, o.updated_at, o.change_id,
  case when o.outcome = 'paid_after_closing' then o.outcome_kobo end as paid_after_closing_kobo,
  (select json_build_object('kind', l.kind, 'providerStatus', l.provider_status, 'amountKobo', l.amount_kobo, 'at', coalesce(l.provider_at, l.at), 'payNo', l.pay_no, 'how', l.handled_how, 'by', l.handled_by, 'handledAt', l.handled_at)
     from dash_late l where l.counter_id = o.counter_id and l.reference = o.reference) as late`;

/** The late outcome's JSON (json_build_object: an object, or its text from some drivers) as the row's `late`. */
function lateOf(v: unknown): LateOnOrder | null {
  if (v === null || v === undefined) return null;
  const j = (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
  return {
    kind: j.kind === 'reported-otherwise' ? 'reported-otherwise' : 'paid-after-closing',
    providerStatus: String(j.providerStatus),
    amountKobo: num(j.amountKobo),
    at: num(j.at),
    payNo: j.payNo === null || j.payNo === undefined ? null : String(j.payNo),
    handled:
      j.handledAt === null || j.handledAt === undefined
        ? null
        : { how: j.how === 'refund' ? 'refund' : 'tickets-given', by: String(j.by), at: num(j.handledAt) },
  };
}

export const orderRow = (r: Row): OrderRow => ({
  id: String(r.id),
  counterId: String(r.counter_id),
  counterName: String(r.counter_name),
  branch: String(r.branch),
  reference: String(r.reference),
  orderNo: str(r.order_no),
  payNo: str(r.pay_no),
  state: String(r.state),
  amountKobo: num(r.amount_kobo),
  tender: r.tender === 'cash' || r.tender === 'split' ? r.tender : 'card',
  totalKobo: num(r.total_kobo),
  cashPartKobo: num(r.cash_part_kobo),
  filmName: str(r.film_name),
  filmTitle: str(r.film_title),
  showDate: str(r.show_date),
  showTime: str(r.show_time),
  seats: str(r.seats),
  tickets: numOrNull(r.tickets),
  cashier: str(r.cashier),
  profile: str(r.profile),
  practice: r.practice === true,
  paidAfterClosingKobo: numOrNull(r.paid_after_closing_kobo),
  late: lateOf(r.late),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

/** The next string after every string that starts with `s` (for a prefix range on a text_pattern_ops index). */
const prefixEnd = (s: string) => s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type OrderFilters = Omit<OrdersQuery, 'limit' | 'cursor'> & { cursor?: string };

function orderWhere(scope: Scope, f: OrderFilters, direction: 'asc' | 'desc'): Where {
  const w = new Where(scope, 'o.branch', f.branch);
  if (f.orderNo) {
    // The order number or its last digits: a prefix of the reversed number, on an index of reverse(order_no).
    const r = [...f.orderNo].reverse().join('');
    w.and(`reverse(o.order_no) ~>=~ ${w.p(r)} and reverse(o.order_no) ~<~ ${w.p(prefixEnd(r))}`);
  }
  if (f.number) {
    // One box for the three numbers a manager may hold: the sale number from a receipt (any case),
    // the provider order number (or its last digits), the payment number.
    const n = f.number;
    const either = [`o.reference = ${w.p(n.toUpperCase())}`, `o.reference = ${w.p(n)}`, `o.pay_no = ${w.p(n)}`];
    // The last digits of a sale number, as the counter finds them ("0004", "4": COU1-261127-0004).
    if (/^\d{1,16}$/.test(n)) either.push(`o.reference like ${w.p(`%${n}`)}`);
    if (/^[A-Za-z0-9-]{3,64}$/.test(n)) {
      const r = [...n].reverse().join('');
      either.push(`(reverse(o.order_no) ~>=~ ${w.p(r)} and reverse(o.order_no) ~<~ ${w.p(prefixEnd(r))})`);
    }
    w.and(either.join(' or '));
  }
  if (f.payNo) w.and(`o.pay_no = ${w.p(f.payNo)}`);
  if (f.reference) w.and(`o.reference = ${w.p(f.reference)}`);
  if (f.film) {
    const p = w.p(`%${likeEscape(f.film)}%`);
    w.and(`o.film_name ilike ${p} or o.film_title ilike ${p}`);
  }
  if (f.seat) w.and(`',' || o.seats || ',' like ${w.p(`%,${f.seat},%`)}`);
  if (f.amountKobo !== undefined) {
    const a = w.p(f.amountKobo);
    w.and(`o.amount_kobo = ${a} or o.total_kobo = ${a}`);
  }
  if (f.cashier) w.and(`o.cashier = ${w.p(f.cashier)}`);
  if (f.counterId) w.and(`o.counter_id = ${w.p(f.counterId)}`);
  if (f.from) w.and(`o.created_at >= ${w.p(lagosDayStart(f.from))}`);
  if (f.to) w.and(`o.created_at < ${w.p(lagosDayStart(f.to) + DAY_MS)}`);
  if (f.state) w.and(`o.state = ${w.p(f.state)}`);
  if (f.practice === 'exclude') w.and('not o.practice');
  if (f.practice === 'only') w.and('o.practice');
  // The sales that ended paid after closing (their ledger row: shared/ledger-row.ts).
  if (f.paidAfterClosing === 'only') w.and(`o.outcome = 'paid_after_closing'`);
  if (f.cursor) {
    const [at, id] = f.cursor.split('.');
    w.and(`(o.created_at, o.id) ${direction === 'desc' ? '<' : '>'} (${w.p(Number(at))}::bigint, ${w.p(id)}::bigint)`);
  }
  return w;
}

/** One page of the search, newest first (or oldest first for exports); nextCursor continues it. */
export async function searchOrders(
  q: SqlRunner,
  scope: Scope,
  f: OrderFilters,
  limit: number,
  direction: 'asc' | 'desc' = 'desc',
): Promise<OrdersPage> {
  if (f.counterId) {
    // A counter belongs to one branch: one outside the scope (or the branch asked for) has no orders
    // here, answered at once instead of by scanning the branch for rows that cannot match.
    const c = await counterInScope(q, scope, f.counterId);
    if (!c || (f.branch && c.branch !== f.branch)) return { orders: [], nextCursor: null };
  }
  const w = orderWhere(scope, f, direction);
  const rows = await q.query<Row>(
    `select ${ORDER_COLUMNS} from dash_orders o join counters c on c.id = o.counter_id ${w.sql()}
      order by o.created_at ${direction}, o.id ${direction} limit ${w.p(limit + 1)}`,
    w.params,
  );
  const page = rows.slice(0, limit).map(orderRow);
  const last = page[page.length - 1];
  return { orders: page, nextCursor: rows.length > limit && last ? `${last.createdAt}.${last.id}` : null };
}

export async function orderDetail(q: SqlRunner, scope: Scope, id: string): Promise<OrderDetail | null> {
  const w = new Where(scope, 'o.branch');
  w.and(`o.id = ${w.p(id)}`);
  const rows = await q.query<Row>(
    `select ${ORDER_COLUMNS} from dash_orders o join counters c on c.id = o.counter_id ${w.sql()}`,
    w.params,
  );
  if (!rows[0]) return null;
  const ev = await q.query<Row>(
    'select seq, kind, at, received_at, status, order_no, pay_no, note from dash_order_events where order_id = $1 order by seq',
    [id],
  );
  return {
    order: orderRow(rows[0]),
    history: ev.map((e) => ({
      seq: num(e.seq),
      kind: String(e.kind),
      at: num(e.at),
      receivedAt: num(e.received_at),
      status: str(e.status),
      orderNo: str(e.order_no),
      payNo: str(e.pay_no),
      note: str(e.note),
    })),
  };
}

/** Orders changed by one committed batch of a counter (the live feed), within the scope. */
export async function changedOrders(
  q: SqlRunner,
  scope: Scope,
  counterId: string,
  low: number,
  high: number,
  branchFilter?: string,
): Promise<(OrderRow & { changeId: number })[]> {
  const w = new Where(scope, 'o.branch', branchFilter);
  w.and(`o.change_id between ${w.p(low)} and ${w.p(high)}`).and(`o.counter_id = ${w.p(counterId)}`);
  const rows = await q.query<Row>(
    `select ${ORDER_COLUMNS} from dash_orders o join counters c on c.id = o.counter_id ${w.sql()} order by o.change_id`,
    w.params,
  );
  return rows.map((r) => ({ ...orderRow(r), changeId: num(r.change_id) }));
}

/** Orders changed after a change number (resuming the live feed), oldest change first. */
export async function ordersChangedSince(
  q: SqlRunner,
  scope: Scope,
  after: number,
  limit: number,
  branchFilter?: string,
): Promise<(OrderRow & { changeId: number })[]> {
  const w = new Where(scope, 'o.branch', branchFilter);
  w.and(`o.change_id > ${w.p(after)}`);
  const rows = await q.query<Row>(
    `select ${ORDER_COLUMNS} from dash_orders o join counters c on c.id = o.counter_id ${w.sql()} order by o.change_id limit ${w.p(limit)}`,
    w.params,
  );
  return rows.map((r) => ({ ...orderRow(r), changeId: num(r.change_id) }));
}

export async function lastChangeId(q: SqlRunner): Promise<number> {
  return num((await q.query<{ m: unknown }>('select coalesce(max(change_id), 0) as m from dash_orders'))[0]!.m);
}
