// The dashboard's reads of what comes after the sale (after-sale.ts projects them): Refunds (owed by
// branch with their age, returned with how, the reference and who, paid by tender), Cases (open by
// age per branch: caseAge, 48 h flagged, 72 h overdue), the figures Today shows of them and the
// lines of Needs attention (card refunds owed, cases flagged or overdue). The sums are the SQL's:
// screens never add money. Scoped by scope.ts; practice (Demo, Sandbox) refunds and cases are kept out.
import { caseAge } from '../../shared/cases';
import { lagosDayStart, type AttentionLine } from '../../shared/hub-dashboard-contract';
import type { AfterSaleFigures, CaseRow, CasesView, RefundRow, RefundsView } from '../../shared/hub-refunds-contract';
import type { SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { Where, type Scope } from './scope';

type Row = Record<string, unknown>;
const DAY_MS = 86_400_000;
const LIMIT = 200;
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });
const hours = (ms: number) => `${Math.floor(ms / 3_600_000)} h`;

const pgArray = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String)
    : typeof v === 'string'
      ? v
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];

const REFUND_COLUMNS = `r.*, c.name as counter_name`;
function refundRow(r: Row, now: number): RefundRow {
  const at = num(r.at);
  const returnedAt = numOrNull(r.returned_at);
  return {
    branch: String(r.branch),
    counterId: String(r.counter_id),
    counterName: String(r.counter_name),
    refundNo: String(r.refund_no),
    reference: String(r.reference),
    orderId: str(r.order_id),
    kind: String(r.kind),
    tender: r.tender === 'card' ? 'card' : 'cash',
    amountKobo: num(r.amount_kobo),
    seats: pgArray(r.seats),
    reason: String(r.reason),
    note: str(r.note),
    approvedBy: String(r.approved_by),
    approvedHow: String(r.approved_how),
    at,
    ageMs: Math.max(0, (returnedAt ?? now) - at),
    returned:
      returnedAt === null
        ? null
        : {
            at: returnedAt,
            how: String(r.returned_how),
            reference: str(r.returned_reference),
            by: str(r.returned_by),
          },
  };
}

export async function refundsView(q: SqlRunner, scope: Scope, now: number, branch?: string): Promise<RefundsView> {
  const ow = new Where(scope, 'r.branch', branch).and('not r.practice').and('r.returned_at is null');
  const owed = await q.query<Row>(
    `select ${REFUND_COLUMNS} from dash_refunds r join counters c on c.id = r.counter_id ${ow.sql()} order by r.at, r.refund_no limit ${LIMIT}`,
    ow.params,
  );
  const bw = new Where(scope, 'r.branch', branch).and('not r.practice').and('r.returned_at is null');
  const byBranch = await q.query<Row>(
    `select r.branch, count(*) as n, sum(r.amount_kobo) as kobo, min(r.at) as oldest from dash_refunds r ${bw.sql()} group by r.branch order by r.branch`,
    bw.params,
  );
  const rw = new Where(scope, 'r.branch', branch).and('not r.practice').and('r.returned_at is not null');
  const returned = await q.query<Row>(
    `select ${REFUND_COLUMNS} from dash_refunds r join counters c on c.id = r.counter_id ${rw.sql()} order by r.returned_at desc, r.refund_no limit ${LIMIT}`,
    rw.params,
  );
  const tw = new Where(scope, 'r.branch', branch).and('not r.practice').and('r.returned_at is not null');
  const paid = await q.query<Row>(
    `select r.tender, count(*) as n, coalesce(sum(r.amount_kobo), 0) as kobo from dash_refunds r ${tw.sql()} group by r.tender`,
    tw.params,
  );
  const sum = (t: string) => {
    const p = paid.find((x) => x.tender === t);
    return { count: p ? num(p.n) : 0, amountKobo: p ? num(p.kobo) : 0 };
  };
  return {
    at: now,
    owed: owed.map((r) => refundRow(r, now)),
    owedByBranch: byBranch.map((r) => ({
      branch: String(r.branch),
      count: num(r.n),
      amountKobo: num(r.kobo),
      oldestAt: num(r.oldest),
      oldestAgeMs: Math.max(0, now - num(r.oldest)),
    })),
    returned: returned.map((r) => refundRow(r, now)),
    paidByTender: { cash: sum('cash'), card: sum('card') },
  };
}

