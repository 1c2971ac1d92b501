// Needs attention: each line what to do — a shift left open past closing, a counter silent or with
// its clock off, a payment open too long, a notification not delivered, a card refund owed, a
// complaint case open 48 h (after-sale-views.ts). Over the same projections
// and scope as the other dashboard reads (dashboard.ts).
import { lagosDayOf, lagosDayStart, type AttentionLine, type AttentionView } from '../../shared/hub-dashboard-contract';
import type { SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { sharedClaimLines } from './attention-claims';
import { stockLines } from './catalogue';
import { afterSaleLines } from './after-sale-views';
import { soldTwiceLines } from './seat-views';
import { OPEN_LIST, ORDER_COLUMNS, orderRow, type Row } from './dashboard-orders';
import { Where, type Scope } from './scope';

const DAY_MS = 86_400_000;

export interface AttentionConfig {
  /** Local closing time, HH:mm (Lagos); before 06:00 means after midnight. */
  closingTime: string;
  staleMs: number;
  clockOffMs: number;
  openPaymentMs: number;
  undeliveredMs: number;
}
export const DEFAULT_ATTENTION: AttentionConfig = {
  closingTime: '23:30',
  staleMs: 10 * 60_000,
  clockOffMs: 60_000,
  openPaymentMs: 2 * 60_000,
  undeliveredMs: 2 * 60_000,
};

/** When the shift opened at `openedAt` should have been closed: the closing time of its business day (which starts at 06:00). */
function closingInstant(openedAt: number, closingTime: string): number {
  const [h, m] = closingTime.split(':').map(Number) as [number, number];
  const businessDay = lagosDayOf(openedAt - 6 * 3_600_000);
  const minutes = h * 60 + m;
  return lagosDayStart(businessDay) + (minutes < 6 * 60 ? DAY_MS : 0) + minutes * 60_000;
}

const ago = (now: number, at: number) => {
  const min = Math.max(0, Math.round((now - at) / 60_000));
  return min < 90 ? `${min} min` : `${Math.round(min / 60)} h`;
};
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });
const LINE_LIMIT = 200;

const base = { counterId: null, counterName: null, orderId: null, notificationId: null, shiftId: null };

/**
 * `relayOffSince`: when the Hub, started without its merchant file, began unable to verify the
 * provider's notifications (null: it verifies them). Then one Hub-wide line (branch null) says so to
 * every manager, whatever the branch filter: it slows every branch's counters, and only whoever runs
 * the Hub can mend it (head office is told how, a branch manager whom to tell).
 */
