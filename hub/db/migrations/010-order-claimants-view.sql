-- order_claimants: who owns an order (one view for routing, holding and shared claims)
-- "Who owns this order": every live (not revoked) counter that claimed an order key, with its
-- branch. The routing of a new notification (store/ingest.ts, store/notifications.ts), the release
-- of held ones (store/quarantine.ts) and the shared claims (store/claims.ts, store/order-claims.ts) all read this one view,
-- so a revoked counter is left out in one place. A plain view: the planner inlines it.
create view order_claimants as
  select o.order_key, o.counter_id, c.branch, o.registered_at
    from order_owners o join counters c on c.id = o.counter_id and c.revoked_at is null
