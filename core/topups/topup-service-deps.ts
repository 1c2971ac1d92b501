// What the top-up service's pieces share (topup-service.ts puts them together): its dependencies
// and tuning, the journal, the change emitter, the providers cache, the engine, and the lookups and
// checks every door uses (the owner, an item, a batch and its view).
import { AppError } from '../../shared/errors';
import type { BatchView } from '../../shared/topups';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Logger } from '../../shared/logger';
import { systemTimers, type Timers } from '../lib';
import { TypedEmitter } from '../lib';
import { notConfiguredError } from '../provider';
import type { BillsClient } from '../provider';
import type { KeyValueStore } from '../settings';
import { createProvidersCache } from './providers-cache';
import { createTopupEngine } from './topup-engine';
import { DEFAULT_ENGINE_TUNING, type EngineTuning } from './topup-tuning';
import { NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import { TopupJournal } from './topup-journal';
import type { BatchRecord, Owner, TopupRecord } from './topup-rows';

export interface TopupTuning extends EngineTuning {
  /** The providers list is fetched again before checking a top-up when older than this. */
  providersMaxAgeMs: number;
  /** Customer checks of a batch per second. */
  validateRatePerSecond: number;
}

export const DEFAULT_TOPUP_TUNING: TopupTuning = {
  ...DEFAULT_ENGINE_TUNING,
  providersMaxAgeMs: 10 * 60_000,
  validateRatePerSecond: 4,
};

export interface Identity extends Owner {
  counterName: string;
}

export interface TopupServiceDeps {
  db: Db;
  store: KeyValueStore;
  /** The bills client, or a getter (the active profile may change); a getter may throw PROVIDER_NOT_CONFIGURED. */
  bills: BillsClient | (() => BillsClient);
  identity: () => Identity;
  callBackUrl: () => string;
  clock: Clock;
  timers?: Timers;
  logger: Logger;
  tuning?: Partial<TopupTuning>;
  /** Where every journal event also goes, in its transaction (the Hub's outbox); none when absent. */
  journalSink?: JournalSink;
}

export function createTopupServiceBase(deps: TopupServiceDeps) {
  const tuning: TopupTuning = { ...DEFAULT_TOPUP_TUNING, ...deps.tuning };
  const { clock, logger } = deps;
  const timers = deps.timers ?? systemTimers;
  const now = () => clock.now();
  const bills =
    typeof deps.bills === 'function'
      ? deps.bills
      : (
          (b: BillsClient) => () =>
            b
        )(deps.bills);
  const journal = new TopupJournal(deps.db, now, deps.journalSink ?? NO_JOURNAL_SINK);
  // A listener that throws is logged and must not stop the engine that emitted.
  const changes = new TypedEmitter<{ items: [items: TopupRecord[]]; batch: [batchId: number] }>({
    onListenerError: (e) =>
      logger.error('top-up listener failed', { error: e instanceof Error ? e.message : String(e) }),
  });
  let stopped = false;

  const emitItems = (items: TopupRecord[]) => changes.emit('items', items);
  const emitBatch = (id: number) => changes.emit('batch', id);

  const owner = (): Owner => {
    const id = deps.identity();
    return { profile: id.profile, billsMerchantId: id.billsMerchantId };
  };

  function requireOwner(op: string): Identity {
    const id = deps.identity();
    if (!id.billsMerchantId.trim()) throw notConfiguredError(op, 'billsMerchantId');
    return id;
  }

  const cache = createProvidersCache({
    store: deps.store,
    bills,
    clock,
    logger,
    profile: () => deps.identity().profile,
  });

  const engine = createTopupEngine({
    journal,
    bills,
    owner,
    callBackUrl: deps.callBackUrl,
    clock,
    timers,
    logger,
    tuning,
    onChange: emitItems,
    onBatch: emitBatch,
  });

  function requireBatch(id: number): BatchRecord {
    const b = journal.batch(id);
    if (!b) throw new AppError('NOT_FOUND', `There is no batch ${id}.`, { id });
    return b;
  }

  function requireItem(id: number): TopupRecord {
    const r = journal.get(id);
    if (!r) throw new AppError('NOT_FOUND', `There is no top-up ${id}.`, { id });
    return r;
  }

  function batchView(b: BatchRecord): BatchView {
    const t = journal.totals(b.id);
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
  }

  function ownBatch(b: BatchRecord, op: string): void {
    const o = requireOwner(op);
    if (b.profile !== o.profile || b.billsMerchantId !== o.billsMerchantId) {
      throw new AppError(
        'CONFLICT',
        `This batch belongs to the ${b.profile} profile (merchant ${b.billsMerchantId}). Switch back to it to send it.`,
        { id: b.id },
      );
    }
  }

  return {
    deps,
    tuning,
    clock,
    logger,
    timers,
    now,
    bills,
    journal,
    changes,
    emitItems,
    emitBatch,
    owner,
    requireOwner,
    cache,
    engine,
    requireBatch,
    requireItem,
    batchView,
    ownBatch,
    /** Set by `stop`: nothing new starts after it. */
    stopped: (): boolean => stopped,
    markStopped(): void {
      stopped = true;
    },
  };
}
export type TopupServiceBase = ReturnType<typeof createTopupServiceBase>;