export async function attention(
  q: SqlRunner,
  scope: Scope,
  now: number,
  cfg: AttentionConfig,
  connected: (counterId: string) => boolean,
  branchFilter?: string,
  relayOffSince: number | null = null,
): Promise<AttentionView> {
  const lines: AttentionLine[] = [];
  if (relayOffSince !== null) {
    lines.push({
      ...base,
      kind: 'relay-off',
      branch: null,
      since: relayOffSince,
      subject:
        'The Hub is not passing on payment notifications: it was started without its merchant file, so it cannot check that they come from the provider',
      todo:
        scope.kind === 'all'
          ? "Give the Hub the merchant file: restart it with --merchant-config FILE (the clientAuthKey and the provider's public key). Until then every counter falls back to checking each payment itself, which takes up to about 20 seconds."
          : 'Tell head office: the Hub needs its merchant file. Until then counters check each payment themselves, which takes up to about 20 seconds; payments are still safe.',
    });
  }

  const ow = new Where(scope, 'o.branch', branchFilter);
  ow.and(`o.state in (${OPEN_LIST})`)
    .and(`o.created_at < ${ow.p(now - cfg.openPaymentMs)}`)
    .and('not o.practice');
  const open = await q.query<Row>(
    `select ${ORDER_COLUMNS} from dash_orders o join counters c on c.id = o.counter_id ${ow.sql()} order by o.created_at limit ${ow.p(LINE_LIMIT)}`,
    ow.params,
  );
  for (const r of open.map(orderRow)) {
    const which = `${naira.format(r.amountKobo / 100)} at ${r.counterName}${`, sale ${r.reference}`}${r.orderNo ? `, provider order ${r.orderNo}` : ''}${r.cashier ? ` (${r.cashier})` : ''}`;
    lines.push({
      ...base,
      kind: r.state === 'unknown' ? 'payment-unknown' : 'payment-open',
      branch: r.branch,
      counterId: r.counterId,
      counterName: r.counterName,
      orderId: r.id,
      since: r.createdAt,
      subject:
        r.state === 'unknown'
          ? `Payment state unknown for ${ago(now, r.createdAt)}: ${which}`
          : `Payment still open for ${ago(now, r.createdAt)}: ${which}`,
      todo:
        r.state === 'unknown'
          ? "Ask the cashier to press Check on the order; if it stays unknown, look the order number up in the provider's dashboard before giving or refunding anything."
          : 'Ask the cashier whether the customer paid on the terminal; press Check on the order, or cancel it if the customer left.',
    });
  }

  await lateLines(q, scope, now, lines, branchFilter);
  // Orders claimed twice or refused; card refunds owed and complaint cases open 48 h (after-sale-views.ts).
  for (const more of [sharedClaimLines, afterSaleLines]) await more(q, scope, now, lines, branchFilter);
  await soldTwiceLines(q, scope, lines, branchFilter);
  await noShiftLines(q, scope, lines, branchFilter);
  await stockLines(q, scope, lines, branchFilter);

  const cw = new Where(scope, 'c.branch', branchFilter);
  cw.and('c.revoked_at is null');
  const counters = await q.query<Row>(
    `select c.id, c.name, c.branch, c.enrolled_at, c.last_seen_at, c.last_sync_at, c.clock_offset_ms, c.queue_length from counters c ${cw.sql()} order by c.name, c.id`,
    cw.params,
  );
  for (const c of counters) {
    const id = String(c.id);
    const name = String(c.name);
    const seen = numOrNull(c.last_seen_at);
    const synced = numOrNull(c.last_sync_at);
    const at = { ...base, branch: String(c.branch), counterId: id, counterName: name };
    if (!connected(id) && (seen === null || now - seen > cfg.staleMs)) {
      lines.push({
        ...at,
        kind: 'counter-offline',
        since: seen ?? num(c.enrolled_at),
        subject:
          seen === null
            ? `${name} has never reached the Hub since it was enrolled`
            : `${name} not heard from for ${ago(now, seen)}`,
        todo: 'Check that the counter is switched on, CounterPay is running and the network works; if it was retired, revoke it under Counters.',
      });
      continue;
    }
    if (synced === null || now - synced > cfg.staleMs) {
      lines.push({
        ...at,
        kind: 'counter-unsynced',
        since: synced ?? seen ?? num(c.enrolled_at),
        subject: `${name} is connected but has not synced its journal for ${synced === null ? 'ever' : ago(now, synced)}${c.queue_length ? ` (${num(c.queue_length)} events waiting)` : ''}`,
        todo: 'Look at the Hub pill on the counter; restart CounterPay there. Its sales are missing from these totals until it syncs.',
      });
    }
    const off = numOrNull(c.clock_offset_ms);
    if (off !== null && Math.abs(off) > cfg.clockOffMs) {
      lines.push({
        ...at,
        kind: 'clock-off',
        since: synced ?? seen ?? now,
        subject: `${name}'s clock is ${Math.round(Math.abs(off) / 1000)} s ${off > 0 ? 'behind' : 'ahead of'} the Hub`,
        todo: "Set the counter's clock to update automatically (Windows: Settings, Time, Sync now); receipts and reports show its times.",
      });
    }
  }

  const nw = new Where(scope, 'c.branch', branchFilter);
  nw.and('d.acked_at is null')
    .and(`d.created_at < ${nw.p(now - cfg.undeliveredMs)}`)
    .and('c.revoked_at is null');
  const undelivered = await q.query<Row>(
    `select d.notification_id, d.counter_id, c.name, c.branch, min(d.created_at) as since, n.order_no, n.kind
       from deliveries d join counters c on c.id = d.counter_id join notifications n on n.id = d.notification_id ${nw.sql()}
      group by d.notification_id, d.counter_id, c.name, c.branch, n.order_no, n.kind order by since limit ${nw.p(LINE_LIMIT)}`,
    nw.params,
  );
  for (const r of undelivered) {
    const since = num(r.since);
    lines.push({
      ...base,
      kind: 'notification-undelivered',
      branch: String(r.branch),
      counterId: String(r.counter_id),
      counterName: String(r.name),
      notificationId: String(r.notification_id),
      since,
      subject: `A ${r.kind === 'bills' ? 'top-up' : 'payment'} notification${r.order_no ? ` for order ${String(r.order_no)}` : ''} has not reached ${String(r.name)} for ${ago(now, since)}`,
      todo: 'Bring the counter online; it is delivered when the counter reconnects. If the counter was replaced, replay the notification to the new one.',
    });
  }

  const sw = new Where(scope, 's.branch', branchFilter);
  sw.and('s.closed_at is null').and('not s.practice');
  const shifts = await q.query<Row>(
    `select s.*, c.name from dash_shifts s join counters c on c.id = s.counter_id ${sw.sql()} order by s.opened_at limit ${sw.p(LINE_LIMIT * 5)}`,
    sw.params,
  );
  for (const s of shifts) {
    const openedAt = num(s.opened_at);
    const due = closingInstant(openedAt, cfg.closingTime);
    if (now <= due) continue;
    lines.push({
      ...base,
      kind: 'shift-open-late',
      branch: String(s.branch),
      counterId: String(s.counter_id),
      counterName: String(s.name),
      shiftId: String(s.shift_id),
      since: due,
      subject: `${String(s.cashier)}'s shift on ${String(s.name)} is still open, ${ago(now, due)} after closing time (${cfg.closingTime})`,
      todo: 'Ask the cashier to count the drawer and close the shift on the counter; the Z report is printed when it closes.',
    });
  }
  return { at: now, lines, closingTime: cfg.closingTime };
}

