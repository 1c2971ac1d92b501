// The owner of the integration tables (integration-migrations.ts): paired systems, the booking
// reference → order links, and the durable callback queue with its attempts.
import type { Db } from '../db';
import type { OrderEvent } from '../../shared/orders';
import type { Delivery } from '../../shared/integration';

export interface IntegrationRow {
  id: string;
  name: string;
  keyHash: string;
  keyFingerprint: string;
  callbackUrl: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export type ChargeSource = 'api' | 'link' | 'folder';

export interface ChargeRow {
  id: number;
  integrationId: string;
  reference: string;
  orderId: number;
  requestHash: string;
  source: ChargeSource;
  callbackUrl: string | null;
  createdAt: number;
  eventsQueued: number;
  settled: boolean;
  /** Its outcome is written to the folder drop's outbox (a request file named it). */
  outbox: boolean;
}

export interface DeliveryRow {
  id: number;
  chargeId: number;
  seq: number;
  from: OrderEvent['from'];
  to: OrderEvent['to'];
  at: number;
  note: string;
  url: string;
  state: 'pending' | 'delivered';
  attempts: number;
  nextAt: number;
  lastError: string | null;
  deliveredAt: number | null;
}

type R = Record<string, unknown>;

const integration = (r: R): IntegrationRow => ({
  id: r.id as string,
  name: r.name as string,
  keyHash: r.key_hash as string,
  keyFingerprint: r.key_fingerprint as string,
  callbackUrl: (r.callback_url as string | null) ?? null,
  createdAt: r.created_at as number,
  lastUsedAt: (r.last_used_at as number | null) ?? null,
  revokedAt: (r.revoked_at as number | null) ?? null,
});

const charge = (r: R): ChargeRow => ({
  id: r.id as number,
  integrationId: r.integration_id as string,
  reference: r.reference as string,
  orderId: r.order_id as number,
  requestHash: r.request_hash as string,
  source: r.source as ChargeSource,
  callbackUrl: (r.callback_url as string | null) ?? null,
  createdAt: r.created_at as number,
  eventsQueued: r.events_queued as number,
  settled: r.settled === 1,
  outbox: r.outbox === 1,
});

const delivery = (r: R): DeliveryRow => ({
  id: r.id as number,
  chargeId: r.charge_id as number,
  seq: r.seq as number,
  from: (r.from_state as DeliveryRow['from']) ?? null,
  to: r.to_state as DeliveryRow['to'],
  at: r.at as number,
  note: r.note as string,
  url: r.url as string,
  state: r.state as DeliveryRow['state'],
  attempts: r.attempts as number,
  nextAt: r.next_at as number,
  lastError: (r.last_error as string | null) ?? null,
  deliveredAt: (r.delivered_at as number | null) ?? null,
});

export class IntegrationStore {
  constructor(private readonly db: Db) {}

  // ---- integrations ----

