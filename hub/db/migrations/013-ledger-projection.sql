-- what each synced sale contributes to the ledger: its outcome line, when it is counted, its part of the card total
-- Decided by shared/ledger-row.ts (ledgerRow) when projections.ts projects the row. Today, Shifts,
-- Shows and the attention list only filter by counted_at and sum these (docs/hub.md, "How Today counts").
--   outcome       paid | paid_after_closing | failed | cancelled | expired | open (the ledger's outcome lines)
--   counted_at    paid: when it first turned paid, paid after closing: when the counter learnt it, else when sold
--   outcome_kobo  its amount in that line (paid after closing: the provider's amount)
--   card_kobo     its part of the card total (0 outside it: not paid, or a refund to be arranged)
--   in_card       inside the card total (its tickets count with it)
alter table dash_orders add column outcome text not null default 'open';
alter table dash_orders add column counted_at bigint;
alter table dash_orders add column outcome_kobo bigint not null default 0;
alter table dash_orders add column card_kobo bigint not null default 0;
alter table dash_orders add column in_card boolean not null default false;
-- The rows synced before: the same rule, once, over what the projections hold.
update dash_orders o
   set outcome = case when o.state = 'paid' then 'paid'
                      when x.late_kind = 'paid-after-closing' then 'paid_after_closing'
                      when o.state in ('failed', 'cancelled', 'expired') then o.state
                      else 'open' end,
       counted_at = case when o.state = 'paid' then coalesce(x.paid_at, o.created_at)
                         when x.late_kind = 'paid-after-closing' then x.late_at
                         else o.created_at end,
       outcome_kobo = case when o.state <> 'paid' and x.late_kind = 'paid-after-closing' then x.late_kobo else o.amount_kobo end,
       card_kobo = case when o.state = 'paid' then o.amount_kobo
                        when x.late_kind = 'paid-after-closing' and x.late_how is distinct from 'refund' then x.late_kobo
                        else 0 end,
       in_card = coalesce(o.state = 'paid' or (x.late_kind = 'paid-after-closing' and x.late_how is distinct from 'refund'), false)
  from (select d.id, l.kind as late_kind, l.at as late_at, l.amount_kobo as late_kobo, l.handled_how as late_how,
               (select min(e.at) from dash_order_events e where e.order_id = d.id and e.status = 'paid') as paid_at
          from dash_orders d left join dash_late l on l.counter_id = d.counter_id and l.reference = d.reference) x
 where x.id = o.id;
alter table dash_orders alter column counted_at set not null;
-- From now on the projector writes every column (ledgerRow): no default decides for it.
alter table dash_orders alter column outcome drop default;
alter table dash_orders alter column outcome_kobo drop default;
alter table dash_orders alter column card_kobo drop default;
alter table dash_orders alter column in_card drop default;
-- Today (totals, branches, counters, cashiers, hours) and the attention list read by counted_at.
create index dash_orders_counted on dash_orders (counted_at, id) include (branch, counter_id, cashier, practice, outcome, outcome_kobo, card_kobo, in_card);
create index dash_orders_branch_counted on dash_orders (branch, counted_at, id) include (counter_id, cashier, practice, outcome, outcome_kobo, card_kobo, in_card);
