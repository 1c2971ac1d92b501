// Top-ups as a service: single top-ups (checked, journaled, sent at once), batches (a CSV checked
// row by row, kept as a draft, sent in chunks, followed to the end, exported), bills callbacks,
// and resuming all of it after a restart. Plain Node; every dependency is passed in.
// The pieces: topup-service-base.ts (what they share), topup-singles.ts, topup-batches.ts.
import type { TopupRecord } from './topup-rows';
import { listUnhandledWebhookEvents, markWebhookEventHandled, type BillsCallbackEvent } from '../webhook';
import { createTopupServiceBase, type TopupServiceDeps } from './topup-service-base';
import { createSingleTopups } from './topup-singles';
import { createBatchTopups } from './topup-batches';

export { DEFAULT_TOPUP_TUNING, type Identity, type TopupServiceDeps, type TopupTuning } from './topup-service-base';

export function createTopupService(deps: TopupServiceDeps) {
  const base = createTopupServiceBase(deps);
  const { logger, now, journal, changes, engine } = base;
  const singles = createSingleTopups(base);
  const { checksSettled, ...batches } = createBatchTopups(base);
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
      if (!base.stopped()) engine.resume();
    },

    async stop(): Promise<void> {
      base.markStopped();
      await engine.stop();
      await checksSettled();
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
