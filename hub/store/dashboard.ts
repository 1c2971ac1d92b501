// The dashboard's reads over the projections (projections.ts) and the counters table: Today, shifts,
// counters (orders: dashboard-orders.ts). Every function takes the session's Scope first and builds
// its WHERE from it (scope.ts): a branch manager's query cannot reach another branch's rows.
import {
  addDays,
  lagosDayStart,
  type DashCounter,
  type ShiftRow,
  type ShiftsView,
  type Tally,
  type TodayView,
} from '../../shared/hub-dashboard-contract';
import { addDayTally, dayTally, emptyDayTally, shiftDayTotals } from '../../shared/ledger-day';
import type { SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { DAY_MS, OPEN_LIST, str, type Row } from './dashboard-orders';
import { Where, type Scope } from './scope';

// ---- Today -------------------------------------------------------------------------------------

// The day's figures are the ledger's (shared/ledger-day.ts `dayTally`): SQL counts and groups by the ledger's rules.
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
  // A sale the provider paid after closing, learnt the same day, is in that line alone (as on the
  // counter's Z: shared/ledger.ts), not also failed, cancelled or expired.
  const closedAs = (state: string) =>
    `o.state = '${state}' and not exists (select 1 from dash_late x where x.order_id = o.id and x.kind = 'paid-after-closing' and x.at >= ${ow.p(from)} and x.at < ${ow.p(to)})`;
  const orders = await q.query<Row>(
    `select o.practice, o.branch, o.counter_id, coalesce(o.cashier, '') as cashier,
            count(*) filter (where o.state = 'paid') as paid_count, coalesce(sum(o.amount_kobo) filter (where o.state = 'paid'), 0) as paid_kobo,
            count(*) filter (where ${closedAs('failed')}) as failed_count, count(*) filter (where ${closedAs('cancelled')}) as cancelled_count,
            count(*) filter (where ${closedAs('expired')}) as expired_count, count(*) filter (where o.state in (${OPEN_LIST})) as open_count
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
