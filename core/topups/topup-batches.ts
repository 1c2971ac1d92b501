// Top-up batches: a CSV checked row by row and kept as a draft, its customers checked in the
// background, started, resumed or stopped, followed to the end, listed and exported.
import { AppError } from '../../shared/errors';
import {
  DEFAULT_CHUNK_SIZE,
  type BatchImport,
  type BatchItemFilter,
  type BatchView,
  type CsvFile,
  type RowError,
  type TopupView,
} from '../../shared/topups';
import { batchResultsCsv, batchTemplate } from './batch-export';
import { checkBatchFile } from './batch-rows';
import { checkBatchCustomers } from './customer-check';
import { counterCode, lagosDayCode } from '../orders';
import { toView } from './topup-rows';
import type { Timers } from '../lib';
import type { BillsClient } from '../provider';
import type { ProvidersCache } from './providers-cache';
import type { TopupEngine } from './topup-engine';
import type { TopupRun } from './topup-run';
import type { TopupTuning } from './topup-service-deps';

const MAX_ERRORS_SHOWN = 1000;

/** Customer checks running, by batch (a batch is started only after its check). */
type Checks = Map<number, Promise<void>>;

export interface BatchTopupsDeps {
  run: TopupRun;
  /** May throw PROVIDER_NOT_CONFIGURED. */
  bills: () => BillsClient;
  cache: ProvidersCache;
  engine: TopupEngine;
  timers: Timers;
  tuning: Pick<TopupTuning, 'providersMaxAgeMs' | 'validateRatePerSecond'>;
}

export function createBatchTopups(d: BatchTopupsDeps) {
  const checks: Checks = new Map();
  return {
    ...batchDrafts(d, checks),
    ...batchRuns(d, checks),

    /** Waits for every running customer check (after a stop). */
    async checksSettled(): Promise<void> {
      await Promise.allSettled([...checks.values()]);
    },
  };
}

/** A file checked into a draft, and the customer check of a draft. */
function batchDrafts({ run, bills, cache, engine, timers, tuning }: BatchTopupsDeps, checks: Checks) {
  const { logger, now, journal, emitBatch, batchView } = run;
  return {
    template: (): CsvFile => batchTemplate(),

    /** Checks a batch file; keeps its good rows as a draft (replacing an earlier draft). Nothing is sent. */
    async importBatch(csv: string, fileName: string): Promise<BatchImport> {
      const id = run.requireOwner('topups.batchImport');
      const providers = await cache.list(tuning.providersMaxAgeMs);
      const check = checkBatchFile(csv, {
        providers,
        referenceTaken: (ref) => journal.referenceUsed(id.billsMerchantId, ref),
      });
      const result = (batch: BatchView | null): BatchImport => ({
        batch,
        totalRows: check.totalRows,
        errors: check.errors.slice(0, MAX_ERRORS_SHOWN),
        errorCount: check.errors.length,
      });
      if (check.fatal || check.rows.length === 0) return result(null);
      // One draft at a time: the new file replaces the one before (a running customer check of it stops).
      for (const old of journal.batchesIn(['draft'])) {
        if (old.billsMerchantId === id.billsMerchantId) journal.discardDraft(old.id);
      }
      const batchId = journal.createBatch(id, counterCode(id.counterName), lagosDayCode(now()), {
        fileName: fileName.trim() || 'batch.csv',
        totalRows: check.totalRows,
        badRows: check.badRows,
        chunkSize: DEFAULT_CHUNK_SIZE,
        items: check.rows,
        errors: check.errors,
      });
      logger.info('top-up batch imported', {
        batchId,
        rows: check.totalRows,
        good: check.rows.length,
        bad: check.badRows,
      });
      return result(batchView(run.batch(batchId)));
    },

    batchErrors(id: number, offset: number, limit: number): { total: number; errors: RowError[] } {
      run.batch(id);
      return journal.rowErrors(id, offset, limit);
    },

    /** Starts the customer check of a draft in the background; its progress comes as batch changes. */
    checkCustomers(id: number): BatchView {
      const b = run.batch(id);
      if (b.state !== 'draft')
        throw new AppError(
          'CONFLICT',
          'Customers are checked before a batch is sent; this one was already sent or discarded.',
          { id },
        );
      if (!checks.has(id)) {
        const check = checkBatchCustomers(
          {
            journal,
            bills,
            now,
            timers,
            logger,
            ratePerSecond: tuning.validateRatePerSecond,
            apply: engine.apply,
            onBatch: emitBatch,
          },
          id,
          () => run.stopped || journal.batch(id)?.state !== 'draft',
        )
          .catch((e: unknown) =>
            logger.error('customer check stopped', { batchId: id, error: e instanceof Error ? e.message : String(e) }),
          )
          .finally(() => checks.delete(id));
        checks.set(id, check);
      }
      return batchView(run.batch(id));
    },

    /** Waits for a running customer check (tests, and before a start). */
    async checkDone(id: number): Promise<BatchView> {
      await checks.get(id);
      return batchView(run.batch(id));
    },
  };
}

