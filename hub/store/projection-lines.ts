// The lines of each synced sale (dash_order_lines) and its tender (dash_orders' tender, total,
// cash part and card part), projected from the sync's `order.created` with its order
// (projections.ts), in the same statement batch. Every sale is read as a basket (`soldBasketOf`,
// shared/basket-sale.ts): a sale without basket is one `Ticket` line by card. A line counts where
// its sale counts (the order's counted_at and in_card, shared/ledger-row.ts): the dashboard's SQL
// joins the order and filters by those (dashboard-sales.ts).
import { soldBasketOf, TYPED_TICKET_TYPE, type SoldBasket } from '../../shared/basket-sale';
import type { SyncEvent } from '../../shared/hub-contract';
import type { SqlRunner } from '../db/adapter';

/** The category of a tickets line (a concession's is the catalogue's). */
export const TICKETS_CATEGORY = 'Tickets';

type Created = Extract<SyncEvent, { kind: 'order.created' }>;

/** The sale as a basket: its own, or its one Ticket line by card (a sale that names no sale at all: one line of its amount, no tickets). */
export function saleBasketOf(p: Created['payload']): SoldBasket {
  if (p.basket) return p.basket;
  if (p.sale) return soldBasketOf({ sale: p.sale });
  const a = p.amountKobo;
  const none = { ticketsKobo: a, bookingFeeKobo: 0, concessionsKobo: 0, tenderedKobo: 0, changeKobo: 0 };
  return {
    lines: [
      {
        kind: 'tickets',
        ticketType: TYPED_TICKET_TYPE,
        seats: [],
        quantity: 0,
        unitKobo: 0,
        feePerTicketKobo: 0,
        amountKobo: a,
        bookingFeeKobo: 0,
      },
    ],
    tender: { kind: 'card' },
    amounts: { ...none, totalKobo: a, cashKobo: 0, cardKobo: a },
  };
}

/** The tender columns of dash_orders, as unnest's arrays: tender, total, cash part, card part. */
export const tenderColumns = (baskets: SoldBasket[]) => [
  baskets.map((b) => b.tender.kind),
  baskets.map((b) => b.amounts.totalKobo),
  baskets.map((b) => b.amounts.cashKobo),
  baskets.map((b) => b.amounts.cardKobo),
];

/** The lines of the orders just inserted (`inserted`: those new to the projection; a repeated sale has its lines already). */
export async function projectLines(
  q: SqlRunner,
  inserted: { id: unknown; reference: unknown }[],
  created: Created[],
  baskets: SoldBasket[],
): Promise<void> {
  if (!inserted.length) return;
  const idOf = new Map(inserted.map((r) => [String(r.reference), String(r.id)]));
  const rows: { id: string; i: number; l: SoldBasket['lines'][number] }[] = [];
  created.forEach((e, k) => {
    const id = idOf.get(e.payload.reference);
    if (id === undefined) return;
    idOf.delete(e.payload.reference); // a reference twice in one batch: the first is the order
    baskets[k]!.lines.forEach((l, i) => rows.push({ id, i, l }));
  });
  if (!rows.length) return;
  await q.query(
    `insert into dash_order_lines (order_id, position, kind, code, name, category, quantity, unit_kobo, amount_kobo, fee_kobo, chosen)
     select t.id, t.i, t.kind, t.code, t.name, t.category, t.quantity, t.unit, t.amount, t.fee,
            coalesce(array(select jsonb_array_elements_text(t.chosen)), '{}')
       from unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[], $9::bigint[], $10::bigint[], $11::jsonb[])
            as t(id, i, kind, code, name, category, quantity, unit, amount, fee, chosen)
     on conflict (order_id, position) do nothing`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.i),
      rows.map((r) => r.l.kind),
      rows.map((r) => (r.l.kind === 'tickets' ? r.l.ticketType || TYPED_TICKET_TYPE : r.l.code)),
      rows.map((r) => (r.l.kind === 'tickets' ? r.l.ticketType || TYPED_TICKET_TYPE : r.l.name)),
      rows.map((r) => (r.l.kind === 'tickets' ? TICKETS_CATEGORY : r.l.category)),
      rows.map((r) => r.l.quantity),
      rows.map((r) => r.l.unitKobo),
      rows.map((r) => r.l.amountKobo),
      rows.map((r) => (r.l.kind === 'tickets' ? r.l.bookingFeeKobo : 0)),
      rows.map((r) => JSON.stringify(r.l.kind === 'tickets' ? [] : r.l.chosen.map((c) => c.code))),
    ],
  );
}
