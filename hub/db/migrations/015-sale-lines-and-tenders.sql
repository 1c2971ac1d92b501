-- the lines of each synced sale (its basket) and how it was paid, for Today and Shifts by category and tender and the items export
-- Written by projections.ts from the sync's order.created (a sale without basket is one Ticket line by
-- card, shared/basket-sale.ts soldBasketOf). A line counts where its sale counts: dash_orders.counted_at
-- and in_card (shared/ledger-row.ts), so the SQL joins the order and filters by those.
--   tender          card | cash | split
--   total_kobo      what the customer paid (tickets, booking fee, concessions)
--   cash_part_kobo  the cash part (0 for card)
--   card_part_kobo  the card part (the order's amount: what the terminal takes)
alter table dash_orders add column tender text not null default 'card';
alter table dash_orders add column total_kobo bigint;
alter table dash_orders add column cash_part_kobo bigint not null default 0;
alter table dash_orders add column card_part_kobo bigint;
update dash_orders set total_kobo = amount_kobo, card_part_kobo = amount_kobo;
alter table dash_orders alter column total_kobo set not null;
alter table dash_orders alter column card_part_kobo set not null;
alter table dash_orders alter column tender drop default;
alter table dash_orders alter column cash_part_kobo drop default;
--   kind        tickets | item | combo
--   code        the ticket type of a tickets line, else the item's or the combo's code
--   category    Tickets for a tickets line, else the catalogue's category
--   amount_kobo quantity x unit price (a tickets line's booking fee apart, in fee_kobo)
--   chosen      a combo's items, one code per component (what stock counts lose per combo)
create table dash_order_lines (
  order_id bigint not null references dash_orders (id),
  position integer not null,
  kind text not null,
  code text not null,
  name text not null,
  category text not null,
  quantity integer not null,
  unit_kobo bigint not null,
  amount_kobo bigint not null,
  fee_kobo bigint not null,
  chosen text[] not null,
  primary key (order_id, position)
);
-- The sales synced before: one Ticket line each, from the sale the journal holds (its amount when it holds none).
insert into dash_order_lines (order_id, position, kind, code, name, category, quantity, unit_kobo, amount_kobo, fee_kobo, chosen)
select o.id, 0, 'tickets', 'Ticket', 'Ticket', 'Tickets',
       coalesce((j.sale ->> 'tickets')::integer, o.tickets, 0),
       coalesce((j.sale ->> 'priceKobo')::bigint, 0),
       coalesce((j.sale ->> 'tickets')::bigint * (j.sale ->> 'priceKobo')::bigint, o.amount_kobo),
       coalesce((j.sale ->> 'bookingFeeKobo')::bigint, 0),
       '{}'
  from dash_orders o
  left join (select distinct on (counter_id, payload ->> 'reference') counter_id, payload ->> 'reference' as reference, payload -> 'sale' as sale
               from journal where kind = 'order.created' order by counter_id, payload ->> 'reference', seq) j
    on j.counter_id = o.counter_id and j.reference = o.reference;
create index dash_orders_counter_counted on dash_orders (counter_id, counted_at) include (practice, outcome, in_card);
-- The order search by amount finds a sale by its card part or by its total (a cash sale's card part is 0).
create index dash_orders_total on dash_orders (total_kobo, created_at);
create index dash_orders_branch_total on dash_orders (branch, total_kobo, created_at);
