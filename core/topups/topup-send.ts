// The top-up engine's sender: bulk-bills requests for items journaled as `sending`, what a failed
// send means (unknown outcome: ask; nothing sent: back to the queue or not_sent, a batch paused or
// waiting for the provider), and the pump that starts queued sends while there is room and tokens.
import { isAppError } from '../../shared/errors';
import { formatLagosTime } from '../../shared/time';
import type { TimerHandle } from '../lib';
import { isOutcomeUnknown } from '../provider';
import type { TopupResult } from '../provider';
import type { Move, TopupRecord } from './topup-rows';
import { afterSend } from './topup-decisions';
import { firstByReference, type EngineCore } from './topup-engine-core';
import type { StatusFollower } from './topup-follow';

/** While the provider cannot be reached, batch sends wait until `retryAt`. */
interface Unreachable {
  retryAt: number;
  /** Sends in a row that could not reach the provider. */
  streak: number;
}

export function createTopupSender(core: EngineCore, follower: StatusFollower) {
  const { journal, bills, owner, callBackUrl, logger, onBatch, t, timers, now, apply } = core;
  let sendsInFlight = 0;
  /** Items whose request is on the wire in this process right now. */
  const onTheWire = new Set<number>();
  let pumpTimer: TimerHandle | null = null;
  const wait: Unreachable = { retryAt: 0, streak: 0 };

  /** Sends items already journaled as `sending` (their attempt counted) in one bulk-bills request. */
  async function send(recs: TopupRecord[]): Promise<void> {
    if (recs.length === 0) return;
    const serviceType = recs[0]!.serviceType;
    let results: TopupResult[];
    for (const r of recs) onTheWire.add(r.id);
    try {
      const client = bills();
      results = await client.bulkBills({
        serviceType,
        callBackUrl: callBackUrl(),
        items: recs.map((r) => ({
          reference: r.reference,
          provider: r.provider,
          customerId: r.customerId,
          amountKobo: r.amountKobo,
        })),
      });
    } catch (err) {
      sendFailed(core, follower, wait, recs, err);
      return;
    } finally {
      for (const r of recs) onTheWire.delete(r.id);
    }
    wait.streak = 0;
    const byRef = firstByReference(results);
    const moves: Move[] = [];
    for (const rec of recs) {
      const dec = afterSend(rec, byRef.get(rec.reference), t);
      moves.push(dec.move);
      if (dec.move.to === 'unknown' && dec.checkIn === 0) {
        logger.warn('top-up reference already held by the provider; asking its status', {
          reference: rec.reference,
          attempts: rec.attempts,
        });
      }
      if (dec.checkIn !== null) follower.follow(rec, now() + dec.checkIn);
    }
    apply(moves);
  }

  /** Starts batch (and re-queued single) sends while there is room, tokens and something queued. */
  function pump(): void {
    if (core.stopped()) return;
    if (pumpTimer !== null) return;
    const untilRetry = wait.retryAt - now();
    if (untilRetry > 0) {
      pumpTimer = timers.setTimeout(() => {
        pumpTimer = null;
        clearNotices();
        pump();
      }, untilRetry);
      return;
    }
    while (sendsInFlight < t.maxInFlight && !core.stopped()) {
      const who = owner();
      const chunk = journal.nextChunk(who, (batchId) =>
        batchId === null ? 1 : (journal.batch(batchId)?.chunkSize ?? 1),
      );
      if (chunk.length === 0) return;
      const tokenWait = core.bucket.take();
      if (tokenWait > 0) {
        pumpTimer = timers.setTimeout(() => {
          pumpTimer = null;
          pump();
        }, tokenWait);
        return;
      }
      const sending = apply(
        chunk.map((r) => ({
          id: r.id,
          to: 'sending' as const,
          from: ['queued'] as const,
          note: r.attempts === 0 ? 'Sending' : `Sending again (attempt ${r.attempts + 1})`,
          patch: { sending: true },
        })),
      );
      if (sending.length === 0) return;
      sendsInFlight += 1;
      void core.keep(send(sending)).finally(() => {
        sendsInFlight -= 1;
        pump();
      });
    }
  }

  function clearNotices(): void {
    for (const b of journal.batchesIn(['running'])) {
      if (b.notice) {
        journal.setBatch(b.id, { notice: null });
        onBatch(b.id);
      }
    }
  }

  return {
    send,
    pump,
    /** Whether an item's request is on the wire in this process right now. */
    onTheWire: (id: number): boolean => onTheWire.has(id),
    stopTimer(): void {
      if (pumpTimer !== null) timers.clearTimeout(pumpTimer);
      pumpTimer = null;
    },
  };
}

function sendFailed(
  core: EngineCore,
  follower: StatusFollower,
  wait: Unreachable,
  recs: TopupRecord[],
  err: unknown,
): void {
  const { journal, logger, onBatch, t, now, apply } = core;
  const code = isAppError(err) ? err.code : 'INTERNAL';
  const message = isAppError(err) ? err.message : 'CounterPay made an internal error while sending.';
  if (isOutcomeUnknown(err)) {
    logger.warn('top-up send outcome unknown; asking the provider before anything else', {
      items: recs.length,
      code,
    });
    apply(
      recs.map((r) => ({
        id: r.id,
        to: 'unknown' as const,
        from: ['sending'] as const,
        note: `Outcome unknown (${code}): asking the provider`,
        patch: { errorMsg: '' },
      })),
    );
    for (const r of recs) follower.follow(r, Math.max(now(), (r.sentAt ?? now()) + t.unknownGraceMs));
    return;
  }
  // Nothing reached the provider.
  logger.warn('top-up send refused before reaching the provider', { items: recs.length, code });
  const singles = recs.filter((r) => r.batchId === null);
  const inBatches = recs.filter((r) => r.batchId !== null);
  apply([
    ...singles.map((r) => ({
      id: r.id,
      to: 'not_sent' as const,
      from: ['sending'] as const,
      note: `Not sent (${code})`,
      patch: { errorMsg: `Not sent: ${message}` },
    })),
    ...inBatches.map((r) => ({
      id: r.id,
      to: 'queued' as const,
      from: ['sending'] as const,
      note: `Not sent (${code}); will be sent again`,
    })),
  ]);
  const batches = new Set(inBatches.map((r) => r.batchId as number));
  if (code === 'PROVIDER_UNREACHABLE') {
    wait.streak += 1;
    wait.retryAt = now() + core.backoff(wait.streak);
    for (const id of batches) {
      journal.setBatch(id, {
        notice: `The provider cannot be reached. Trying again at ${formatLagosTime(wait.retryAt)}.`,
      });
      onBatch(id);
    }
    return;
  }
  for (const id of batches) {
    const b = journal.batch(id);
    if (b?.state !== 'running') continue;
    journal.setBatch(id, { state: 'paused', notice: `Paused: ${message}` });
    logger.warn('top-up batch paused', { batchId: id, code });
    onBatch(id);
  }
}
