// The top-up journal in SQLite: every item is written before the request that sends it, every
// change of state after it, each with an event row, many items per transaction. Final never changes.
// The Hub's outbox gets the same events in the same transactions: an item submitted (a single, or
// a batch item leaving its draft) as `topup.submitted`, each later change as `topup.status`.
import type { Db } from '../db';
import { clipText, NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import { isFinalTopupState, type BatchState, type RowError, type TopupState } from '../../shared/topups';
import { formatReference } from './reference';
import { type BatchRecord, type ItemPatch, type Move, type NewItem, type Owner, type TopupRecord } from './topup-rows';
import { canMove } from './topup-state';
import { TopupJournalQueries } from './topup-journal-queries';

/** What an item's Hub events are made of. */
interface SyncRow {
  state: TopupState;
  reference: string;
  order_no: string | null;
  service_type: 'airtime' | 'betting';
  provider: string;
  customer_id: string;
  amount_kobo: number;
  profile: string;
}

/** The journal's writes; its reads are TopupJournalQueries' (topup-journal-queries.ts). */
export class TopupJournal extends TopupJournalQueries {
  /** `sink`: where each event also goes, in its transaction (the Hub's outbox; none in tools and some tests). */
  constructor(
    db: Db,
    private readonly now: () => number,
    private readonly sink: JournalSink = NO_JOURNAL_SINK,
  ) {
    super(db);
  }

  private submitted(r: SyncRow, at: number): void {
    this.sink.append(
      'topup.submitted',
      {
        reference: r.reference,
        kind: r.service_type,
        amountKobo: r.amount_kobo,
        provider: clipText(r.provider, 64),
        customerId: clipText(r.customer_id, 128),
        profile: clipText(r.profile, 32),
      },
      at,
    );
  }

  private statusEvent(r: SyncRow, status: TopupState, orderNo: string | null, at: number): void {
    this.sink.append(
      'topup.status',
      { reference: r.reference, status, ...(orderNo ? { orderNo: clipText(orderNo, 64) } : {}) },
      at,
    );
  }

  // ---- references ----

  /** `count` fresh references for a counter and day, never handed out twice (skips any taken). */
  private takeReferences(owner: Owner, code: string, day: string, count: number): string[] {
    const bump = this.stmt(
      `INSERT INTO topup_counters (counter_code, business_day, last_seq) VALUES (?, ?, ?)
       ON CONFLICT (counter_code, business_day) DO UPDATE SET last_seq = last_seq + excluded.last_seq RETURNING last_seq`,
    );
    const out: string[] = [];
    while (out.length < count) {
      const want = count - out.length;
      const last = (bump.get(code, day, want) as { last_seq: number }).last_seq;
      for (let seq = last - want + 1; seq <= last; seq++) {
        const ref = formatReference(code, day, seq);
        if (!this.referenceTaken(owner.billsMerchantId, ref)) out.push(ref);
      }
    }
    return out;
  }

  referenceTaken(billsMerchantId: string, reference: string): boolean {
    return (
      this.stmt('SELECT 1 FROM topups WHERE bills_merchant_id = ? AND reference = ?').get(
        billsMerchantId,
        reference,
      ) !== undefined
    );
  }

  /** Taken by an item that is more than a draft (a draft is replaced by the next import, its references freed). */
  referenceUsed(billsMerchantId: string, reference: string): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM topups t LEFT JOIN topup_batches b ON b.id = t.batch_id
         WHERE t.bills_merchant_id = ? AND t.reference = ? AND (b.id IS NULL OR b.state != 'draft')`,
        )
        .get(billsMerchantId, reference) !== undefined
    );
  }

  // ---- writing ----

  /** A single top-up, written as `sending` (its first attempt counted) before its request goes out. */
  insertSingle(owner: Owner, code: string, day: string, item: NewItem, note: string): TopupRecord {
    const tx = this.db.transaction((): number => {
      const at = this.now();
      const [reference] = this.takeReferences(owner, code, day, 1);
      const info = this.db
        .prepare(
          `INSERT INTO topups (reference, profile, bills_merchant_id, service_type, provider, customer_id, customer_name, amount_kobo,
             state, attempts, sent_at, business_day, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'sending', 1, ?, ?, ?, ?)`,
        )
        .run(
          reference,
          owner.profile,
          owner.billsMerchantId,
          item.serviceType,
          item.provider,
          item.customerId,
          item.customerName ?? null,
          item.amountKobo,
          at,
          day,
          at,
          at,
        );
      const id = Number(info.lastInsertRowid);
      this.event(id, at, null, 'sending', note);
      this.submitted(
        {
          reference: reference!,
          service_type: item.serviceType,
          amount_kobo: item.amountKobo,
          provider: item.provider,
          customer_id: item.customerId,
          profile: owner.profile,
          order_no: null,
          state: 'sending',
        },
        at,
      );
      return id;
    });
    return this.require(tx.immediate());
  }

  /** A checked batch file: the batch, its good rows as draft items, its row errors; all or nothing. */
  createBatch(
    owner: Owner,
    code: string,
    day: string,
    b: {
      fileName: string;
      totalRows: number;
      badRows: number;
      chunkSize: number;
      items: NewItem[];
      errors: RowError[];
    },
  ): number {
    const tx = this.db.transaction((): number => {
      const at = this.now();
      const batchId = Number(
        this.db
          .prepare(
            `INSERT INTO topup_batches (profile, bills_merchant_id, file_name, state, chunk_size, total_rows, bad_rows, created_at, updated_at)
             VALUES (?, ?, ?, 'draft', ?, ?, ?, ?, ?)`,
          )
          .run(owner.profile, owner.billsMerchantId, b.fileName, b.chunkSize, b.totalRows, b.badRows, at, at)
          .lastInsertRowid,
      );
      const generated = this.takeReferences(owner, code, day, b.items.filter((i) => !i.reference).length);
      let g = 0;
      const insert = this.stmt(
        `INSERT INTO topups (reference, profile, bills_merchant_id, batch_id, line, service_type, provider, customer_id, amount_kobo,
           state, business_day, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)`,
      );
      for (const item of b.items) {
        const reference = item.reference ?? generated[g++];
        insert.run(
          reference,
          owner.profile,
          owner.billsMerchantId,
          batchId,
          item.line ?? null,
          item.serviceType,
          item.provider,
          item.customerId,
          item.amountKobo,
          day,
          at,
          at,
        );
      }
      const err = this.stmt('INSERT INTO topup_row_errors (batch_id, line, col, message) VALUES (?, ?, ?, ?)');
      for (const e of b.errors) err.run(batchId, e.line, e.column, e.message);
      return batchId;
    });
    return tx.immediate();
  }

  addRowErrors(batchId: number, errors: RowError[]): void {
    const err = this.stmt('INSERT INTO topup_row_errors (batch_id, line, col, message) VALUES (?, ?, ?, ?)');
    this.db
      .transaction(() => {
        for (const e of errors) err.run(batchId, e.line, e.column, e.message);
      })
      .immediate();
  }

  /**
   * Applies moves atomically, each with an event; a move the state machine or `from` refuses is
   * skipped. Returns the records that changed.
   */
  move(moves: Move[]): TopupRecord[] {
    if (moves.length === 0) return [];
    const tx = this.db.transaction((): number[] => {
      const at = this.now();
      const changed: number[] = [];
      const get = this.stmt(
        'SELECT state, reference, order_no, service_type, provider, customer_id, amount_kobo, profile FROM topups WHERE id = ?',
      );
      for (const m of moves) {
        const row = get.get(m.id) as SyncRow | undefined;
        const cur = row?.state;
        if (!row || !cur || (m.from && !m.from.includes(cur))) continue;
        const orderNo = m.patch?.orderNo ?? row.order_no;
        if (cur === m.to) {
          if (m.patch && this.write(m.id, at, m.patch, null)) {
            changed.push(m.id);
            // The provider's order number learnt without a move: the Hub routes by it.
            if (orderNo !== row.order_no) this.statusEvent(row, cur, orderNo, at);
          }
          continue;
        }
        if (!canMove(cur, m.to)) continue;
        this.write(m.id, at, m.patch ?? {}, m.to);
        this.event(m.id, at, cur, m.to, m.note);
        // A draft (a batch not started) was never submitted: the Hub hears of it when it goes to be sent.
        if (cur === 'draft') {
          if (m.to === 'queued') this.submitted(row, at);
        } else this.statusEvent(row, m.to, orderNo, at);
        changed.push(m.id);
      }
      return changed;
    });
    return this.getMany(tx.immediate());
  }

  private write(id: number, at: number, p: ItemPatch, state: TopupState | null): boolean {
    const sets: string[] = [];
    const args: unknown[] = [];
    const set = (col: string, v: unknown) => {
      sets.push(`${col} = ?`);
      args.push(v);
    };
    if (p.providerStatus !== undefined) set('provider_status', p.providerStatus);
    if (p.orderNo !== undefined && p.orderNo !== null) set('order_no', p.orderNo);
    if (p.errorMsg !== undefined) set('error_msg', p.errorMsg);
    if (p.customerName !== undefined) set('customer_name', p.customerName);
    if (p.sending) {
      sets.push('attempts = attempts + 1');
      set('sent_at', at);
    }
    if (state) {
      set('state', state);
      if (isFinalTopupState(state)) set('finished_at', at);
    }
    if (sets.length === 0) return false;
    set('updated_at', at);
    // A patch alone never touches a final item.
    const guard = state ? '' : ` AND state NOT IN ('success','fail','not_sent','cancelled')`;
    return this.stmt(`UPDATE topups SET ${sets.join(', ')} WHERE id = ?${guard}`).run(...args, id).changes > 0;
  }

  private event(id: number, at: number, from: TopupState | null, to: TopupState, note: string): void {
    this.stmt('INSERT INTO topup_events (topup_id, at, from_state, to_state, note) VALUES (?, ?, ?, ?, ?)').run(
      id,
      at,
      from,
      to,
      note,
    );
  }

  // ---- batches ----

  setBatch(
    id: number,
    patch: Partial<{
      state: BatchState;
      chunkSize: number;
      notice: string | null;
      check: BatchRecord['check'];
      finishedAt: number;
    }>,
  ): BatchRecord | null {
    const sets: string[] = ['updated_at = ?'];
    const args: unknown[] = [this.now()];
    const set = (col: string, v: unknown) => {
      sets.push(`${col} = ?`);
      args.push(v);
    };
    if (patch.state !== undefined) set('state', patch.state);
    if (patch.chunkSize !== undefined) set('chunk_size', patch.chunkSize);
    if (patch.notice !== undefined) set('notice', patch.notice);
    if (patch.finishedAt !== undefined) set('finished_at', patch.finishedAt);
    if (patch.check) {
      set('check_state', patch.check.state);
      set('check_checked', patch.check.checked);
      set('check_total', patch.check.total);
      set('check_not_found', patch.check.notFound);
      set('check_unchecked', patch.check.unchecked);
    }
    this.stmt(`UPDATE topup_batches SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
    return this.batch(id);
  }

  /** Drops a draft's items (none was ever sent), keeping the batch row and its errors for the record. */
  discardDraft(id: number): void {
    this.db
      .transaction(() => {
        this.stmt("DELETE FROM topups WHERE batch_id = ? AND state IN ('draft','not_sent') AND attempts = 0").run(id);
        this.stmt("UPDATE topup_batches SET state = 'discarded', updated_at = ? WHERE id = ? AND state = 'draft'").run(
          this.now(),
          id,
        );
      })
      .immediate();
  }

  private require(id: number): TopupRecord {
    const r = this.get(id);
    if (!r) throw new Error(`top-up ${id} vanished after insert`);
    return r;
  }
}
