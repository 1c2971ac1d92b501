// Status checks of open orders on the provider (waiting: adaptive schedule; unknown: at once, then
// backing off): one request in flight per order, a global rate cap, nothing while offline.
import { isAppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { PosOrderDetails } from '../provider';
import type { OrderJournal, OrderRecord } from './order-journal';
import {
  checkAfterRelayDrop,
  finalCheckAt,
  nextRelayWaitingCheck,
  nextUnknownCheck,
  nextWaitingCheck,
  type PollStep,
  type PollTuning,
} from './poll-schedule';
import type { TimerHandle, Timers } from '../lib';
import type { TokenBucket } from '../../shared/token-bucket';

export type QueryOutcome =
  { kind: 'found'; details: PosOrderDetails } | { kind: 'missing' } | { kind: 'error'; error: unknown };

interface PollerDeps {
  journal: OrderJournal;
  timers: Timers;
  now: () => number;
  logger: Logger;
  tuning: PollTuning;
  bucket: TokenBucket;
  isOnline: () => boolean;
  /** True while the Hub's relay stream is healthy: waiting orders are then checked rarely. */
  relayHealthy?: () => boolean;
  /** One status query to the provider; never throws (errors come back as an outcome). */
  query: (rec: OrderRecord) => Promise<QueryOutcome>;
  /** Acts on an answer. `final`: the check was made at or after expiry + grace. */
  handle: (id: number, outcome: QueryOutcome, final: boolean) => void;
}

interface Tracked {
  timer: TimerHandle | null;
  at: number | null;
  /** Failed checks in a row. */
  failures: number;
  /** Checks since the order last changed state: an unknown order that stays unknown backs off. */
  checks: number;
  state: string;
  inFlight: Promise<void> | null;
}

const POLLED = new Set(['waiting', 'unknown']);

export class Poller {
  private readonly tracked = new Map<number, Tracked>();
  /** Orders due for a check but waiting for a token, first come first served (no starvation). */
  private readonly tokenQueue: number[] = [];
  private tokenTimer: TimerHandle | null = null;
  private stopped = false;
  private readonly d: PollerDeps;

  constructor(deps: PollerDeps) {
    this.d = deps;
  }

  /** Starts or re-plans checks of an order; forgets it once it no longer needs checking. */
  track(id: number): void {
    if (this.stopped) return;
    const rec = this.d.journal.get(id);
    if (!rec || !POLLED.has(rec.state)) {
      this.untrack(id);
      return;
    }
    let t = this.tracked.get(id);
    if (!t) {
      t = { timer: null, at: null, failures: 0, checks: 0, state: rec.state, inFlight: null };
      this.tracked.set(id, t);
    }
    if (t.state !== rec.state) {
      t.state = rec.state;
      t.checks = 0;
      t.failures = 0;
    }
    if (t.inFlight) return; // re-planned when the answer arrives
    this.plan(id, t, this.step(rec, t));
  }

  untrack(id: number): void {
    const t = this.tracked.get(id);
    if (!t) return;
    this.clear(t);
    this.tracked.delete(id);
  }

  isTracked(id: number): boolean {
    return this.tracked.has(id);
  }

  /** When the order will next be checked (undefined while offline or not tracked). */
  nextAt(id: number): number | undefined {
    return this.tracked.get(id)?.at ?? undefined;
  }

  /** Checks at once (the cashier asked), sharing a check already in flight; no rate cap. */
  checkNow(id: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const t = this.tracked.get(id);
    if (t?.inFlight) return t.inFlight;
    if (!t) this.track(id);
    const tt = this.tracked.get(id);
    if (!tt) return Promise.resolve();
    this.clear(tt);
    return this.run(id, tt);
  }

  /** Offline: no timers. Online again: every tracked order is planned afresh. */
  pause(): void {
    for (const t of this.tracked.values()) this.clear(t);
    this.clearTokenQueue();
  }

  resume(): void {
    for (const id of [...this.tracked.keys()]) this.track(id);
  }

  /**
   * The relay stream's health changed. Healthy: every order is planned afresh (rarely). Dropped:
   * every waiting order is checked within `fastMs`, then follows the fast schedule.
   */
  relayChanged(healthy: boolean): void {
    if (healthy || this.stopped) return this.resume();
    for (const [id, t] of [...this.tracked]) {
      const rec = this.d.journal.get(id);
      if (!rec || !POLLED.has(rec.state)) {
        this.untrack(id);
        continue;
      }
      if (t.inFlight) continue; // re-planned on the fast schedule when its answer arrives
      const step = this.step(rec, t);
      this.plan(id, t, rec.state === 'waiting' ? checkAfterRelayDrop(this.d.now(), step, this.d.tuning) : step);
    }
  }

  /** Checks the order that is due first, to learn whether the provider is back (offline probe). */
  async probe(): Promise<'idle' | 'done'> {
    let best: { id: number; at: number } | null = null;
    for (const id of this.tracked.keys()) {
      const rec = this.d.journal.get(id);
      if (!rec || !POLLED.has(rec.state)) continue;
      const at = this.step(rec, { failures: 0, checks: 0 }).at;
      if (!best || at < best.at) best = { id, at };
    }
    if (!best || this.stopped) return 'idle';
    await this.checkNow(best.id);
    return 'done';
  }

  /** Resolves when every check in flight has been answered and handled. */
  async idle(): Promise<void> {
    await Promise.all([...this.tracked.values()].map((t) => t.inFlight).filter(Boolean));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.tracked.values()) this.clear(t);
    this.clearTokenQueue();
  }

  private step(rec: OrderRecord, t: { failures: number; checks: number }): PollStep {
    const now = this.d.now();
    if (rec.state === 'waiting') {
      const w = {
        now,
        waitingSince: rec.waitingSince ?? rec.createdAt,
        expiresAt: rec.expiresAt,
        failures: t.failures,
      };
      if (this.d.relayHealthy?.()) return nextRelayWaitingCheck(w, this.d.tuning);
      return nextWaitingCheck(
        { now, waitingSince: rec.waitingSince ?? rec.createdAt, expiresAt: rec.expiresAt, failures: t.failures },
        this.d.tuning,
      );
    }
    // An answer that leaves the order unknown (a status we do not know, details that do not
    // match) is no reason to ask again at once: back off as after a failure.
    return nextUnknownCheck({ now, expiresAt: rec.expiresAt, failures: Math.max(t.failures, t.checks) }, this.d.tuning);
  }

  private plan(id: number, t: Tracked, step: PollStep): void {
    this.clear(t);
    if (this.stopped || !this.d.isOnline()) return;
    t.at = step.at;
    t.timer = this.d.timers.setTimeout(
      () => {
        t.timer = null;
        t.at = null;
        this.fire(id, t);
      },
      Math.max(0, step.at - this.d.now()),
    );
  }

  private fire(id: number, t: Tracked): void {
    if (this.stopped || !this.d.isOnline() || t.inFlight || this.tracked.get(id) !== t) return;
    if (this.tokenQueue.length === 0 && this.d.bucket.take() === 0) {
      void this.run(id, t);
      return;
    }
    if (!this.tokenQueue.includes(id)) this.tokenQueue.push(id);
    this.serveTokenQueue();
  }

  private serveTokenQueue(): void {
    if (this.tokenTimer !== null || this.stopped) return;
    while (this.tokenQueue.length > 0) {
      const id = this.tokenQueue[0] as number;
      const t = this.tracked.get(id);
      if (!t || t.inFlight || t.timer !== null || !this.d.isOnline()) {
        this.tokenQueue.shift(); // answered, re-planned or forgotten meanwhile
        continue;
      }
      const wait = this.d.bucket.take();
      if (wait > 0) {
        this.tokenTimer = this.d.timers.setTimeout(() => {
          this.tokenTimer = null;
          this.serveTokenQueue();
        }, wait);
        return;
      }
      this.tokenQueue.shift();
      void this.run(id, t);
    }
  }

  private clearTokenQueue(): void {
    this.tokenQueue.length = 0;
    if (this.tokenTimer !== null) this.d.timers.clearTimeout(this.tokenTimer);
    this.tokenTimer = null;
  }

  private run(id: number, t: Tracked): Promise<void> {
    const rec = this.d.journal.get(id);
    if (!rec || !POLLED.has(rec.state)) {
      this.untrack(id);
      return Promise.resolve();
    }
    const p = (async () => {
      const startedAt = this.d.now();
      const outcome = await this.d.query(rec);
      t.failures = outcome.kind === 'error' ? t.failures + 1 : 0;
      t.checks += 1;
      if (outcome.kind === 'error') {
        this.d.logger.warn('order status check failed', {
          orderId: id,
          outOrderNo: rec.outOrderNo,
          code: isAppError(outcome.error) ? outcome.error.code : 'INTERNAL',
          failures: t.failures,
        });
      }
      try {
        this.d.handle(id, outcome, startedAt >= finalCheckAt(rec.expiresAt, this.d.tuning));
      } catch (err) {
        this.d.logger.error('order status answer could not be handled', { orderId: id, error: String(err) });
      }
    })().finally(() => {
      t.inFlight = null;
      if (this.tracked.get(id) === t) this.track(id);
    });
    t.inFlight = p;
    return p;
  }

  private clear(t: Tracked): void {
    if (t.timer !== null) this.d.timers.clearTimeout(t.timer);
    t.timer = null;
    t.at = null;
  }
}