  addIntegration(i: Omit<IntegrationRow, 'lastUsedAt' | 'revokedAt'>): void {
    this.db
      .prepare(
        'INSERT INTO integrations (id, name, key_hash, key_fingerprint, callback_url, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(i.id, i.name, i.keyHash, i.keyFingerprint, i.callbackUrl, i.createdAt);
  }

  integration(id: string): IntegrationRow | null {
    const r = this.db.prepare('SELECT * FROM integrations WHERE id = ?').get(id) as R | undefined;
    return r ? integration(r) : null;
  }

  /** Paired and not revoked, oldest first. */
  listActive(): IntegrationRow[] {
    return (
      this.db.prepare('SELECT * FROM integrations WHERE revoked_at IS NULL ORDER BY created_at, id').all() as R[]
    ).map(integration);
  }

  revoke(id: string, at: number): boolean {
    return (
      this.db.prepare('UPDATE integrations SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id)
        .changes === 1
    );
  }

  touch(id: string, at: number): void {
    this.db.prepare('UPDATE integrations SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  // ---- charges ----

  /** Called inside the order's own transaction (the checkout's `sell` `alongside`). */
  addCharge(c: Omit<ChargeRow, 'id' | 'eventsQueued' | 'settled' | 'outbox'>): void {
    this.db
      .prepare(
        `INSERT INTO integration_charges (integration_id, reference, order_id, request_hash, source, callback_url, created_at, outbox)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.integrationId,
        c.reference,
        c.orderId,
        c.requestHash,
        c.source,
        c.callbackUrl,
        c.createdAt,
        c.source === 'folder' ? 1 : 0,
      );
  }

  chargeByReference(integrationId: string, reference: string): ChargeRow | null {
    const r = this.db
      .prepare('SELECT * FROM integration_charges WHERE integration_id = ? AND reference = ?')
      .get(integrationId, reference) as R | undefined;
    return r ? charge(r) : null;
  }

  chargeByOrder(orderId: number): ChargeRow | null {
    const r = this.db.prepare('SELECT * FROM integration_charges WHERE order_id = ?').get(orderId) as R | undefined;
    return r ? charge(r) : null;
  }

  charge(id: number): ChargeRow | null {
    const r = this.db.prepare('SELECT * FROM integration_charges WHERE id = ?').get(id) as R | undefined;
    return r ? charge(r) : null;
  }

  /** Charges with an outbox file whose final outcome is not written yet. */
  outcomesToWrite(): ChargeRow[] {
    return (
      this.db
        .prepare('SELECT * FROM integration_charges WHERE outbox = 1 AND outcome_final = 0 ORDER BY id')
        .all() as R[]
    ).map(charge);
  }

  /** A request file named this charge (asked for over HTTP or by link): its outcome goes to the outbox too. */
  useOutbox(chargeId: number): void {
    this.db.prepare('UPDATE integration_charges SET outbox = 1 WHERE id = ?').run(chargeId);
  }

  outcomeFinal(chargeId: number): void {
    this.db.prepare('UPDATE integration_charges SET outcome_final = 1 WHERE id = ?').run(chargeId);
  }

  /** Charges whose state changes may not all be queued yet (work left by a crash). */
  unsettled(): ChargeRow[] {
    return (this.db.prepare('SELECT * FROM integration_charges WHERE settled = 0 ORDER BY id').all() as R[]).map(
      charge,
    );
  }

  /**
   * Settled charges whose order has events not queued yet: a payment after closing (or its
   * handling) recorded just before a crash. Queued again at start.
   */
  behind(): ChargeRow[] {
    return (
      this.db
        .prepare(
          `SELECT c.* FROM integration_charges c
      WHERE c.settled = 1 AND c.events_queued < (SELECT COUNT(*) FROM order_events e WHERE e.order_id = c.order_id) ORDER BY c.id`,
        )
        .all() as R[]
    ).map(charge);
  }

  /**
   * Queues the state changes of a charge not queued yet (`history` is the order's whole history),
   * in one transaction with the count of those queued: each change is queued exactly once.
   * Returns how many were added.
   */
  queueEvents(
    chargeId: number,
    history: readonly OrderEvent[],
    url: string | null,
    final: boolean,
    at: number,
  ): number {
    return this.db
      .transaction((): number => {
        const c = this.charge(chargeId);
        if (!c) return 0;
        const add = this.db
          .prepare(`INSERT INTO integration_deliveries (charge_id, seq, from_state, to_state, at, note, url, next_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
        let added = 0;
        if (url) {
          for (let seq = c.eventsQueued + 1; seq <= history.length; seq++) {
            const e = history[seq - 1]!;
            add.run(chargeId, seq, e.from, e.to, e.at, e.note, url, at);
            added++;
          }
        }
        this.db
          .prepare('UPDATE integration_charges SET events_queued = ?, settled = ? WHERE id = ?')
          .run(Math.max(history.length, c.eventsQueued), final ? 1 : 0, chargeId);
        return added;
      })
      .immediate();
  }

  // ---- deliveries ----

  /** For each charge, its first undelivered change if due: in order per charge, charges side by side. */
  dueDeliveries(now: number, limit: number): DeliveryRow[] {
    return (
      this.db
        .prepare(
          `SELECT d.* FROM integration_deliveries d
      WHERE d.state = 'pending' AND d.next_at <= ?
        AND d.seq = (SELECT MIN(seq) FROM integration_deliveries p WHERE p.charge_id = d.charge_id AND p.state = 'pending')
      ORDER BY d.next_at, d.id LIMIT ?`,
        )
        .all(now, limit) as R[]
    ).map(delivery);
  }

  /** When the next pending delivery is due (null: none pending). */
  nextDueAt(): number | null {
    const r = this.db.prepare("SELECT MIN(next_at) AS t FROM integration_deliveries WHERE state = 'pending'").get() as {
      t: number | null;
    };
    return r.t;
  }

  pendingCount(): number {
    return (
      this.db.prepare("SELECT COUNT(*) AS n FROM integration_deliveries WHERE state = 'pending'").get() as { n: number }
    ).n;
  }

  recordAttempt(
    d: DeliveryRow,
    at: number,
    outcome: { status: number | null; error: string | null; delivered: boolean; nextAt: number },
  ): void {
    this.db
      .transaction(() => {
        this.db
          .prepare('INSERT INTO integration_delivery_attempts (delivery_id, at, status, error) VALUES (?, ?, ?, ?)')
          .run(d.id, at, outcome.status, outcome.error);
        if (outcome.delivered) {
          this.db
            .prepare(
              "UPDATE integration_deliveries SET state = 'delivered', attempts = attempts + 1, delivered_at = ?, last_error = NULL WHERE id = ?",
            )
            .run(at, d.id);
        } else {
          this.db
            .prepare(
              'UPDATE integration_deliveries SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE id = ?',
            )
            .run(outcome.nextAt, outcome.error, d.id);
        }
      })
      .immediate();
  }

  /** Makes every pending delivery of a charge due now (a charge read again, a restart). */
  hurry(chargeId: number, now: number): void {
    this.db
      .prepare("UPDATE integration_deliveries SET next_at = MIN(next_at, ?) WHERE charge_id = ? AND state = 'pending'")
      .run(now, chargeId);
  }

  deliveryLog(chargeId: number): Delivery[] {
    const rows = (
      this.db.prepare('SELECT * FROM integration_deliveries WHERE charge_id = ? ORDER BY seq').all(chargeId) as R[]
    ).map(delivery);
    return rows.map((d) => ({
      sequence: d.seq,
      to: d.to,
      url: d.url,
      state: d.state,
      attempts: d.attempts,
      ...(d.lastError ? { lastError: d.lastError } : {}),
      ...(d.state === 'pending' ? { nextAttemptAt: d.nextAt } : {}),
      ...(d.deliveredAt !== null ? { deliveredAt: d.deliveredAt } : {}),
    }));
  }
}
