// What comes after the sale, projected from a counter's journal in the same transaction as its
// batch (storeSyncBatch, after projectEvents): a cancel or exchange ('order.cancelled') takes its
// seats out of the sale — named in dash_orders.cancelled_seats, its seat_holds rows 'cancelled', the
// show's counters told (seat-signal) — and records its refunds owed (cash returned at once from the
// drawer, card owed); 'refund.returned' marks one returned; 'case.opened' and 'case.resolved' keep
// the complaint desk's cases. A counter speaks only of its own orders: every statement is keyed by
// its counter id, and a reference made with another live counter's code is refused before this
// (journal.ts: refused_claims, Needs attention) and skipped here. A repeated batch changes nothing.
import type { SyncEvent } from '../../shared/hub-contract';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';
import { DASH_CHANNEL } from './projections';
import { notifyShows, seatsNotice } from './seat-holds';
import { demoParams, orderShowKey } from './seat-taken';

type Of<K extends SyncEvent['kind']> = Extract<SyncEvent, { kind: K }>;
const only = <K extends SyncEvent['kind']>(events: SyncEvent[], kind: K): Of<K>[] =>
  events.filter((e): e is Of<K> => e.kind === kind);
type Row = Record<string, unknown>;

/** The references the after-sale events of a batch name (checked for another counter's code by the journal). */
export const afterSaleKeysOf = (e: SyncEvent): string[] =>
  e.kind === 'order.cancelled' || e.kind === 'refund.returned' ? [e.payload.reference] : [];

export async function projectAfterSale(
  q: SqlRunner,
  counterId: string,
  branch: string,
  events: SyncEvent[],
  foreign: ReadonlySet<string>,
  now: number,
): Promise<void> {
  const changed: number[] = [];
  for (const e of only(events, 'order.cancelled')) {
    if (foreign.has(e.payload.reference)) continue;
    await cancelSeats(q, counterId, e, now, changed);
  }
  const cancels = only(events, 'order.cancelled').filter((e) => !foreign.has(e.payload.reference));
  const refunds = cancels.flatMap((e) => e.payload.refunds.map((r) => ({ e, r })));
  if (refunds.length) {
    await q.query(
      `insert into dash_refunds (counter_id, refund_no, branch, reference, order_id, kind, tender, amount_kobo, seats, reason, note,
                                 approved_by, approved_how, exchange_to, practice, at, returned_at, returned_how)
       select $1, t.refund_no, coalesce(o.branch, $2), t.reference, o.id, t.kind, t.tender, t.amount, t.seats::text[], t.reason, t.note,
              t.approved_by, t.approved_how, t.exchange_to, coalesce(o.practice, false), t.at,
              case when t.tender = 'cash' then t.at end, case when t.tender = 'cash' then 'cash' end
         from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[])
              as t(refund_no, reference, kind, tender, amount, seats, reason, note, approved_by, approved_how, exchange_to, at)
         join dash_orders o on o.counter_id = $1 and o.reference = t.reference
       on conflict (counter_id, refund_no) do nothing`,
      [
        counterId,
        branch,
        refunds.map((x) => x.r.refundNo),
        refunds.map((x) => x.e.payload.reference),
        refunds.map((x) => x.e.payload.kind),
        refunds.map((x) => x.r.tender),
        refunds.map((x) => x.r.amountKobo),
        refunds.map((x) => `{${x.e.payload.seats.map((s) => `"${s.replace(/["\\]/g, '')}"`).join(',')}}`),
        refunds.map((x) => x.e.payload.reason),
        refunds.map((x) => x.e.payload.note ?? null),
        refunds.map((x) => x.e.payload.approvedBy),
        refunds.map((x) => x.e.payload.approvedHow),
        refunds.map((x) => x.e.payload.exchangeTo ?? null),
        refunds.map((x) => x.e.at),
      ],
    );
  }
  const returned = only(events, 'refund.returned').filter((e) => !foreign.has(e.payload.reference));
  for (const e of returned) {
    const r = await q.query<Row>(
      `update dash_refunds set returned_at = $5, returned_how = $4, returned_reference = $6, returned_by = $7
        where counter_id = $1 and refund_no = $2 and reference = $3 and returned_at is null returning order_id`,
      [
        counterId,
        e.payload.refundNo,
        e.payload.reference,
        e.payload.how,
        e.at,
        e.payload.returnReference,
        e.payload.by,
      ],
    );
    if (r[0]?.order_id !== null && r[0]?.order_id !== undefined)
      await orderEvent(
        q,
        counterId,
        e,
        num(r[0].order_id),
        `refund ${e.payload.refundNo} returned (${e.payload.how}, ${e.payload.returnReference}) by ${e.payload.by}`,
        now,
      );
  }
  await projectCases(q, counterId, branch, events);
  if (changed.length)
    await q.query('select pg_notify($1, $2)', [
      DASH_CHANNEL,
      `${counterId}|${Math.min(...changed)}|${Math.max(...changed)}`,
    ]);
}

