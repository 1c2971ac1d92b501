// Top-ups as a service: single top-ups (checked, journaled, sent at once), batches (a CSV checked
// row by row, kept as a draft, sent in chunks, followed to the end, exported), bills callbacks,
// and resuming all of it after a restart. Plain Node; every dependency is passed in.
// Built here, once, from what it takes (topup-service-deps.ts): what the pieces share while running
// (topup-run.ts), the providers cache, the engine; then the doors, each given what it needs:
// topup-singles.ts, topup-batches.ts.
import type { TopupRecord } from './topup-rows';
import { listUnhandledWebhookEvents, markWebhookEventHandled, type BillsCallbackEvent } from '../webhook';
import { systemTimers } from '../lib';
import type { BillsClient } from '../provider';
import { NO_JOURNAL_SINK } from '../journal-sink';
import { DEFAULT_TOPUP_TUNING, type TopupServiceDeps, type TopupTuning } from './topup-service-deps';
import { createProvidersCache } from './providers-cache';
import { createTopupEngine } from './topup-engine';
import { TopupJournal } from './topup-journal';
import { TopupRun } from './topup-run';
import { createSingleTopups } from './topup-singles';
import { createBatchTopups } from './topup-batches';

export { DEFAULT_TOPUP_TUNING, type TopupServiceDeps, type TopupTuning } from './topup-service-deps';
export type { Identity } from './topup-run';

export function createTopupService(deps: TopupServiceDeps) {
  const tuning: TopupTuning = { ...DEFAULT_TOPUP_TUNING, ...deps.tuning };
  const { clock, logger } = deps;
  const timers = deps.timers ?? systemTimers;
  const now = () => clock.now();
  const given = deps.bills;
  const bills = typeof given === 'function' ? given : (): BillsClient => given;
  const journal = new TopupJournal(deps.db, now, deps.journalSink ?? NO_JOURNAL_SINK);
  const run = new TopupRun({ journal, logger, now, identity: deps.identity });
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
    owner: run.owner,
    callBackUrl: deps.callBackUrl,
    clock,
    timers,
    logger,
    tuning,
    onChange: run.emitItems,
    onBatch: run.emitBatch,
  });
  const singles = createSingleTopups({ run, bills, cache, engine, providersMaxAgeMs: tuning.providersMaxAgeMs });
  const { checksSettled, ...batches } = createBatchTopups({ run, bills, cache, engine, timers, tuning });
  const { onCallback } = singles;

  return {
    ...singles,
    ...batches,

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
      if (!run.stopped) engine.resume();
    },

    async stop(): Promise<void> {
      run.stop();
      await engine.stop();
      await checksSettled();
    },

    /** Items that changed (already journaled), many at a time. */
    onItems(l: (items: TopupRecord[]) => void): () => void {
      return run.onItems(l);
    },

    /** A batch whose counts, state or notice may have changed. */
    onBatch(l: (batchId: number) => void): () => void {
      return run.onBatch(l);
    },

    journal,
  };
}
export type TopupService = ReturnType<typeof createTopupService>;
