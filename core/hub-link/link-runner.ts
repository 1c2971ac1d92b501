// The links while enrolled: the sync pusher and the relay consumer start and stop together; a timer
// asks the Hub who this counter is (an answer proves the Hub reachable); a refusal for good
// (revoked, or the Hub forgot the counter) stops them, forgets the credential and tells the cashier.
import { MeResponseSchema } from '../../shared/hub-contract';
import { HUB_REVOKED_TEXT } from '../../shared/hub-link';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { TimerHandle, Timers } from '../lib';
import type { EnrollmentStore } from './enrollment-store';
import { HubCallError, type HubClient } from './link-client';
import type { RelayHealthSource } from '../orders';
import { NO_ANSWER, type LastCheck } from './link-status';
import type { RelayConsumer } from './relay-consumer';
import type { SyncPusher } from './sync-pusher';

/** While enrolled, the counter asks the Hub who it is this often (a revocation is seen within it). */
export const HUB_CHECK_EVERY_MS = 60_000;
const CHECK_TIMEOUT_MS = 8_000;

/** The Hub will never take this credential again: the counter was removed (or the Hub forgot it). */
const refusedForGood = (e: HubCallError) => e.code === 'HUB_COUNTER_REVOKED' || e.code === 'HUB_UNAUTHENTICATED';

interface LinkRunnerDeps {
  enrollment: EnrollmentStore;
  pusher: Pick<SyncPusher, 'start' | 'stop'>;
  relay: Pick<RelayConsumer, 'start' | 'stop'> & RelayHealthSource;
  client: HubClient;
  clock: Clock;
  logger: Logger;
  timers: Timers;
  checkEveryMs: number;
  /** The relay's health while it runs, null when it stops. */
  onRelayHealth: (source: RelayHealthSource | null) => void;
  /** Something the status shows changed. */
  changed: () => void;
}

export class LinkRunner {
  private running = false;
  /** A stop still under way (a revocation stops the links without waiting): waited for before a start. */
  private stopping: Promise<void> = Promise.resolve();
  /** Bumped by enroll, leave, stop and a refusal: an answer to an older question is dropped. */
  private epoch = 0;
  private checkTimer: TimerHandle | null = null;
  private last: LastCheck | null = null;

  constructor(private readonly deps: LinkRunnerDeps) {}

  isRunning(): boolean {
    return this.running;
  }

  lastCheck(): LastCheck | null {
    return this.last;
  }

  /** Enrollment changes (or the module stops): answers to questions asked before are dropped. */
  newQuestion(): void {
    this.epoch += 1;
  }

  /** A new Hub, or none: the last check's answer no longer says anything. */
  forgetCheck(): void {
    this.last = null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    await this.stopping;
    if (this.running) return;
    this.running = true;
    this.deps.pusher.start();
    this.deps.relay.start();
    this.deps.onRelayHealth(this.deps.relay);
    void this.check();
  }

  stop(): Promise<void> {
    if (!this.running) return this.stopping;
    this.running = false;
    this.scheduleCheck();
    this.deps.onRelayHealth(null);
    this.stopping = Promise.all([this.deps.pusher.stop(), this.deps.relay.stop()]).then(() => undefined);
    return this.stopping;
  }

  scheduleCheck(): void {
    const { timers } = this.deps;
    if (this.checkTimer !== null) timers.clearTimeout(this.checkTimer);
    this.checkTimer = this.running ? timers.setTimeout(() => void this.check(), this.deps.checkEveryMs) : null;
  }

  /** Asks the Hub who this counter is: an answer proves it is reachable; a refusal for good means removed. */
  async check(): Promise<void> {
    const { enrollment, client, clock } = this.deps;
    const c = enrollment.connection();
    if (!c) return;
    const asked = this.epoch;
    let result: LastCheck;
    try {
      const me = await client.call(c, 'GET', '/me', undefined, MeResponseSchema, { timeoutMs: CHECK_TIMEOUT_MS });
      result = { at: clock.now(), ok: true, message: `The Hub knows this counter as ${me.name} (branch ${me.branch})` };
    } catch (e) {
      if (asked !== this.epoch) return;
      if (e instanceof HubCallError && refusedForGood(e)) {
        this.refused(e);
        return;
      }
      const message =
        e instanceof HubCallError && e.code === 'HUB_UNREACHABLE'
          ? NO_ANSWER
          : e instanceof HubCallError && e.code === 'HUB_BAD_ANSWER'
            ? 'its answer could not be read: is the address still a CounterPay Hub?'
            : e instanceof Error
              ? e.message
              : String(e);
      result = { at: clock.now(), ok: false, message };
    }
    if (asked !== this.epoch) return;
    this.last = result;
    this.scheduleCheck();
    this.deps.changed();
  }

  /** The Hub refused our credential for good: stop, forget the credential, tell the cashier. */
  refused(e: HubCallError): void {
    if (!refusedForGood(e)) return;
    const { enrollment, clock, logger, changed } = this.deps;
    const s = enrollment.saved();
    if (!s || s.revokedAt !== null) return;
    const why =
      e.code === 'HUB_COUNTER_REVOKED'
        ? HUB_REVOKED_TEXT
        : 'The Hub no longer knows this counter (its records may have been reset). Sales go on; ask the manager for a new code and join again.';
    this.epoch += 1;
    enrollment.revoked(s, clock.now(), why);
    logger.warn('hub: this counter was refused by the Hub for good; link stopped', {
      hub: s.url,
      counterId: s.counterId,
      code: e.code,
    });
    void this.stop().then(changed, (err: unknown) =>
      logger.error('hub: stopping the link failed', { error: err instanceof Error ? err.message : String(err) }),
    );
    changed();
  }
}
