// Prometheus metrics of one Hub instance (its own registry, so two instances can share a process in tests).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { HubDb } from './db/adapter';

export interface HubMetrics {
  registry: Registry;
  received: Counter<'kind'>;
  refused: Counter<'kind' | 'reason'>;
  relayed: Counter<'kind'>;
  relayLag: Histogram<string>;
  syncEvents: Counter<string>;
  /** Notifications of orders not yet known, held for their counter; and those sent to no counter. */
  held: Counter<'kind'>;
  dropped: Counter<'kind' | 'reason'>;
}

export function createMetrics(o: { db: HubDb; defaultMetrics: boolean }): HubMetrics {
  const registry = new Registry();
  if (o.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'hub_' });
  const m: HubMetrics = {
    registry,
    received: new Counter({
      name: 'hub_notifications_received_total',
      help: 'Provider notifications accepted and stored',
      labelNames: ['kind'],
      registers: [registry],
    }),
    refused: new Counter({
      name: 'hub_notifications_refused_total',
      help: 'Provider notifications refused (forged, stale, malformed, too large, rate limited)',
      labelNames: ['kind', 'reason'],
      registers: [registry],
    }),
    relayed: new Counter({
      name: 'hub_notifications_relayed_total',
      help: 'Deliveries sent to counters over the relay stream',
      labelNames: ['kind'],
      registers: [registry],
    }),
    relayLag: new Histogram({
      name: 'hub_relay_lag_seconds',
      help: 'From the provider notification arriving to its delivery leaving for the counter',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 30, 300, 3600],
      registers: [registry],
    }),
    syncEvents: new Counter({
      name: 'hub_sync_events_total',
      help: 'Journal events stored from counters',
      registers: [registry],
    }),
    held: new Counter({
      name: 'hub_notifications_held_total',
      help: 'Notifications of orders no counter owns yet, held for the counter that creates them',
      labelNames: ['kind'],
      registers: [registry],
    }),
    dropped: new Counter({
      name: 'hub_notifications_dropped_total',
      help: "Notifications sent to no counter (reason: expired = no counter synced the order while held; full = the holding area was full; no-key = nothing to route by; not-ours = a bills reference with no live counter's code, not stored; source-full = its address already held its share, not stored)",
      labelNames: ['kind', 'reason'],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'hub_sync_backlog_events',
    help: "Events waiting in each counter's outbox, as it last reported",
    labelNames: ['counter'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await o.db.query<{ id: string; queue_length: unknown }>(
        'select id, queue_length from counters where revoked_at is null and queue_length is not null',
      );
      for (const r of rows) this.set({ counter: r.id }, Number(r.queue_length));
    },
  });
  new Gauge({
    name: 'hub_notifications_held',
    help: 'Notifications of orders no counter owns yet, held now (all instances)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await o.db.query<{ kind: string; n: unknown }>(
        'select kind, count(*) as n from quarantine group by kind',
      );
      for (const r of rows) this.set({ kind: r.kind }, Number(r.n));
    },
  });
  new Gauge({
    name: 'hub_db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = o.db.poolStats();
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  return m;
}

/** The counters with an open relay stream on this instance, read from the relay at each scrape (the relay is made after the metrics it counts into). */
export function countConnected(m: HubMetrics, connected: () => number): void {
  new Gauge({
    name: 'hub_counters_connected',
    help: 'Counters with an open relay stream on this instance',
    registers: [m.registry],
    collect() {
      this.set(connected());
    },
  });
}