/** How long a paid sale reported otherwise stays on Needs attention: the manager's to check with the provider. */
const REPORTED_OTHERWISE_DAYS = 7;

/**
 * The provider's late word on closed sales (docs/late-payments.md): money taken after the sale was
 * closed, until the counter marks it handled (tickets given, or refund to be arranged); a paid sale
 * the provider later reports not paid (or for another amount) for REPORTED_OTHERWISE_DAYS, handled
 * or not, since the counter's "Seen: manager to check it" hands it to the manager.
 */
async function lateLines(
  q: SqlRunner,
  scope: Scope,
  now: number,
  lines: AttentionLine[],
  branchFilter?: string,
): Promise<void> {
  const lw = new Where(scope, 'l.branch', branchFilter);
  lw.and(
    `(l.kind = 'paid-after-closing' and l.handled_at is null) or (l.kind = 'reported-otherwise' and l.at > ${lw.p(now - REPORTED_OTHERWISE_DAYS * DAY_MS)})`,
  ).and('not l.practice');
  const late = await q.query<Row>(
    `select l.counter_id, c.name, l.branch, l.reference, l.order_id, l.kind, l.provider_status, l.pay_no, l.amount_kobo, o.amount_kobo as sold_kobo, l.cashier, l.at,
            coalesce(l.provider_at, l.at) as taken_at, l.handled_by, l.handled_at
       from dash_late l join counters c on c.id = l.counter_id left join dash_orders o on o.id = l.order_id ${lw.sql()} order by l.at limit ${lw.p(LINE_LIMIT)}`,
    lw.params,
  );
  for (const r of late) {
    const amount = naira.format(num(r.amount_kobo) / 100);
    const who = `${String(r.name)}, sale ${String(r.reference)}${r.cashier ? ` (${String(r.cashier)})` : ''}`;
    const at = {
      ...base,
      branch: String(r.branch),
      counterId: String(r.counter_id),
      counterName: String(r.name),
      // Since the provider took the money (lateAt), as the counter's alert says.
      orderId: r.order_id === null ? null : String(r.order_id),
      since: num(r.taken_at),
    };
    if (r.kind === 'paid-after-closing') {
      lines.push({
        ...at,
        kind: 'paid-after-closing',
        subject: `${amount} was taken after the sale was closed: ${who}`,
        todo: 'Hand over the tickets if the customer is there, else arrange the refund; the counter marks it handled.',
      });
      continue;
    }
    const sold = numOrNull(r.sold_kobo);
    const other =
      sold !== null && sold !== num(r.amount_kobo) ? ` for ${amount}, not the ${naira.format(sold / 100)} sold` : '';
    const seen = r.handled_at === null ? '' : ` Seen on the counter by ${String(r.handled_by)}.`;
    lines.push({
      ...at,
      kind: 'reported-otherwise',
      subject: `A paid sale is now reported ${String(r.provider_status)}${other} by the provider: ${who}${r.pay_no ? `, payment ${String(r.pay_no)}` : ''}`,
      todo: `Check the payment in the provider's dashboard: if the money did not arrive, the tickets went unpaid. It stays in the takings until you know, and on this list for ${REPORTED_OTHERWISE_DAYS} days.${seen}`,
    });
  }
}

/**
 * Paid sales made with no shift open (synced with no cashier: the counter names the cashier of the
 * shift open at the sale; paid: inside the card total by the ledger's row, shared/ledger-row.ts), one line per counter, until a Z report of a shift opened after them has
 * reached the Hub: that report names them ("Sales with no shift open"). Until then they are in no Z report.
 */
async function noShiftLines(q: SqlRunner, scope: Scope, lines: AttentionLine[], branchFilter?: string): Promise<void> {
  const w = new Where(scope, 'o.branch', branchFilter);
  w.and(`(o.cashier is null or o.cashier = '')`)
    .and('o.in_card')
    .and('not o.practice')
    .and('not exists (select 1 from dash_zreports z where z.counter_id = o.counter_id and z.from_at > o.created_at)');
  const rows = await q.query<Row>(
    `select o.counter_id, c.name, o.branch, count(*) as n, sum(o.card_kobo) as kobo, min(o.created_at) as since
       from dash_orders o join counters c on c.id = o.counter_id ${w.sql()} group by o.counter_id, c.name, o.branch order by since limit ${w.p(LINE_LIMIT)}`,
    w.params,
  );
  for (const r of rows) {
    const n = num(r.n);
    lines.push({
      ...base,
      kind: 'no-shift-sales',
      branch: String(r.branch),
      counterId: String(r.counter_id),
      counterName: String(r.name),
      since: num(r.since),
      subject: `${n} paid sale${n === 1 ? '' : 's'} (${naira.format(num(r.kobo) / 100)}) made on ${String(r.name)} with no shift open: in no Z report yet`,
      todo: 'Ask who sold them and check them on Orders (cashier —). The next Z report of this counter lists them under "Sales with no shift open"; this line goes once it reaches the Hub.',
    });
  }
}
