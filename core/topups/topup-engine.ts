// Sends journaled top-ups through bulk-bills (one service type per request, chunks of the batch's
// size, a global rate cap) and follows every open item with bulk-status until it is final.
// An item whose send may have reached the provider is asked about, never sent again blindly:
// only a reference the provider says does not exist goes out again (with the same reference).
// The pieces: topup-engine-core.ts (what they share, and `apply`), topup-follow.ts (the schedule
// of open items and the bulk-status sweeps), topup-send.ts (bulk-bills sends and the pump).
import type { TopupResult } from '../provider';
import type { TopupRecord } from './topup-rows';
import { finalMove, OPEN_FOLLOWED } from './topup-decisions';
import { stateForStatus } from './topup-state';
import { createEngineCore, type EngineDeps } from './topup-engine-core';
import { createStatusFollower } from './topup-follow';
import { createTopupSender } from './topup-send';

export type { EngineDeps } from './topup-engine-core';

export function createTopupEngine(d: EngineDeps) {
  const core = createEngineCore(d);
  const { t, now, keep, apply } = core;
  const follower = createStatusFollower(core, () => sender.pump());
  const sender = createTopupSender(core, follower);
  const { follow, unfollow, plan } = follower;
  const pump = sender.pump;

  return {
    /** Sends a single top-up journaled as `sending` now (no queue, no rate cap: a customer is waiting). */
    sendNow(rec: TopupRecord): Promise<void> {
      return keep(sender.send([rec]));
    },

    pump,
    apply,

    /** Asks about one open item now (the cashier pressed "Check now"). */
    async checkNow(rec: TopupRecord): Promise<void> {
      if (rec.state !== 'unknown' && rec.state !== 'pending') return;
      await keep(follower.ask(rec.serviceType, [rec]));
      plan();
    },

    /** A verified bills callback for one of our references: it settles the item early. */
    settleFromCallback(rec: TopupRecord, res: TopupResult): void {
      const state = stateForStatus(res.status);
      if (state === null || state === 'pending') {
        if (rec.state === 'pending' && res.orderNo && !rec.orderNo)
          apply([{ id: rec.id, to: 'pending', note: 'Callback', patch: { orderNo: res.orderNo } }]);
        return;
      }
      unfollow(rec.id);
      apply([finalMove(rec, state, res, ['queued', 'sending', 'unknown', 'pending'])]);
    },

    /**
     * After a start or a change of profile: items caught mid-send become unknown (asked about
     * after the grace), the current owner's open items are followed, queued ones sent.
     */
    resume(): void {
      if (core.stopped()) return;
      const stuck = core.journal.anyInStates(['sending']).filter((r) => !sender.onTheWire(r.id));
      apply(
        stuck.map((r) => ({
          id: r.id,
          to: 'unknown' as const,
          from: ['sending'] as const,
          note: 'The app stopped while sending: asking the provider before anything else',
        })),
      );
      follower.clear();
      for (const r of core.journal.inStates(core.owner(), OPEN_FOLLOWED)) {
        follow(r, r.state === 'unknown' ? Math.max(now(), (r.sentAt ?? 0) + t.unknownGraceMs) : now());
      }
      pump();
    },

    nextCheckAt(id: number): number | null {
      return follower.nextCheckAt(id);
    },

    /** Stops every timer and waits for requests in flight (their answers are still journaled). */
    async stop(): Promise<void> {
      core.markStopped();
      follower.stopTimer();
      sender.stopTimer();
      await core.drain();
    },
  };
}
export type TopupEngine = ReturnType<typeof createTopupEngine>;
