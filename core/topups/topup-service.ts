// Top-ups as a service: single top-ups (checked, journaled, sent at once), batches (a CSV checked
// row by row, kept as a draft, sent in chunks, followed to the end, exported), bills callbacks,
// and resuming all of it after a restart. Plain Node; every dependency is passed in.
import { AppError, isAppError, issueFields, validationError } from '../../shared/errors';
import {
  DEFAULT_CHUNK_SIZE,
  TOPUP_INVALID,
  TopupInputSchema,
  checkBettingCustomerId,
  type BatchImport,
  type BatchItemFilter,
  type BatchView,
  type CsvFile,
  type ProvidersView,
  type RowError,
  type TopupView,
  type ValidatedCustomer,
} from '../../shared/topups';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Logger } from '../../shared/logger';
import { systemTimers, type Timers } from '../lib';
import { TypedEmitter } from '../lib';
import { notConfiguredError } from '../provider';
import type { BillsClient, TopupStatus } from '../provider';
import type { KeyValueStore } from '../settings';
import { listUnhandledWebhookEvents, markWebhookEventHandled, type BillsCallbackEvent } from '../webhook';
import { batchResultsCsv, batchTemplate } from './batch-export';
import { checkBatchFile } from './batch-rows';
import { checkBatchCustomers, fullName } from './customer-check';
import { createProvidersCache } from './providers-cache';
import { counterCode, lagosDayCode } from '../orders';
import { createTopupEngine } from './topup-engine';
import { DEFAULT_ENGINE_TUNING, type EngineTuning } from './topup-tuning';
import { NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import { TopupJournal } from './topup-journal';
import { toView, type BatchRecord, type Owner, type TopupRecord } from './topup-rows';
import { checkTopup, findBettingProvider } from './topup-input';

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

const MAX_ERRORS_SHOWN = 1000;
const TOPUP_STATUSES = new Set<string>(['INITIAL', 'PENDING', 'SUCCESS', 'FAIL']);

export function createTopupService(deps: TopupServiceDeps) {
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
  const checks = new Map<number, Promise<void>>();
  const named = new Map<string, string>();
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

  function onCallback(cb: BillsCallbackEvent): void {
    const o = owner();
    const rec = journal.byReference(o.billsMerchantId, cb.reference);
    if (!rec) {
      logger.info('bills callback for a reference this counter does not have', {
        reference: cb.reference,
        orderNo: cb.orderNo,
      });
      return;
    }
    if (rec.orderNo && cb.orderNo && rec.orderNo !== cb.orderNo) {
      logger.warn('bills callback names another order for our reference; ignored', {
        reference: cb.reference,
        orderNo: cb.orderNo,
        ours: rec.orderNo,
      });
      return;
    }
    if (cb.amountKobo !== rec.amountKobo) {
      // Not this top-up as we sent it (to the kobo): it settles only from the provider's status answer.
      logger.error('bills callback amount differs from the top-up; not used to settle it', {
        reference: cb.reference,
        amountKobo: cb.amountKobo,
        ours: rec.amountKobo,
      });
      return;
    }
    const status = TOPUP_STATUSES.has(cb.status) ? (cb.status as TopupStatus) : null;
    if (!status) return;
    engine.settleFromCallback(rec, {
      orderNo: cb.orderNo || null,
      reference: cb.reference,
      status,
      errorMsg: cb.errorMsg,
    });
  }

  return {
    providers: (): ProvidersView => cache.view(),

    async refreshProviders(): Promise<ProvidersView> {
      return cache.refresh();
    },

    async checkCustomer(input: { provider: string; customerId: string }): Promise<ValidatedCustomer> {
      const id = checkBettingCustomerId(input.customerId);
      const fields: Record<string, string> = {};
      if (!id.ok) fields.customerId = id.reason;
      const list = await cache.list(tuning.providersMaxAgeMs);
      const p = list.providers ? findBettingProvider(list.providers, input.provider) : null;
      if (!p) fields.provider = list.providers ? 'Choose the betting provider from the list' : list.missingReason;
      if (!id.ok || !p) throw validationError(fields, 'Check the customer: some fields need fixing');
      try {
        const c = await bills().validate({ provider: p.provider, customerId: id.value });
        named.set(`${p.provider}\u0000${id.value}`, fullName(c));
        if (named.size > 500) named.delete(named.keys().next().value as string);
        return c;
      } catch (err) {
        if (isAppError(err) && err.code === 'PROVIDER_REFUSED') {
          const said = typeof err.details?.providerMessage === 'string' ? err.details.providerMessage : err.message;
          throw validationError(
            { customerId: `${p.provider} does not know this customer id (${said})` },
            `${p.provider} does not know the customer ${id.value}.`,
          );
        }
        throw err;
      }
    },

    /** Checks and journals one top-up, starts sending it, and answers at once (state `sending`). */
    async submit(input: unknown): Promise<TopupView> {
      if (stopped) throw new AppError('NOT_READY', 'Top-ups are shutting down; try again in a moment.');
      const parsed = TopupInputSchema.safeParse(input);
      if (!parsed.success) throw validationError(issueFields(parsed.error.issues, { root: 'topup' }), TOPUP_INVALID);
      const id = requireOwner('topups.submit');
      bills(); // refuse now, with the client's own message, when the provider is not set up
      const v = parsed.data;
      const list =
        v.serviceType === 'betting' ? await cache.list(tuning.providersMaxAgeMs) : { providers: [], missingReason: '' };
      const check = checkTopup(
        { type: v.serviceType, provider: v.provider, customerId: v.customerId, amount: v.amount },
        list,
      );
      if (!check.ok) {
        const fields: Record<string, string> = {};
        for (const [k, m] of Object.entries(check.problems)) fields[k === 'type' ? 'serviceType' : k] = m;
        throw validationError(fields, TOPUP_INVALID);
      }
      const c = check.value;
      const rec = journal.insertSingle(
        id,
        counterCode(id.counterName),
        lagosDayCode(now()),
        {
          ...c,
          customerName: c.serviceType === 'betting' ? (named.get(`${c.provider}\u0000${c.customerId}`) ?? null) : null,
        },
        'Top-up recorded; sending it to the provider',
      );
      logger.info('top-up recorded', {
        id: rec.id,
        reference: rec.reference,
        serviceType: rec.serviceType,
        provider: rec.provider,
        amountKobo: rec.amountKobo,
      });
      emitItems([rec]);
      void engine.sendNow(rec);
      return toView(rec);
    },

    get: (id: number): TopupView => toView(requireItem(id)),

    async checkNow(id: number): Promise<TopupView> {
      const rec = requireItem(id);
      await engine.checkNow(rec);
      return toView(requireItem(id));
    },

    /** Today's single top-ups, newest first. */
    recent: (): TopupView[] => journal.singlesOfDay(lagosDayCode(now()), 30).map(toView),

    history: (id: number) => journal.history(requireItem(id).id),

    template: (): CsvFile => batchTemplate(),

    /** Checks a batch file; keeps its good rows as a draft (replacing an earlier draft). Nothing is sent. */
    async importBatch(csv: string, fileName: string): Promise<BatchImport> {
      const id = requireOwner('topups.batchImport');
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
      return result(batchView(requireBatch(batchId)));
    },

    batchErrors(id: number, offset: number, limit: number): { total: number; errors: RowError[] } {
      requireBatch(id);
      return journal.rowErrors(id, offset, limit);
    },

    /** Starts the customer check of a draft in the background; its progress comes as batch changes. */
    checkCustomers(id: number): BatchView {
      const b = requireBatch(id);
      if (b.state !== 'draft')
        throw new AppError(
          'CONFLICT',
          'Customers are checked before a batch is sent; this one was already sent or discarded.',
          { id },
        );
      if (!checks.has(id)) {
        const run = checkBatchCustomers(
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
          () => stopped || journal.batch(id)?.state !== 'draft',
        )
          .catch((e: unknown) =>
            logger.error('customer check stopped', { batchId: id, error: e instanceof Error ? e.message : String(e) }),
          )
          .finally(() => checks.delete(id));
        checks.set(id, run);
      }
      return batchView(requireBatch(id));
    },

    /** Waits for a running customer check (tests, and before a start). */
    async checkDone(id: number): Promise<BatchView> {
      await checks.get(id);
      return batchView(requireBatch(id));
    },

    startBatch(id: number, chunkSize: number): BatchView {
      const b = requireBatch(id);
      ownBatch(b, 'topups.batchStart');
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
      return batchView(requireBatch(id));
    },

    resumeBatch(id: number, chunkSize?: number): BatchView {
      const b = requireBatch(id);
      ownBatch(b, 'topups.batchResume');
      if (b.state !== 'paused' && b.state !== 'running')
        throw new AppError('CONFLICT', `This batch is ${b.state}: there is nothing to resume.`, { id, state: b.state });
      journal.setBatch(id, { state: 'running', notice: null, ...(chunkSize ? { chunkSize } : {}) });
      emitBatch(id);
      engine.pump();
      return batchView(requireBatch(id));
    },

    /** A draft is discarded; a sending batch stops: top-ups not sent yet are cancelled, sent ones still followed. */
    cancelBatch(id: number): BatchView {
      const b = requireBatch(id);
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
      return batchView(requireBatch(id));
    },

    batchView: (id: number): BatchView => batchView(requireBatch(id)),

    listBatches: (): BatchView[] => journal.listBatches(20).map(batchView),

    batchItems(
      id: number,
      filter: BatchItemFilter,
      offset: number,
      limit: number,
    ): { total: number; items: TopupView[] } {
      requireBatch(id);
      const page = journal.batchItems(id, filter, offset, limit);
      return { total: page.total, items: page.items.map(toView) };
    },

    exportBatch(id: number): CsvFile {
      const b = requireBatch(id);
      return batchResultsCsv(b, journal.allOfBatch(id), journal.rowErrors(id, 0, Number.MAX_SAFE_INTEGER).errors);
    },

    onCallback,

    nextCheckAt: (id: number) => engine.nextCheckAt(id),

    /** After a start: resume sends and checks; replay callbacks recorded but not handled. */
    start(): void {
      for (const b of journal.batchesIn(['draft'])) {
        if (b.check.state === 'running') journal.setBatch(b.id, { check: { ...b.check, state: 'none' } });
      }
      engine.resume();
      for (const e of listUnhandledWebhookEvents(deps.db)) {
        if (e.kind !== 'bills') continue;
        try {
          onCallback(e.payload as BillsCallbackEvent);
          markWebhookEventHandled(deps.db, e.id, now());
        } catch (err) {
          logger.error('replaying a bills callback failed', {
            id: e.id,
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
    },

    /** The active profile changed: follow that merchant's items instead. */
    ownerChanged(): void {
      if (!stopped) engine.resume();
    },

    async stop(): Promise<void> {
      stopped = true;
      await engine.stop();
      await Promise.allSettled([...checks.values()]);
    },

    /** Items that changed (already journaled), many at a time. */
    onItems(l: (items: TopupRecord[]) => void): () => void {
      return changes.on('items', l);
    },

    /** A batch whose counts, state or notice may have changed. */
    onBatch(l: (batchId: number) => void): () => void {
      return changes.on('batch', l);
    },

    journal,
  };
}
export type TopupService = ReturnType<typeof createTopupService>;
