// Query tables for the manager's dashboard, kept from the journal in the same transaction as the
// batch that brings the events (storeSyncBatch): orders and their history, top-ups, shifts and
// Z reports. Set-based (a few statements per batch, whatever its size). Only events new to the
// journal are projected, so a repeated batch changes nothing. Demo and Sandbox rows are marked
// `practice` and kept out of the takings.
import type { SyncEvent } from '../../shared/hub-contract';
import { ledgerRow, type LedgerRow } from '../../shared/ledger-row';
import { projectLines, saleBasketOf, tenderColumns } from './projection-lines';
import type { OrderState } from '../../shared/orders';
import type { SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';

/** NOTIFY channel of order changes: payload `counterId|lowChangeId|highChangeId` (the rows of one committed batch). */
export const DASH_CHANNEL = 'hub_dash';

const isPractice = (profile: string | undefined | null): boolean => profile === 'demo' || profile === 'sandbox';

type Of<K extends SyncEvent['kind']> = Extract<SyncEvent, { kind: K }>;
const only = <K extends SyncEvent['kind']>(events: SyncEvent[], kind: K): Of<K>[] =>
  events.filter((e): e is Of<K> => e.kind === kind);
const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export async function projectEvents(
  q: SqlRunner,
  counterId: string,
  branch: string,
  events: SyncEvent[],
  now: number,
): Promise<void> {
  const created = only(events, 'order.created');
  const status = only(events, 'order.status');
  let low: number | null = null;
  let high: number | null = null;
  const span = (rows: { change_id: unknown }[]) => {
    for (const r of rows) {
      const c = num(r.change_id);
      low = low === null ? c : Math.min(low, c);
      high = high === null ? c : Math.max(high, c);
    }
  };

  if (created.length) {
    // Every sale as a basket (soldBasketOf): its lines and tender go with the order (projection-lines.ts).
    const baskets = created.map((e) => saleBasketOf(e.payload));
    const inserted = await q.query<{ id: unknown; reference: unknown; change_id: unknown }>(
      `insert into dash_orders (counter_id, reference, branch, profile, practice, order_no, state, amount_kobo, film_name, film_title, show_date, show_time,
                                seats, tickets, cashier, created_at, updated_at, change_id, outcome, counted_at, outcome_kobo, card_kobo, in_card,
                                tender, total_kobo, cash_part_kobo, card_part_kobo)
       select $1, t.reference, $2, t.profile, t.practice, t.order_no, 'queued', t.amount, t.film_name, t.film_title, t.show_date, t.show_time,
              t.seats, t.tickets, t.cashier, t.at, t.at, nextval('dash_change_seq'), t.outcome, t.counted_at, t.outcome_kobo, t.card_kobo, t.in_card,
              t.tender, t.total, t.cash_part, t.card_part
         from unnest($3::text[], $4::text[], $5::boolean[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::bigint[],
                     $16::text[], $17::bigint[], $18::bigint[], $19::bigint[], $20::boolean[], $21::text[], $22::bigint[], $23::bigint[], $24::bigint[])
              as t(reference, profile, practice, order_no, amount, film_name, film_title, show_date, show_time, seats, tickets, cashier, at,
                   outcome, counted_at, outcome_kobo, card_kobo, in_card, tender, total, cash_part, card_part)
       on conflict (counter_id, reference) do nothing
       returning id, reference, change_id`,
      [
        counterId,
        branch,
        created.map((e) => e.payload.reference),
        created.map((e) => orNull(e.payload.profile)),
        created.map((e) => isPractice(e.payload.profile)),
        created.map((e) => e.payload.orderNo || null),
        created.map((e) => e.payload.amountKobo),
        created.map((e) => orNull(e.payload.sale?.filmName)),
        created.map((e) => orNull(e.payload.sale?.filmTitle)),
        created.map((e) => orNull(e.payload.sale?.showDate)),
        created.map((e) => orNull(e.payload.sale?.showTime)),
        created.map((e) => orNull(e.payload.sale?.seats)),
        created.map((e) => orNull(e.payload.sale?.tickets)),
        created.map((e) => orNull(e.payload.cashier)),
        created.map((e) => e.at),
        ...ledgerColumns(
          created.map((e) =>
            ledgerRow({ createdAt: e.at, state: 'queued', amountKobo: e.payload.amountKobo, paidAt: null }, null),
          ),
        ),
        ...tenderColumns(baskets),
      ],
    );
    span(inserted);
    await projectLines(q, inserted, created, baskets);
  }

  if (status.length) {
    // The last state of each order in the batch; the last order and payment numbers it gave.
    span(
      await q.query<{ change_id: unknown }>(
        `with ev as (select * from unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[]) as t(reference, seq, status, order_no, pay_no, at)),
       last as (select distinct on (reference) reference, status, at from ev order by reference, seq desc),
       nos as (select reference, max(at) as at,
                      (array_agg(order_no order by seq desc) filter (where order_no is not null))[1] as order_no,
                      (array_agg(pay_no order by seq desc) filter (where pay_no is not null))[1] as pay_no
                 from ev group by reference)
       update dash_orders o set state = last.status, updated_at = greatest(o.updated_at, nos.at),
              order_no = coalesce(nos.order_no, o.order_no), pay_no = coalesce(nos.pay_no, o.pay_no), change_id = nextval('dash_change_seq')
         from last join nos using (reference)
        where o.counter_id = $1 and o.reference = last.reference
       returning o.change_id`,
        [
          counterId,
          status.map((e) => e.payload.reference),
          status.map((e) => e.seq),
          status.map((e) => e.payload.status),
          status.map((e) => e.payload.orderNo || null),
          status.map((e) => e.payload.payNo || null),
          status.map((e) => e.at),
        ],
      ),
    );
  }

  const orderEvents = [...created, ...status];
  if (orderEvents.length) {
    await q.query(
      `insert into dash_order_events (counter_id, seq, order_id, kind, at, status, order_no, pay_no, note, received_at)
       select $1, t.seq, o.id, t.kind, t.at, t.status, t.order_no, t.pay_no, t.note, $9
         from unnest($2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $10::text[]) as t(reference, seq, kind, at, status, order_no, pay_no, note)
         join dash_orders o on o.counter_id = $1 and o.reference = t.reference
       on conflict (counter_id, seq) do nothing`,
      [
        counterId,
        orderEvents.map((e) => e.payload.reference),
        orderEvents.map((e) => e.seq),
        orderEvents.map((e) => e.kind),
        orderEvents.map((e) => e.at),
        orderEvents.map((e) => (e.kind === 'order.status' ? e.payload.status : 'queued')),
        orderEvents.map((e) => e.payload.orderNo || null),
        orderEvents.map((e) => (e.kind === 'order.status' ? e.payload.payNo || null : null)),
        now,
        orderEvents.map((e) => (e.kind === 'order.status' ? orNull(e.payload.note) : null)),
      ],
    );
  }

  span(await projectLate(q, counterId, branch, events));
  await projectLedgerRows(q, counterId, [
    ...new Set(
      [...status, ...only(events, 'order.late'), ...only(events, 'order.late.handled')].map((e) => e.payload.reference),
    ),
  ]);

  const topups = only(events, 'topup.submitted');
  if (topups.length) {
    await q.query(
      `insert into dash_topups (counter_id, reference, branch, kind, amount_kobo, provider, customer_id, state, profile, practice, created_at, updated_at)
       select $1, t.reference, $2, t.kind, t.amount, t.provider, t.customer, 'queued', t.profile, t.practice, t.at, t.at
         from unnest($3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::boolean[], $10::bigint[]) as t(reference, kind, amount, provider, customer, profile, practice, at)
       on conflict (counter_id, reference) do nothing`,
      [
        counterId,
        branch,
        topups.map((e) => e.payload.reference),
        topups.map((e) => e.payload.kind),
        topups.map((e) => e.payload.amountKobo),
        topups.map((e) => e.payload.provider),
        topups.map((e) => e.payload.customerId),
        topups.map((e) => orNull(e.payload.profile)),
        topups.map((e) => isPractice(e.payload.profile)),
        topups.map((e) => e.at),
      ],
    );
  }
  const topupStatus = only(events, 'topup.status');
  if (topupStatus.length) {
    await q.query(
      `with ev as (select * from unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::bigint[]) as t(reference, seq, status, order_no, at)),
       last as (select distinct on (reference) reference, status, at from ev order by reference, seq desc),
       nos as (select reference, max(at) as at, (array_agg(order_no order by seq desc) filter (where order_no is not null))[1] as order_no from ev group by reference)
       update dash_topups t set state = last.status, updated_at = greatest(t.updated_at, nos.at), order_no = coalesce(nos.order_no, t.order_no)
         from last join nos using (reference)
        where t.counter_id = $1 and t.reference = last.reference`,
      [
        counterId,
        topupStatus.map((e) => e.payload.reference),
        topupStatus.map((e) => e.seq),
        topupStatus.map((e) => e.payload.status),
        topupStatus.map((e) => e.payload.orderNo || null),
        topupStatus.map((e) => e.at),
      ],
    );
  }

  const opened = only(events, 'shift.opened');
  if (opened.length) {
    await q.query(
      `insert into dash_shifts (counter_id, shift_id, branch, cashier, profile, practice, opened_at, float_kobo)
       select $1, t.shift_id, $2, t.cashier, t.profile, t.practice, t.at, t.float from unnest($3::text[], $4::text[], $5::text[], $6::boolean[], $7::bigint[], $8::bigint[]) as t(shift_id, cashier, profile, practice, at, float)
       on conflict (counter_id, shift_id) do nothing`,
      [
        counterId,
        branch,
        opened.map((e) => e.payload.shiftId),
        opened.map((e) => e.payload.cashier),
        opened.map((e) => orNull(e.payload.profile)),
        opened.map((e) => isPractice(e.payload.profile)),
        opened.map((e) => e.at),
        opened.map((e) => orNull(e.payload.floatKobo)),
      ],
    );
  }
  const closed = only(events, 'shift.closed');
  if (closed.length) {
    await q.query(
      `update dash_shifts s set closed_at = t.at, card_total_kobo = t.takings
         from (select distinct on (shift_id) * from unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[]) as u(shift_id, at, takings, seq) order by shift_id, seq desc) as t
        where s.counter_id = $1 and s.shift_id = t.shift_id`,
      [
        counterId,
        closed.map((e) => e.payload.shiftId),
        closed.map((e) => e.at),
        closed.map((e) => e.payload.cardTotalKobo),
        closed.map((e) => e.seq),
      ],
    );
  }
  const reports = only(events, 'zreport');
  if (reports.length) {
    await q.query(
      `insert into dash_zreports (counter_id, seq, branch, shift_id, report_no, from_at, to_at, total_kobo, count, lines, at)
       select $1, t.seq, $2, t.shift_id, t.report_no, t.from_at, t.to_at, t.total, t.count, t.lines, t.at
         from unnest($3::bigint[], $4::text[], $5::int[], $6::bigint[], $7::bigint[], $8::bigint[], $9::int[], $10::jsonb[], $11::bigint[])
              as t(seq, shift_id, report_no, from_at, to_at, total, count, lines, at)
       on conflict (counter_id, seq) do nothing`,
      [
        counterId,
        branch,
        reports.map((e) => e.seq),
        reports.map((e) => orNull(e.payload.shiftId)),
        reports.map((e) => e.payload.reportNo),
        reports.map((e) => e.payload.from),
        reports.map((e) => e.payload.to),
        reports.map((e) => e.payload.totalKobo),
        reports.map((e) => e.payload.count),
        reports.map((e) => JSON.stringify(e.payload.lines)),
        reports.map((e) => e.at),
      ],
    );
  }

  if (low !== null) await q.query('select pg_notify($1, $2)', [DASH_CHANNEL, `${counterId}|${low}|${high}`]);
}

/**
 * Late outcomes (docs/late-payments.md): the first report of each order is kept (a repeat only
 * fills its missing payment number); the counter's
 * "handled" closes it. The orders they are about get a new change number (the live feed shows the
 * row again, with its late word): returned for the batch's notification.
 */
async function projectLate(
  q: SqlRunner,
  counterId: string,
  branch: string,
  events: SyncEvent[],
): Promise<{ change_id: unknown }[]> {
  const late = only(events, 'order.late');
  if (late.length) {
    await q.query(
      `insert into dash_late (counter_id, reference, branch, order_id, kind, closed_as, provider_status, amount_kobo, pay_no, source, cashier, practice, at, provider_at)
       select distinct on (t.reference) $1, t.reference, coalesce(o.branch, $2), o.id, t.kind, t.closed_as, t.provider_status, t.amount,
              coalesce(t.pay_no, (select x.pay_no from unnest($3::text[], $9::text[]) as x(reference, pay_no) where x.reference = t.reference and x.pay_no is not null limit 1)), t.source,
              o.cashier, coalesce(o.practice, false), t.at, t.provider_at
         from unnest($3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::bigint[], $12::bigint[])
              as t(reference, seq, kind, closed_as, provider_status, amount, pay_no, source, at, provider_at)
         left join dash_orders o on o.counter_id = $1 and o.reference = t.reference
        order by t.reference, t.seq
       -- The first report is kept; a repeat only fills the payment number (and the provider's time)
       -- the first lacked (a notification carries none; the counter asks and sends order.late again).
       on conflict (counter_id, reference) do update set pay_no = coalesce(dash_late.pay_no, excluded.pay_no),
         provider_at = coalesce(dash_late.provider_at, excluded.provider_at)`,
      [
        counterId,
        branch,
        late.map((e) => e.payload.reference),
        late.map((e) => e.seq),
        late.map((e) => e.payload.kind),
        late.map((e) => e.payload.closedAs),
        late.map((e) => e.payload.providerStatus),
        late.map((e) => e.payload.amountKobo),
        late.map((e) => e.payload.payNo || null),
        late.map((e) => e.payload.source),
        late.map((e) => e.at),
        late.map((e) => orNull(e.payload.providerAt)),
      ],
    );
  }
  const handled = only(events, 'order.late.handled');
  if (handled.length) {
    await q.query(
      `update dash_late l set handled_how = t.how, handled_by = t.by, handled_note = t.note, handled_at = t.at
         from (select distinct on (reference) * from unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[]) as u(reference, seq, how, by, note, at)
                order by reference, seq desc) as t
        where l.counter_id = $1 and l.reference = t.reference`,
      [
        counterId,
        handled.map((e) => e.payload.reference),
        handled.map((e) => e.seq),
        handled.map((e) => e.payload.how),
        handled.map((e) => e.payload.by),
        handled.map((e) => orNull(e.payload.note)),
        handled.map((e) => e.at),
      ],
    );
  }
  const refs = [...new Set([...late, ...handled].map((e) => e.payload.reference))];
  if (!refs.length) return [];
  return q.query<{ change_id: unknown }>(
    `update dash_orders o set change_id = nextval('dash_change_seq') from unnest($2::text[]) as t(reference)
      where o.counter_id = $1 and o.reference = t.reference returning o.change_id`,
    [counterId, refs],
  );
}

/** The ledger's columns of some rows, as unnest's arrays: outcome, counted_at, outcome_kobo, card_kobo, in_card. */
const ledgerColumns = (rows: LedgerRow[]) => [
  rows.map((r) => r.outcome),
  rows.map((r) => r.countedAt),
  rows.map((r) => r.outcomeKobo),
  rows.map((r) => r.cardKobo),
  rows.map((r) => r.inCard),
];

/**
 * What each changed order contributes to the ledger (its outcome line, when it is counted, its part
 * of the card total), decided by `ledgerRow` (shared/ledger-row.ts) from the row's facts: its state,
 * when it first turned paid, its late outcome and how that was handled. Today, Shifts, Shows and the
 * attention list only sum these columns.
 */
async function projectLedgerRows(q: SqlRunner, counterId: string, refs: string[]): Promise<void> {
  if (!refs.length) return;
  type Facts = Record<string, unknown>;
  const rows = await q.query<Facts>(
    `select o.id, o.state, o.created_at, o.amount_kobo, o.outcome, o.counted_at, o.outcome_kobo, o.card_kobo, o.in_card,
            (select min(e.at) from dash_order_events e where e.order_id = o.id and e.status = 'paid') as paid_at,
            l.kind as late_kind, l.amount_kobo as late_kobo, l.at as late_at, l.handled_how
       from dash_orders o left join dash_late l on l.counter_id = o.counter_id and l.reference = o.reference
      where o.counter_id = $1 and o.reference = any($2::text[])`,
    [counterId, refs],
  );
  const changed: { id: string; row: LedgerRow }[] = [];
  for (const r of rows) {
    const row = ledgerRow(
      {
        createdAt: num(r.created_at),
        state: String(r.state) as OrderState,
        amountKobo: num(r.amount_kobo),
        paidAt: numOrNull(r.paid_at),
      },
      r.late_kind === null
        ? null
        : {
            kind: r.late_kind === 'reported-otherwise' ? 'reported-otherwise' : 'paid-after-closing',
            amountKobo: num(r.late_kobo),
            foundAt: num(r.late_at),
            refund: r.handled_how === 'refund',
          },
    );
    const same =
      row.outcome === r.outcome &&
      row.countedAt === num(r.counted_at) &&
      row.outcomeKobo === num(r.outcome_kobo) &&
      row.cardKobo === num(r.card_kobo) &&
      row.inCard === (r.in_card === true);
    if (!same) changed.push({ id: String(r.id), row });
  }
  if (!changed.length) return;
  await q.query(
    `update dash_orders o set outcome = t.outcome, counted_at = t.counted_at, outcome_kobo = t.outcome_kobo, card_kobo = t.card_kobo, in_card = t.in_card
       from unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::boolean[]) as t(id, outcome, counted_at, outcome_kobo, card_kobo, in_card)
      where o.id = t.id`,
    [changed.map((c) => c.id), ...ledgerColumns(changed.map((c) => c.row))],
  );
}
