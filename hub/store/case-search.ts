// The complaint desk's search of a branch (docs/refunds.md, "The complaint desk"): the synced sales
// (dash_orders) of the asking counter's own branch — never another's — of an amount (the card part
// or the basket's total) made in a window, newest first, at most HUB_CASES_MAX. A sale wholly in
// cash took nothing by card and is left out; practice sales answer only a practice search. A sale
// the provider paid after closing (dash_late) says so in its state.
import type { z } from 'zod';
import { HUB_CASES_MAX, type HubCaseSale, type HubCaseSearchSchema } from '../../shared/hub-cases-contract';
import type { SqlRunner } from '../db/adapter';
import { num } from '../db/adapter';

type Row = Record<string, unknown>;

export async function searchBranchSales(
  db: SqlRunner,
  branch: string,
  q: z.output<typeof HubCaseSearchSchema>,
): Promise<HubCaseSale[]> {
  const rows = await db.query<Row>(
    `select o.counter_id, c.name as counter_name, o.reference, o.state, o.amount_kobo, o.total_kobo, o.created_at,
            coalesce(o.film_title, '') as film_title, coalesce(o.seats, '') as seats, l.kind as late_kind
       from dash_orders o
       join counters c on c.id = o.counter_id
       left join dash_late l on l.counter_id = o.counter_id and l.reference = o.reference
      where o.branch = $1 and o.practice = $2 and o.created_at >= $3 and o.created_at <= $4
        and (o.amount_kobo = $5 or o.total_kobo = $5) and o.tender <> 'cash'
      order by o.created_at desc, o.id desc
      limit ${HUB_CASES_MAX}`,
    [branch, q.practice, q.from, q.to, q.amountKobo],
  );
  return rows.map((r) => ({
    counterId: String(r.counter_id),
    counterName: String(r.counter_name),
    reference: String(r.reference),
    state: r.late_kind === 'paid-after-closing' ? 'paid-after-closing' : String(r.state),
    amountKobo: num(r.amount_kobo),
    totalKobo: num(r.total_kobo),
    createdAt: num(r.created_at),
    filmTitle: String(r.film_title),
    seats: String(r.seats),
  }));
}
