// Durable record of every accepted webhook event, written before we answer success. A UNIQUE
// dedupe key makes repeats harmless; events whose handler failed can be replayed from here.
import type { Db, Migration } from '../db';
import { checkIn } from '../lib';

const WEBHOOK_KINDS = ['pos', 'bills'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export const WEBHOOK_MIGRATIONS: Migration[] = [
  {
    name: 'webhook_events_v1',
    sql: `CREATE TABLE webhook_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL ${checkIn('kind', WEBHOOK_KINDS)},
      dedupe_key TEXT NOT NULL UNIQUE,
      order_no TEXT NOT NULL,
      status TEXT NOT NULL,
      payload TEXT NOT NULL,
      received_at INTEGER NOT NULL,
      handled_at INTEGER,
      handler_error TEXT
    );
    CREATE INDEX webhook_events_unhandled ON webhook_events (handled_at) WHERE handled_at IS NULL;`,
  },
];

interface StoredWebhookEvent {
  id: number;
  kind: WebhookKind;
  dedupeKey: string;
  orderNo: string;
  status: string;
  payload: unknown;
  receivedAt: number;
  handledAt: number | null;
  handlerError: string | null;
}

export function webhookDedupeKey(kind: WebhookKind, orderNo: string, status: string): string {
  return `${kind}:${orderNo}:${status}`;
}

/** Inserts the event unless its dedupe key is known. Returns its id, or null for a repeat. */
export function recordWebhookEvent(
  db: Db,
  e: { kind: WebhookKind; dedupeKey: string; orderNo: string; status: string; payload: unknown; receivedAt: number },
): number | null {
  const r = db
    .prepare(
      'INSERT OR IGNORE INTO webhook_events (kind, dedupe_key, order_no, status, payload, received_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(e.kind, e.dedupeKey, e.orderNo, e.status, JSON.stringify(e.payload), e.receivedAt);
  return r.changes === 1 ? Number(r.lastInsertRowid) : null;
}

export function markWebhookEventHandled(db: Db, id: number, at: number): void {
  db.prepare('UPDATE webhook_events SET handled_at = ?, handler_error = NULL WHERE id = ?').run(at, id);
}

export function markWebhookEventFailed(db: Db, id: number, error: string): void {
  db.prepare('UPDATE webhook_events SET handler_error = ? WHERE id = ?').run(error.slice(0, 500), id);
}

interface Row {
  id: number;
  kind: WebhookKind;
  dedupe_key: string;
  order_no: string;
  status: string;
  payload: string;
  received_at: number;
  handled_at: number | null;
  handler_error: string | null;
}

function toEvent(r: Row): StoredWebhookEvent {
  return {
    id: r.id,
    kind: r.kind,
    dedupeKey: r.dedupe_key,
    orderNo: r.order_no,
    status: r.status,
    payload: JSON.parse(r.payload) as unknown,
    receivedAt: r.received_at,
    handledAt: r.handled_at,
    handlerError: r.handler_error,
  };
}

/** Events recorded but not (successfully) handled yet, oldest first: replay them at start-up. */
export function listUnhandledWebhookEvents(db: Db): StoredWebhookEvent[] {
  return (db.prepare('SELECT * FROM webhook_events WHERE handled_at IS NULL ORDER BY id').all() as Row[]).map(toEvent);
}

/** @internal for tests */
export function listWebhookEvents(db: Db, kind?: WebhookKind): StoredWebhookEvent[] {
  const rows = kind
    ? (db.prepare('SELECT * FROM webhook_events WHERE kind = ? ORDER BY id').all(kind) as Row[])
    : (db.prepare('SELECT * FROM webhook_events ORDER BY id').all() as Row[]);
  return rows.map(toEvent);
}