function caseRow(r: Row, now: number): CaseRow {
  const openedAt = num(r.opened_at);
  const resolvedAt = numOrNull(r.resolved_at);
  return {
    branch: String(r.branch),
    counterId: String(r.counter_id),
    counterName: String(r.counter_name),
    caseNo: String(r.case_no),
    openedBy: String(r.opened_by),
    openedAt,
    reference: str(r.reference),
    amountKobo: numOrNull(r.amount_kobo),
    last4: str(r.last4),
    truth: str(r.truth) as CaseRow['truth'],
    resolution: str(r.resolution) as CaseRow['resolution'],
    resolvedBy: str(r.resolved_by),
    resolvedAt,
    note: str(r.note),
    ageMs: Math.max(0, (resolvedAt ?? now) - openedAt),
    age: caseAge(openedAt, resolvedAt ?? now),
  };
}

export async function casesView(q: SqlRunner, scope: Scope, now: number, branch?: string): Promise<CasesView> {
  const ow = new Where(scope, 'k.branch', branch).and('not k.practice').and('k.resolved_at is null');
  const open = (
    await q.query<Row>(
      `select k.*, c.name as counter_name from dash_cases k join counters c on c.id = k.counter_id ${ow.sql()} order by k.opened_at, k.case_no limit ${LIMIT * 5}`,
      ow.params,
    )
  ).map((r) => caseRow(r, now));
  const rw = new Where(scope, 'k.branch', branch).and('not k.practice').and('k.resolved_at is not null');
  const resolved = await q.query<Row>(
    `select k.*, c.name as counter_name from dash_cases k join counters c on c.id = k.counter_id ${rw.sql()} order by k.resolved_at desc, k.case_no limit ${LIMIT}`,
    rw.params,
  );
  const byBranch = new Map<string, CasesView['openByBranch'][number]>();
  for (const c of open) {
    const b = byBranch.get(c.branch) ?? { branch: c.branch, open: 0, flagged: 0, overdue: 0, oldestAt: c.openedAt };
    b.open++;
    if (c.age === 'flagged') b.flagged++;
    if (c.age === 'overdue') b.overdue++;
    b.oldestAt = Math.min(b.oldestAt, c.openedAt);
    byBranch.set(c.branch, b);
  }
  return {
    at: now,
    open,
    openByBranch: [...byBranch.values()].sort((a, b) => a.branch.localeCompare(b.branch)),
    resolved: resolved.map((r) => caseRow(r, now)),
  };
}

/** Today's figures: refunds owed now, refunds paid on the Lagos `day` by tender, open cases now by age. */
export async function afterSaleFigures(
  q: SqlRunner,
  scope: Scope,
  day: string,
  now: number,
  branch?: string,
): Promise<AfterSaleFigures> {
  const from = lagosDayStart(day);
  const w = new Where(scope, 'r.branch', branch).and('not r.practice');
  const f = w.p(from);
  const t = w.p(from + DAY_MS);
  const r = (
    await q.query<Row>(
      `select count(*) filter (where r.tender = 'card' and r.returned_at is null) as owed_n,
              coalesce(sum(r.amount_kobo) filter (where r.tender = 'card' and r.returned_at is null), 0) as owed_kobo,
              count(*) filter (where r.tender = 'cash' and r.returned_at >= ${f} and r.returned_at < ${t}) as cash_n,
              coalesce(sum(r.amount_kobo) filter (where r.tender = 'cash' and r.returned_at >= ${f} and r.returned_at < ${t}), 0) as cash_kobo,
              count(*) filter (where r.tender = 'card' and r.returned_at >= ${f} and r.returned_at < ${t}) as card_n,
              coalesce(sum(r.amount_kobo) filter (where r.tender = 'card' and r.returned_at >= ${f} and r.returned_at < ${t}), 0) as card_kobo
         from dash_refunds r ${w.sql()}`,
      w.params,
    )
  )[0]!;
  const cw = new Where(scope, 'k.branch', branch).and('not k.practice').and('k.resolved_at is null');
  const flag = cw.p(now - 48 * 3_600_000);
  const over = cw.p(now - 72 * 3_600_000);
  const k = (
    await q.query<Row>(
      `select count(*) as n, count(*) filter (where k.opened_at <= ${flag} and k.opened_at > ${over}) as flagged,
              count(*) filter (where k.opened_at <= ${over}) as overdue from dash_cases k ${cw.sql()}`,
      cw.params,
    )
  )[0]!;
  return {
    owedCount: num(r.owed_n),
    owedKobo: num(r.owed_kobo),
    paidCashCount: num(r.cash_n),
    paidCashKobo: num(r.cash_kobo),
    paidCardCount: num(r.card_n),
    paidCardKobo: num(r.card_kobo),
    openCases: num(k.n),
    flaggedCases: num(k.flagged),
    overdueCases: num(k.overdue),
  };
}

