// What the top-up pieces share while running (singles, batches): the journal, the changes told to
// the screen, whether the service is stopping, the lookups every door uses (an item, a batch, its
// view), and whose top-ups are the counter's now (the active profile's bills merchant).
import { AppError } from '../../shared/errors';
import type { BatchView } from '../../shared/topups';
import type { Logger } from '../../shared/logger';
import { TypedEmitter } from '../lib';
import { notConfiguredError } from '../provider';
import type { TopupJournal } from './topup-journal';
import type { BatchRecord, Owner, TopupRecord } from './topup-rows';

export interface Identity extends Owner {
  counterName: string;
}

export interface TopupRunDeps {
  journal: TopupJournal;
  logger: Logger;
  now: () => number;
  /** Who the counter is now (the active profile's names and bills merchant). */
  identity: () => Identity;
}

export class TopupRun {
  readonly journal: TopupJournal;
  readonly logger: Logger;
  readonly now: () => number;
  /** A listener that throws is logged and must not stop the engine that emitted. */
  private readonly changes: TypedEmitter<{ items: [items: TopupRecord[]]; batch: [batchId: number] }>;
  private stopping = false;

  constructor(private readonly deps: TopupRunDeps) {
    this.journal = deps.journal;
    this.logger = deps.logger;
    this.now = deps.now;
    this.changes = new TypedEmitter({
      onListenerError: (e) =>
        deps.logger.error('top-up listener failed', { error: e instanceof Error ? e.message : String(e) }),
    });
  }

  /** Set by `stop`: nothing new starts after it. */
  get stopped(): boolean {
    return this.stopping;
  }

  stop(): void {
    this.stopping = true;
  }

  /** Items that changed (already journaled). */
  emitItems = (items: TopupRecord[]): void => void this.changes.emit('items', items);
  /** A batch whose counts, state or notice may have changed. */
  emitBatch = (id: number): void => void this.changes.emit('batch', id);
  onItems(l: (items: TopupRecord[]) => void): () => void {
    return this.changes.on('items', l);
  }
  onBatch(l: (batchId: number) => void): () => void {
    return this.changes.on('batch', l);
  }

  /** The counter's bills merchant now: its top-ups are the ones followed. */
  owner = (): Owner => {
    const id = this.deps.identity();
    return { profile: id.profile, billsMerchantId: id.billsMerchantId };
  };

  /** Who sends: PROVIDER_NOT_CONFIGURED without a bills merchant. */
  requireOwner(op: string): Identity {
    const id = this.deps.identity();
    if (!id.billsMerchantId.trim()) throw notConfiguredError(op, 'billsMerchantId');
    return id;
  }

  /** A batch is sent only by the merchant it belongs to. */
  ownBatch(b: BatchRecord, op: string): void {
    const o = this.requireOwner(op);
    if (b.profile !== o.profile || b.billsMerchantId !== o.billsMerchantId) {
      throw new AppError(
        'CONFLICT',
        `This batch belongs to the ${b.profile} profile (merchant ${b.billsMerchantId}). Switch back to it to send it.`,
        { id: b.id },
      );
    }
  }

  /** The journaled top-up, or NOT_FOUND. */
  item(id: number): TopupRecord {
    const r = this.journal.get(id);
    if (!r) throw new AppError('NOT_FOUND', `There is no top-up ${id}.`, { id });
    return r;
  }

  /** The batch, or NOT_FOUND. */
  batch(id: number): BatchRecord {
    const b = this.journal.batch(id);
    if (!b) throw new AppError('NOT_FOUND', `There is no batch ${id}.`, { id });
    return b;
  }

  batchView = (b: BatchRecord): BatchView => {
    const t = this.journal.totals(b.id);
    const c = t.counts;
    return {
      id: b.id,
      fileName: b.fileName,
      state: b.state,
      chunkSize: b.chunkSize,
      totalRows: b.totalRows,
      badRows: b.badRows,
      counts: c,
      amounts: t.amounts,
      items: t.items,
      finished: c.success + c.fail + c.not_sent + c.cancelled,
      sent: t.sent,
      totalKobo: t.totalKobo,
      successKobo: t.successKobo,
      bettingRows: t.bettingRows,
      notice: b.notice,
      check: b.check,
      createdAt: b.createdAt,
      updatedAt: b.updatedAt,
      finishedAt: b.finishedAt,
    };
  };
}
