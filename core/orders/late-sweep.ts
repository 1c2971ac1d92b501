// The reconciliation sweep: asks the provider again about every order of the last 24 hours that
// the counter closed as not paid (failed, cancelled, expired), and records a payment taken after
// closing on the order (checkout.noteProviderReport). It runs before a shift's Z report and every
// hour; one pass at a time; its queries are rate-limited and wait while a sale is being sent, so it
// never crowds out a live sale. Orders still unknown are listed with what to do.
import type { SweepResult } from '../../shared/late-payments';
import type { Logger } from '../../shared/logger';
import { isAppError } from '../../shared/errors';
import { TokenBucket } from '../../shared/token-bucket';
import type { Timers } from '../lib';
import type { PosClient } from '../provider';
import type { OrderFollowUp } from './checkout-service';
import type { OrderReads } from './order-reads';

export interface SweepTuning {
  everyMs: number;
  /** How far back closed orders are asked about again. */
  windowMs: number;
  /** At most this many provider queries per second (a live sale's checks have their own budget). */
  ratePerSec: number;
  /** Orders per pass at most (the oldest first). */
  maxPerPass: number;
}

const DEFAULT_SWEEP_TUNING: SweepTuning = {
  everyMs: 3_600_000,
  windowMs: 24 * 3_600_000,
  ratePerSec: 2,
  maxPerPass: 2_000,
};

interface LateSweepDeps {
  checkout: Pick<OrderReads, 'get' | 'listOpen'> & Pick<OrderFollowUp, 'late' | 'noteProviderReport'>;
  getPos: () => PosClient;
  now: () => number;
  timers: Timers;
  logger: Logger;
  tuning?: Partial<SweepTuning>;
}

const UNKNOWN_ADVICE =
  'The provider has not confirmed this payment either way. Ask the customer for the bank alert or the terminal slip; ' +
  'if they were debited, give the tickets and note the payment number; otherwise ask the manager to check it with the provider. Do not charge again until it is settled.';

export function createLateSweep(d: LateSweepDeps) {
  const t: SweepTuning = { ...DEFAULT_SWEEP_TUNING, ...d.tuning };
  const bucket = new TokenBucket({ ratePerSec: t.ratePerSec, burst: 1, now: d.now });
  let running: Promise<SweepResult> | null = null;
  let last: SweepResult | null = null;
  let timer: unknown = null;
  let stopped = false;

  const wait = (ms: number) => new Promise<void>((r) => d.timers.setTimeout(r, ms));
  /** A sale being sent (creating) goes first: the sweep waits for it. */
  const saleInFlight = () => d.checkout.listOpen().some((o) => o.state === 'creating');

  async function pass(): Promise<SweepResult> {
    const at = d.now();
    const ids = d.checkout.late.sweepCandidates(at - t.windowMs, at, t.maxPerPass);
    let checked = 0;
    let found = 0;
    let incomplete: string | null = null;
    for (const id of ids) {
      if (stopped) {
        incomplete = 'the app was stopping';
        break;
      }
      for (let ms = bucket.take(); ms > 0 || saleInFlight(); ms = bucket.take()) await wait(Math.max(ms, 50));
      const o = d.checkout.get(id);
      if (!o?.orderNo) continue;
      try {
        const details = await d.getPos().queryOrder({ orderNo: o.orderNo });
        checked++;
        if (details && d.checkout.noteProviderReport(id, details, 'sweep').late && !o.late) found++;
      } catch (err) {
        const code = isAppError(err) ? err.code : 'INTERNAL';
        incomplete = `the provider could not be asked (${code}); ${ids.length - checked} order(s) left for the next pass`;
        d.logger.warn('reconciliation sweep stopped early', { code, checked, left: ids.length - checked });
        break;
      }
    }
    const unknown = d.checkout
      .listOpen()
      .filter((o) => o.state === 'unknown' && o.createdAt >= at - t.windowMs)
      .map((o) => ({ id: o.id, outOrderNo: o.outOrderNo, amountKobo: o.amountKobo, what: UNKNOWN_ADVICE }));
    const result: SweepResult = { at, checked, paidAfterClosing: found, unknown, incomplete };
    d.logger.info('reconciliation sweep', { checked, paidAfterClosing: found, unknown: unknown.length, incomplete });
    last = result;
    return result;
  }

  return {
    /** One pass now (or the one already running): "checked N closed orders with the provider: M paid after closing". */
    run(): Promise<SweepResult> {
      running ??= pass().finally(() => (running = null));
      return running;
    },
    last: (): SweepResult | null => last,
    /** The first pass at once, then every hour. */
    start(): void {
      stopped = false;
      const tick = () => {
        void this.run().catch((e: unknown) => d.logger.error('reconciliation sweep failed', { error: String(e) }));
        timer = d.timers.setTimeout(tick, t.everyMs);
      };
      tick();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) d.timers.clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
