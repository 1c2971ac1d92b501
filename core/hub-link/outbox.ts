// The journal outbox bound for the Hub (owner of `hub_outbox` and `hub_state`). The journal owners
// append their events through a JournalSink inside the very transaction that writes the event, so
// an event and its outbox row commit together or not at all. `seq` is the per-counter sequence the
// Hub keeps: AUTOINCREMENT, rows never deleted, and a rolled-back append takes its number back with
// it (sqlite_sequence is written in the same transaction), so the numbers run 1, 2, 3… without gaps.
// The outbox is written always, Hub or not: a counter enrolled later sends its history from event 1.
import type { Statement } from 'better-sqlite3';
import { SYNC_PAYLOADS, type SyncEvent, type SyncKind } from '../../shared/hub-contract';
import { isPricedByEngine } from '../../shared/hub-basket-contract';
import type { SoldBasket } from '../../shared/basket-sale';
import type { Db } from '../db';
import { TypedEmitter } from '../lib';
import type { Logger } from '../../shared/logger';
import type { AppendListener, JournalSink, SyncPayload } from '../journal-sink';

/** hub_state keys: the last sequence the Hub holds (contiguously from 1), and which counter id it holds it for. */
const LAST_SEQ_KEY = 'sync.lastSeq';
const COUNTER_KEY = 'sync.counterId';

/**
 * The payload as its schema reads it. An `order.created` whose basket the engine priced is checked
 * without the basket (made within the Hub's limits by construction: shared/hub-basket-contract.ts),
 * with the one rule that ties the two: its amount is the basket's card part.
 */
function checkPayload(kind: SyncKind, payload: unknown): ReturnType<(typeof SYNC_PAYLOADS)[SyncKind]['safeParse']> {
  const basket = kind === 'order.created' ? (payload as { basket?: unknown }).basket : undefined;
  if (!isPricedByEngine(basket)) return SYNC_PAYLOADS[kind].safeParse(payload);
  const rest = SYNC_PAYLOADS['order.created'].safeParse({ ...(payload as object), basket: undefined });
  if (!rest.success) return rest;
  const sold = basket as SoldBasket;
  if (rest.data.amountKobo !== sold.amounts.cardKobo) return SYNC_PAYLOADS['order.created'].safeParse(payload); // refused with the schema's own words
  return { success: true, data: { ...rest.data, basket: sold } };
}

export class HubOutbox {
  private readonly insertRow: Statement;
  private readonly readRows: Statement;
  private readonly maxSeq: Statement;
  private readonly getState: Statement;
  private readonly setState: Statement;

  constructor(private readonly db: Db) {
    this.insertRow = db.prepare('INSERT INTO hub_outbox (kind, at, payload_json) VALUES (?, ?, ?)');
    this.readRows = db.prepare('SELECT seq, kind, at, payload_json FROM hub_outbox WHERE seq > ? ORDER BY seq LIMIT ?');
    this.maxSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM hub_outbox');
    this.getState = db.prepare('SELECT value FROM hub_state WHERE key = ?');
    this.setState = db.prepare(
      'INSERT INTO hub_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  /**
   * Appends one event; returns its sequence number. Must run inside the owner's open transaction.
   * A payload its schema refuses is a bug in the owner: this throws, which rolls the owner's
   * transaction (its own event included) back, rather than keeping an event the Hub would refuse.
   */
  append<K extends SyncKind>(kind: K, payload: SyncPayload<K>, at: number): number {
    if (!this.db.inTransaction)
      throw new Error(
        `hub outbox: a ${kind} event was appended outside a transaction (append inside the transaction that writes the event)`,
      );
    const schema = SYNC_PAYLOADS[kind];
    if (!schema) throw new Error(`hub outbox: unknown event kind "${String(kind)}"`);
    if (!Number.isFinite(at) || at < 0) throw new Error(`hub outbox: a ${kind} event has a bad time ${String(at)}`);
    const parsed = checkPayload(kind, payload);
    if (!parsed.success) {
      const why = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`)
        .join('; ');
      throw new Error(`hub outbox: a ${kind} event does not match its schema (${why})`);
    }
    return Number(this.insertRow.run(kind, Math.round(at), JSON.stringify(parsed.data)).lastInsertRowid);
  }

  /** Up to `limit` events after `seq`, in order, exactly as they were written. */
  readAfter(seq: number, limit: number): SyncEvent[] {
    const rows = this.readRows.all(seq, limit) as { seq: number; kind: SyncKind; at: number; payload_json: string }[];
    return rows.map(
      (r) => ({ seq: r.seq, kind: r.kind, at: r.at, payload: JSON.parse(r.payload_json) as unknown }) as SyncEvent,
    );
  }

  /**
   * Events after `seq`. The numbers have no gaps (see the top of this file), so this is the head
   * minus `seq`: one index lookup however long the queue (the status bar asks on every change).
   */
  countAfter(seq: number): number {
    return Math.max(0, this.headSeq() - seq);
  }

  /** The newest event's number (0 when empty). */
  headSeq(): number {
    return (this.maxSeq.get() as { n: number }).n;
  }

  /**
   * The last sequence the Hub said it holds (0: nothing yet, or never enrolled). Given a counter
   * id, 0 when the position was kept for another one (the counter was enrolled again).
   */
  lastSeq(counterId?: string): number {
    if (counterId !== undefined) {
      const owner = this.getState.get(COUNTER_KEY) as { value: string } | undefined;
      if (owner && owner.value !== counterId) return 0;
    }
    const r = this.getState.get(LAST_SEQ_KEY) as { value: string } | undefined;
    const n = r ? Number(r.value) : 0;
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  }

  /** Keeps the Hub's position (for `counterId` when given). */
  setLastSeq(seq: number, counterId?: string): void {
    if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`hub outbox: bad lastSeq ${seq}`);
    this.db
      .transaction(() => {
        this.setState.run(LAST_SEQ_KEY, String(seq));
        if (counterId !== undefined) this.setState.run(COUNTER_KEY, counterId);
      })
      .immediate();
  }
}

interface OutboxSinkDeps {
  /**
   * The cashier of the shift open at a moment ('' when none): fills `cashier` of a sale that does
   * not name one, so the orders module never reads the records module's tables.
   */
  cashierAt?: (at: number) => string;
  /** Where a throwing append listener is reported (listeners never reach the owner's transaction). */
  logger?: Logger;
}

/** A JournalSink over the outbox: fills the sale's cashier and tells listeners (the sync pusher) after each append. */
export function createOutboxSink(
  outbox: HubOutbox,
  deps: OutboxSinkDeps = {},
): JournalSink & { onAppend(listener: AppendListener): () => void } {
  const emitter = new TypedEmitter<{ append: [kind: SyncKind, payload: unknown] }>({
    onListenerError: (e) =>
      deps.logger?.warn('hub outbox: an append listener failed', { error: e instanceof Error ? e.message : String(e) }),
  });
  return {
    append(kind, payload, at) {
      let p = payload;
      if (kind === 'order.created' && deps.cashierAt) {
        const sale = payload as SyncPayload<'order.created'>;
        if (sale.cashier === undefined) {
          const cashier = deps.cashierAt(at).slice(0, 80);
          if (cashier) p = { ...sale, cashier } as typeof payload;
        }
      }
      outbox.append(kind, p, at);
      emitter.emit('append', kind, p);
    },
    onAppend: (listener) => emitter.on('append', listener),
  };
}
