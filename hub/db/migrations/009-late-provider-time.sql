-- the provider's time of a late outcome (lateAt, docs/late-payments.md): shown everywhere; at stays when the counter learnt it (counted by it)
alter table dash_late add column provider_at bigint
