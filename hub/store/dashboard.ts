// The dashboard's reads over the projections (projections.ts) and the counters, notifications and
// deliveries tables. Every function takes the session's Scope first and builds its WHERE from it
// (scope.ts): a branch manager's query cannot reach another branch's rows.
import {
  addDays,
  lagosDayStart,
  ORDER_STATES_OPEN,
  type DashCounter,
  type OrderDetail,
  type OrderRow,
  type OrdersPage,
  type OrdersQuery,
  type LateOnOrder,
  type ShiftRow,
  type ShiftsView,
  type Tally,
  type TodayView,
} from '../../shared/hub-dashboard-contract';
import { addDayTally, dayTally, emptyDayTally, shiftDayTotals } from '../../shared/ledger';
import type { SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { Where, type Scope } from './scope';

const DAY_MS = 86_400_000;
export type Row = Record<string, unknown>;
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const OPEN_LIST = ORDER_STATES_OPEN.map((s) => `'${s}'`).join(', ');

// ---- Orders ------------------------------------------------------------------------------------

export const ORDER_COLUMNS = `o.id, o.counter_id, c.name as counter_name, o.branch, o.reference, o.order_no, o.pay_no, o.state, o.amount_kobo, o.film_name, o.film_title,
  o.show_date, o.show_time, o.seats, o.tickets, o.cashier, o.profile, o.practice, o.created_at, o.updated_at, o.change_id,
  (select l.amount_kobo from dash_late l where l.counter_id = o.counter_id and l.reference = o.reference and l.kind = 'paid-after-closing') as paid_after_closing_kobo,
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
  if (f.amountKobo !== undefined) w.and(`o.amount_kobo = ${w.p(f.amountKobo)}`);
  if (f.cashier) w.and(`o.cashier = ${w.p(f.cashier)}`);
  if (f.counterId) w.and(`o.counter_id = ${w.p(f.counterId)}`);
  if (f.from) w.and(`o.created_at >= ${w.p(lagosDayStart(f.from))}`);
  if (f.to) w.and(`o.created_at < ${w.p(lagosDayStart(f.to) + DAY_MS)}`);
  if (f.state) w.and(`o.state = ${w.p(f.state)}`);
  if (f.practice === 'exclude') w.and('not o.practice');
  if (f.practice === 'only') w.and('o.practice');
  if (f.paidAfterClosing === 'only')
    w.and(
      `exists (select 1 from dash_late l where l.counter_id = o.counter_id and l.reference = o.reference and l.kind = 'paid-after-closing')`,
    );
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

// ---- Today -------------------------------------------------------------------------------------

// The day's figures are the ledger's (shared/ledger.ts `dayTally`): SQL only counts and groups.
const zero = (): Tally => emptyDayTally();
const addInto = (a: Tally, b: Tally) => addDayTally(a, b);
const bucket = (count: unknown, kobo: unknown) => ({ count: num(count), amountKobo: num(kobo) });

export async function today(q: SqlRunner, scope: Scope, day: string, branchFilter?: string): Promise<TodayView> {
  const from = lagosDayStart(day);
  const to = from + DAY_MS;
  const lastWeekDay = addDays(day, -7);
  const lwFrom = lagosDayStart(lastWeekDay);

  const ow = new Where(scope, 'o.branch', branchFilter);
  ow.and(`o.created_at >= ${ow.p(from)} and o.created_at < ${ow.p(to)}`);
  const orders = await q.query<Row>(
    `select o.practice, o.branch, o.counter_id, coalesce(o.cashier, '') as cashier,
            count(*) filter (where o.state = 'paid') as paid_count, coalesce(sum(o.amount_kobo) filter (where o.state = 'paid'), 0) as paid_kobo,
            count(*) filter (where o.state = 'failed') as failed_count, count(*) filter (where o.state = 'cancelled') as cancelled_count,
            count(*) filter (where o.state = 'expired') as expired_count, count(*) filter (where o.state in (${OPEN_LIST})) as open_count
       from dash_orders o ${ow.sql()} group by 1, 2, 3, 4`,
    ow.params,
  );
  const tw = new Where(scope, 't.branch', branchFilter);
  tw.and(`t.created_at >= ${tw.p(from)} and t.created_at < ${tw.p(to)}`).and(`t.state = 'success'`);
  const topups = await q.query<Row>(
    `select t.practice, t.branch, t.counter_id, count(*) as n, coalesce(sum(t.amount_kobo), 0) as kobo from dash_topups t ${tw.sql()} group by 1, 2, 3`,
    tw.params,
  );
  // Money taken after closing, on the day it was taken (an order the counter later saw paid is already in paid_kobo).
  // What the counter marked "refund to be arranged" goes back to the customer: not kept, so not taken.
  const lw = new Where(scope, 'l.branch', branchFilter);
  lw.and(`l.at >= ${lw.p(from)} and l.at < ${lw.p(to)}`)
    .and(`l.kind = 'paid-after-closing'`)
    .and(`o.state is null or o.state <> 'paid'`);
  const kept = `l.handled_how is distinct from 'refund'`;
  const late = await q.query<Row>(
    `select l.practice, l.branch, l.counter_id, coalesce(l.cashier, '') as cashier,
            count(*) filter (where ${kept}) as n, coalesce(sum(l.amount_kobo) filter (where ${kept}), 0) as kobo,
            count(*) filter (where not (${kept})) as refund_n, coalesce(sum(l.amount_kobo) filter (where not (${kept})), 0) as refund_kobo
       from dash_late l left join dash_orders o on o.id = l.order_id ${lw.sql()} group by 1, 2, 3, 4`,
    lw.params,
  );
  const cw = new Where(scope, 'c.branch', branchFilter);
  const names = new Map(
    (await q.query<Row>(`select c.id, c.name from counters c ${cw.sql()}`, cw.params)).map((r) => [
      String(r.id),
      String(r.name),
    ]),
  );

  const totals = zero();
  const practice = zero();
  const branches = new Map<string, TodayView['branches'][number]>();
  const counterOf = (branch: string, counterId: string) => {
    let b = branches.get(branch);
    if (!b) branches.set(branch, (b = { branch, ...zero(), counters: [] }));
    let c = b.counters.find((x) => x.counterId === counterId);
    if (!c)
      b.counters.push((c = { counterId, counterName: names.get(counterId) ?? counterId, ...zero(), cashiers: [] }));
    return { b, c };
  };
  /** Adds a row's tally to practice, or to the totals, its branch and its counter (returned). */
  const tallyRow = (r: Row, t: Tally) => {
    if (r.practice === true) {
      addInto(practice, t);
      return null;
    }
    const { b, c } = counterOf(String(r.branch), String(r.counter_id));
    addInto(totals, t);
    addInto(b, t);
    addInto(c, t);
    return c;
  };
  for (const r of orders) {
    const t: Tally = dayTally({
      paid: bucket(r.paid_count, r.paid_kobo),
      failedCount: num(r.failed_count),
      cancelledCount: num(r.cancelled_count),
      expiredCount: num(r.expired_count),
      openCount: num(r.open_count),
    });
    tallyRow(r, t)?.cashiers.push({ cashier: String(r.cashier), ...t });
  }
  for (const r of late) {
    const t: Tally = dayTally({ lateKept: bucket(r.n, r.kobo), lateRefund: bucket(r.refund_n, r.refund_kobo) });
    const c = tallyRow(r, t);
    const who = c?.cashiers.find((x) => x.cashier === String(r.cashier));
    if (who) addInto(who, t);
    else c?.cashiers.push({ cashier: String(r.cashier), ...t });
  }
  for (const r of topups) tallyRow(r, dayTally({ topups: bucket(r.n, r.kobo) }));
  const sorted = [...branches.values()].sort((a, b) => a.branch.localeCompare(b.branch));
  for (const b of sorted) {
    b.counters.sort((x, y) => x.counterName.localeCompare(y.counterName));
    for (const c of b.counters) c.cashiers.sort((x, y) => x.cashier.localeCompare(y.cashier));
  }

  const hourly = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    paidKobo: 0,
    paidCount: 0,
    lastWeekPaidKobo: 0,
    lastWeekPaidCount: 0,
  }));
  for (const [start, last] of [
    [from, false],
    [lwFrom, true],
  ] as const) {
    const hw = new Where(scope, 'o.branch', branchFilter);
    hw.and(`o.created_at >= ${hw.p(start)} and o.created_at < ${hw.p(start + DAY_MS)}`)
      .and(`o.state = 'paid'`)
      .and('not o.practice');
    const rows = await q.query<Row>(
      `select ((o.created_at - ${hw.p(start)}) / 3600000)::int as hour, count(*) as n, coalesce(sum(o.amount_kobo), 0) as kobo from dash_orders o ${hw.sql()} group by 1`,
      hw.params,
    );
    for (const r of rows) {
      const h = hourly[num(r.hour)];
      if (!h) continue;
      if (last) {
        h.lastWeekPaidCount = num(r.n);
        h.lastWeekPaidKobo = num(r.kobo);
      } else {
        h.paidCount = num(r.n);
        h.paidKobo = num(r.kobo);
      }
    }
  }
  return { day, from, to, lastWeekDay, totals, branches: sorted, hourly, practice };
}

// ---- Shifts ---------------------------------------------------------------------------------------

export async function shifts(
  q: SqlRunner,
  scope: Scope,
  day: string,
  f: { branch?: string; counterId?: string },
): Promise<ShiftsView> {
  const from = lagosDayStart(day);
  const to = from + DAY_MS;
  const w = new Where(scope, 's.branch', f.branch);
  w.and(
    `(s.opened_at >= ${w.p(from)} and s.opened_at < ${w.p(to)}) or (s.closed_at is null and s.opened_at < ${w.p(to)})`,
  );
  if (f.counterId) w.and(`s.counter_id = ${w.p(f.counterId)}`);
  const rows = await q.query<Row>(
    `select s.*, c.name from dash_shifts s join counters c on c.id = s.counter_id ${w.sql()} order by s.opened_at, s.counter_id`,
    w.params,
  );
  const reports = rows.length
    ? await q.query<Row>(
        `select z.* from dash_zreports z join unnest($1::text[], $2::text[]) as k(counter_id, shift_id) on z.counter_id = k.counter_id and z.shift_id = k.shift_id order by z.at`,
        [rows.map((r) => String(r.counter_id)), rows.map((r) => String(r.shift_id))],
      )
    : [];
  const byShift = new Map<string, ShiftRow['zreports']>();
  for (const z of reports) {
    const k = `${String(z.counter_id)}\u0000${String(z.shift_id)}`;
    const list = byShift.get(k) ?? [];
    list.push({
      reportNo: num(z.report_no),
      shiftId: str(z.shift_id),
      from: num(z.from_at),
      to: num(z.to_at),
      totalKobo: num(z.total_kobo),
      count: num(z.count),
      lines: (typeof z.lines === 'string' ? JSON.parse(z.lines) : z.lines) as ShiftRow['zreports'][number]['lines'],
      at: num(z.at),
    });
    byShift.set(k, list);
  }
  const list: ShiftRow[] = rows.map((s) => ({
    counterId: String(s.counter_id),
    counterName: String(s.name),
    branch: String(s.branch),
    shiftId: String(s.shift_id),
    cashier: String(s.cashier),
    profile: str(s.profile),
    practice: s.practice === true,
    openedAt: num(s.opened_at),
    closedAt: numOrNull(s.closed_at),
    floatKobo: numOrNull(s.float_kobo),
    takingsKobo: numOrNull(s.takings_kobo),
    zreports: byShift.get(`${String(s.counter_id)}\u0000${String(s.shift_id)}`) ?? [],
  }));
  // Added up by the ledger's rule (shared/ledger.ts), real and practice apart.
  return { day, shifts: list, ...shiftDayTotals(list) };
}

// ---- Counters --------------------------------------------------------------------------------------

export async function dashCounters(
  q: SqlRunner,
  scope: Scope,
  now: number,
  staleMs: number,
  connected: (id: string) => boolean,
  branchFilter?: string,
): Promise<DashCounter[]> {
  const w = new Where(scope, 'c.branch', branchFilter);
  const rows = await q.query<Row>(`select c.* from counters c ${w.sql()} order by c.branch, c.name, c.id`, w.params);
  return rows.map((r) => {
    const id = String(r.id);
    const seen = numOrNull(r.last_seen_at);
    return {
      id,
      name: String(r.name),
      branch: String(r.branch),
      enrolledAt: num(r.enrolled_at),
      revokedAt: numOrNull(r.revoked_at),
      lastSeenAt: seen,
      appVersion: str(r.app_version),
      profile: str(r.profile),
      clockOffsetMs: numOrNull(r.clock_offset_ms),
      queueLength: numOrNull(r.queue_length),
      openPayments: numOrNull(r.open_payments),
      lastSeq: num(r.last_seq),
      connected: connected(id),
      online: r.revoked_at === null && (connected(id) || (seen !== null && now - seen <= staleMs)),
      lastSyncAt: numOrNull(r.last_sync_at),
    };
  });
}

/** The counter, if the scope may see it. */
export async function counterInScope(
  q: SqlRunner,
  scope: Scope,
  id: string,
): Promise<{ id: string; branch: string } | null> {
  const w = new Where(scope, 'c.branch');
  w.and(`c.id = ${w.p(id)}`);
  const r = (await q.query<Row>(`select c.id, c.branch from counters c ${w.sql()}`, w.params))[0];
  return r ? { id: String(r.id), branch: String(r.branch) } : null;
}