/** A batch started, resumed or stopped, and what it shows. */
function batchRuns({ run, bills, engine }: BatchTopupsDeps, checks: Checks) {
  const { logger, now, journal, emitBatch, batchView } = run;
  return {
    startBatch(id: number, chunkSize: number): BatchView {
      const b = run.batch(id);
      run.ownBatch(b, 'topups.batchStart');
      if (b.state !== 'draft')
        throw new AppError(
          'CONFLICT',
          `This batch is ${b.state}: only a checked batch that was not sent yet can be started.`,
          { id, state: b.state },
        );
      if (checks.has(id))
        throw new AppError(
          'CONFLICT',
          'The customers of this batch are still being checked. Wait for the check to finish.',
          { id },
        );
      bills();
      journal.setBatch(id, { state: 'running', chunkSize, notice: null });
      const drafts = journal
        .batchItems(id, 'open', 0, Number.MAX_SAFE_INTEGER)
        .items.filter((r) => r.state === 'draft');
      engine.apply(
        drafts.map((r) => ({ id: r.id, to: 'queued' as const, from: ['draft'] as const, note: 'Batch started' })),
      );
      // Every row may have been taken out by the customer check: then there is nothing to wait for.
      if (journal.countOpen(id) === 0) journal.setBatch(id, { state: 'done', finishedAt: now() });
      logger.info('top-up batch started', { batchId: id, items: drafts.length, chunkSize });
      emitBatch(id);
      engine.pump();
      return batchView(run.batch(id));
    },

    resumeBatch(id: number, chunkSize?: number): BatchView {
      const b = run.batch(id);
      run.ownBatch(b, 'topups.batchResume');
      if (b.state !== 'paused' && b.state !== 'running')
        throw new AppError('CONFLICT', `This batch is ${b.state}: there is nothing to resume.`, { id, state: b.state });
      journal.setBatch(id, { state: 'running', notice: null, ...(chunkSize ? { chunkSize } : {}) });
      emitBatch(id);
      engine.pump();
      return batchView(run.batch(id));
    },

    /** A draft is discarded; a sending batch stops: top-ups not sent yet are cancelled, sent ones still followed. */
    cancelBatch(id: number): BatchView {
      const b = run.batch(id);
      if (b.state === 'draft') {
        journal.discardDraft(id);
      } else if (b.state === 'running' || b.state === 'paused') {
        const queued = journal
          .batchItems(id, 'open', 0, Number.MAX_SAFE_INTEGER)
          .items.filter((r) => r.state === 'queued');
        engine.apply(
          queued.map((r) => ({
            id: r.id,
            to: 'cancelled' as const,
            from: ['queued'] as const,
            note: 'Batch stopped by the cashier',
            patch: { errorMsg: 'Cancelled before it was sent' },
          })),
        );
        const after = journal.batch(id);
        if (after && after.state !== 'done')
          journal.setBatch(id, {
            state: 'paused',
            notice: 'Stopped: the top-ups not sent yet were cancelled; the ones already sent are still followed.',
          });
      }
      emitBatch(id);
      return batchView(run.batch(id));
    },

    batchView: (id: number): BatchView => batchView(run.batch(id)),

    listBatches: (): BatchView[] => journal.listBatches(20).map(batchView),

    batchItems(
      id: number,
      filter: BatchItemFilter,
      offset: number,
      limit: number,
    ): { total: number; items: TopupView[] } {
      run.batch(id);
      const page = journal.batchItems(id, filter, offset, limit);
      return { total: page.total, items: page.items.map(toView) };
    },

    exportBatch(id: number): CsvFile {
      const b = run.batch(id);
      return batchResultsCsv(b, journal.allOfBatch(id), journal.rowErrors(id, 0, Number.MAX_SAFE_INTEGER).errors);
    },
  };
}