const base = { notificationId: null, shiftId: null };

/** Needs attention: each card refund owed, with its age, until recorded returned; each case open 48 h (flagged) or 72 h (overdue). */
export async function afterSaleLines(
  q: SqlRunner,
  scope: Scope,
  now: number,
  lines: AttentionLine[],
  branch?: string,
): Promise<void> {
  const rw = new Where(scope, 'r.branch', branch)
    .and('not r.practice')
    .and('r.returned_at is null')
    .and(`r.tender = 'card'`);
  const owed = await q.query<Row>(
    `select ${REFUND_COLUMNS} from dash_refunds r join counters c on c.id = r.counter_id ${rw.sql()} order by r.at limit ${LIMIT}`,
    rw.params,
  );
  for (const x of owed.map((r) => refundRow(r, now)))
    lines.push({
      ...base,
      kind: 'card-refund-owed',
      branch: x.branch,
      counterId: x.counterId,
      counterName: x.counterName,
      orderId: x.orderId,
      since: x.at,
      subject: `Card refund ${x.refundNo} of ${naira.format(x.amountKobo / 100)} owed for ${hours(x.ageMs)}: sale ${x.reference} at ${x.counterName} (${x.kind}, approved by ${x.approvedBy})`,
      todo: "Return the money (a reversal in the provider's dashboard, or a bank transfer), then record on the counter how it was returned, the reference and who: the line goes when that reaches the Hub.",
    });
  const cw = new Where(scope, 'k.branch', branch).and('not k.practice').and('k.resolved_at is null');
  cw.and(`k.opened_at <= ${cw.p(now - 48 * 3_600_000)}`);
  const cases = await q.query<Row>(
    `select k.*, c.name as counter_name from dash_cases k join counters c on c.id = k.counter_id ${cw.sql()} order by k.opened_at limit ${LIMIT}`,
    cw.params,
  );
  for (const x of cases.map((r) => caseRow(r, now))) {
    const overdue = x.age === 'overdue';
    lines.push({
      ...base,
      kind: overdue ? 'case-overdue' : 'case-flagged',
      branch: x.branch,
      counterId: x.counterId,
      counterName: x.counterName,
      orderId: null,
      since: x.openedAt,
      subject: `Complaint case ${x.caseNo} open for ${hours(x.ageMs)}${overdue ? ', past the 72 hours the Central Bank allows' : ''}: opened by ${x.openedBy} at ${x.counterName}${x.amountKobo !== null ? `, ${naira.format(x.amountKobo / 100)}` : ''}${x.last4 ? `, card ending ${x.last4}` : ''}`,
      todo: overdue
        ? "Resolve it today: hand over the tickets, record the refund owed, or show the customer the provider's proof that nothing was taken; record the resolution on the counter."
        : 'Resolve it before 72 hours: ask the counter to check the payment with the provider again and record the resolution.',
    });
  }
}