/** One cancel: the order's seats named cancelled, its seat_holds rows of them ended, the show told. */
async function cancelSeats(
  q: SqlRunner,
  counterId: string,
  e: Of<'order.cancelled'>,
  now: number,
  changed: number[],
): Promise<void> {
  const seats = [...new Set(e.payload.seats.map((s) => s.trim().toUpperCase()).filter(Boolean))];
  const o = await q.query<Row>(
    `update dash_orders o set cancelled_seats = array(select distinct x from unnest(o.cancelled_seats || $3::text[]) as x order by x),
            change_id = nextval('dash_change_seq')
      where o.counter_id = $1 and o.reference = $2 returning o.id, o.change_id, o.branch, o.practice`,
    [counterId, e.payload.reference, seats],
  );
  const order = o[0];
  if (!order) return; // not this counter's order: nothing of another's is touched
  changed.push(num(order.change_id));
  const refunds = e.payload.refunds.map((r) => `${r.refundNo} ${r.tender} ${r.amountKobo} kobo`).join(', ');
  await orderEvent(
    q,
    counterId,
    e,
    num(order.id),
    `${e.payload.kind === 'exchange' ? 'exchanged' : 'cancelled'}${seats.length ? ` seats ${seats.join(' ')}` : ''}` +
      `${refunds ? `; refunds owed ${refunds}` : ''}; ${e.payload.reason}, approved by ${e.payload.approvedBy} (${e.payload.approvedHow})` +
      `${e.payload.exchangeTo ? `; new sale ${e.payload.exchangeTo}` : ''}`,
    now,
  );
  if (!seats.length) return;
  const ended = await q.query<Row>(
    `update seat_holds h set state = 'cancelled', settled_at = $4
      where h.counter_id = $1 and h.order_key = $2 and h.seat = any($3::text[]) and h.state in ('held', 'sold', 'double')
      returning h.branch, h.show_key, h.practice`,
    [counterId, e.payload.reference, seats, now],
  );
  const shows = ended.map((r) => seatsNotice(String(r.branch), String(r.show_key), r.practice === true));
  // A sale that held nothing (sold offline): its seats are taken through the order (seat-taken.ts).
  const params: unknown[] = [counterId, e.payload.reference];
  const p = (v: unknown) => `$${params.push(v)}`;
  const k = await q.query<Row>(
    `select o.branch, o.practice, ${orderShowKey(demoParams(p, order.practice === true, now))} as show_key from dash_orders o
      where o.counter_id = $1 and o.reference = $2`,
    params,
  );
  for (const r of k)
    if (r.show_key !== null) shows.push(seatsNotice(String(r.branch), String(r.show_key), r.practice === true));
  await notifyShows(q, shows);
}

async function orderEvent(q: SqlRunner, counterId: string, e: SyncEvent, orderId: number, note: string, now: number) {
  await q.query(
    `insert into dash_order_events (counter_id, seq, order_id, kind, at, status, note, received_at)
     values ($1, $2, $3, $4, $5, null, $6, $7) on conflict (counter_id, seq) do nothing`,
    [counterId, e.seq, orderId, e.kind, e.at, note, now],
  );
}

async function projectCases(q: SqlRunner, counterId: string, branch: string, events: SyncEvent[]): Promise<void> {
  const opened = only(events, 'case.opened');
  if (opened.length)
    await q.query(
      `insert into dash_cases (counter_id, case_no, branch, opened_by, opened_at, reference, amount_kobo, last4, truth, practice)
       select $1, t.case_no, $2, t.opened_by, t.at, t.reference, t.amount, t.last4, t.truth,
              coalesce(t.profile in ('demo', 'sandbox'), (select c.profile in ('demo', 'sandbox') from counters c where c.id = $1), false)
         from unnest($3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[])
              as t(case_no, opened_by, at, reference, amount, last4, truth, profile)
       on conflict (counter_id, case_no) do nothing`,
      [
        counterId,
        branch,
        opened.map((e) => e.payload.caseNo),
        opened.map((e) => e.payload.openedBy),
        opened.map((e) => e.at),
        opened.map((e) => e.payload.reference ?? null),
        opened.map((e) => e.payload.amountKobo ?? null),
        opened.map((e) => e.payload.last4 ?? null),
        opened.map((e) => e.payload.truth ?? null),
        // The case's own profile when the counter said it (a Demo case opened on a counter now real is practice).
        opened.map((e) => e.payload.profile ?? null),
      ],
    );
  for (const e of only(events, 'case.resolved'))
    await q.query(
      `update dash_cases set resolution = $3, resolved_by = $4, resolved_at = $5, note = $6
        where counter_id = $1 and case_no = $2 and resolved_at is null`,
      [counterId, e.payload.caseNo, e.payload.resolution, e.payload.by, e.at, e.payload.note ?? null],
    );
}
