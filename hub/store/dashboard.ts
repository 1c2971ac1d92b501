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
import { DAY_MS, str, type Row } from './dashboard-orders';
import { daySales, shiftKey, shiftSales } from './dashboard-sales';
import { Where, type Scope } from './scope';

// ---- Today -------------------------------------------------------------------------------------

// The day's figures are the ledger's (shared/ledger-day.ts `dayTally`) over the rows the ledger counted in the day.
const zero = (): Tally => emptyDayTally();
const addInto = (a: Tally, b: Tally) => addDayTally(a, b);
const bucket = (count: unknown, kobo: unknown) => ({ count: num(count), amountKobo: num(kobo) });
/** The ledger's outcome lines (shared/ledger-row.ts) that `dayTally` only counts. */
const COUNT_LINE: Record<string, 'failedCount' | 'cancelledCount' | 'expiredCount' | 'openCount'> = {
  failed: 'failedCount',
  cancelled: 'cancelledCount',
  expired: 'expiredCount',
  open: 'openCount',
};

export async function today(q: SqlRunner, scope: Scope, day: string, branchFilter?: string): Promise<TodayView> {
  const from = lagosDayStart(day);
  const to = from + DAY_MS;
  const lastWeekDay = addDays(day, -7);
  const lwFrom = lagosDayStart(lastWeekDay);

  // Each sale in the day its ledger row is counted at (shared/ledger-row.ts, projected by
  // projections.ts): paid when it was paid, paid after closing when the counter learnt it (kept, or a
  // refund to be arranged), the others when sold. SQL filters by that time and adds up.
  const ow = new Where(scope, 'o.branch', branchFilter);
  ow.and(`o.counted_at >= ${ow.p(from)} and o.counted_at < ${ow.p(to)}`);
  const orders = await q.query<Row>(
    `select o.practice, o.branch, o.counter_id, coalesce(o.cashier, '') as cashier, o.outcome, o.in_card,
            o.tender = 'cash' as cash_only, count(*) as n, coalesce(sum(o.outcome_kobo), 0) as kobo
       from dash_orders o ${ow.sql()} group by 1, 2, 3, 4, 5, 6, 7`,
    ow.params,
  );
  const tw = new Where(scope, 't.branch', branchFilter);
  tw.and(`t.created_at >= ${tw.p(from)} and t.created_at < ${tw.p(to)}`).and(`t.state = 'success'`);
  const topups = await q.query<Row>(
    `select t.practice, t.branch, t.counter_id, count(*) as n, coalesce(sum(t.amount_kobo), 0) as kobo from dash_topups t ${tw.sql()} group by 1, 2, 3`,
    tw.params,
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
  // One cashier's rows (a line each of the ledger's outcomes), to the day's tally by the ledger's rule.
  const groups = new Map<string, { r: Row; lines: Parameters<typeof dayTally>[0] }>();
  for (const r of orders) {
    const k = [r.practice, r.branch, r.counter_id, r.cashier].map(String).join('\u0000');
    const g = groups.get(k) ?? { r, lines: {} };
    groups.set(k, g);
    const outcome = String(r.outcome);
    // A sale wholly in cash is no card payment: not in the Paid line (as the counter's ledger, shared/ledger.ts);
    // its sale is in Today's sales by category and tender (dashboard-sales.ts).
    if (outcome === 'paid' && r.cash_only === true) continue;
    if (outcome === 'paid') g.lines.paid = bucket(r.n, r.kobo);
    else if (outcome === 'paid_after_closing')
      g.lines[r.in_card === true ? 'lateKept' : 'lateRefund'] = bucket(r.n, r.kobo);
    else g.lines[COUNT_LINE[outcome] ?? 'openCount'] = num(r.n);
  }
  for (const { r, lines } of groups.values()) {
    const t: Tally = dayTally(lines);
    tallyRow(r, t)?.cashiers.push({ cashier: String(r.cashier), ...t });
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
    // The card total of each hour: the sales inside it, at the time the ledger counts them.
    const hw = new Where(scope, 'o.branch', branchFilter);
    hw.and(`o.counted_at >= ${hw.p(start)} and o.counted_at < ${hw.p(start + DAY_MS)}`)
      .and('o.in_card')
      .and('not o.practice');
    const rows = await q.query<Row>(
      `select ((o.counted_at - ${hw.p(start)}) / 3600000)::int as hour, count(*) as n, coalesce(sum(o.card_kobo), 0) as kobo from dash_orders o ${hw.sql()} group by 1`,
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
  const sales = await daySales(q, scope, from, to, branchFilter);
  return { day, from, to, lastWeekDay, totals, branches: sorted, hourly, practice, sales };
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
  const windows = rows.map((s) => ({
    counterId: String(s.counter_id),
    shiftId: String(s.shift_id),
    openedAt: num(s.opened_at),
    closedAt: numOrNull(s.closed_at),
    practice: s.practice === true,
  }));
  const sales = await shiftSales(q, windows);
  const list: ShiftRow[] = rows.map((s, i) => ({
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
    cardTotalKobo: numOrNull(s.card_total_kobo),
    zreports: byShift.get(`${String(s.counter_id)}\u0000${String(s.shift_id)}`) ?? [],
    sales: sales.get(shiftKey(windows[i]!))!,
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
