// Whether the payment provider answers us, measured, never assumed: harmless authenticated probes
// on start, on profile activation and on a settings save, re-probes with backoff while it does not
// answer or refuses us, and every real sale or query reported as it happens.
import { isAppError } from '../../shared/errors';
import type { ProviderStatus } from '../../shared/provider-status';
import type { Logger } from '../../shared/logger';
import { RetryTimer, type BackoffTuning, type Timers } from '../lib';

interface HealthDeps {
  timers: Timers;
  now: () => number;
  random: () => number;
  logger: Logger;
  backoff: BackoffTuning;
  /**
   * Harmless authenticated calls; each resolves when the provider accepted us (a "no such order"
   * counts: the provider checks our key, timestamp and signature before it looks the order up),
   * rejects with the call's AppError otherwise. Bills is null when not set up.
   */
  probes: () => { pos: () => Promise<unknown>; bills: (() => Promise<unknown>) | null };
  onChange: (s: ProviderStatus) => void;
}

const ONLINE_DETAIL = 'The provider answers and accepts our keys';

/**
 * What one failed call says about the provider, or null when it says nothing (a business refusal).
 * @internal for tests
 */
export function statusFromError(err: unknown, at: number, from: 'probe' | 'call'): ProviderStatus | null {
  if (!isAppError(err)) return null;
  const d = err.details ?? {};
  const code =
    typeof d.providerCode === 'string'
      ? d.providerCode
      : typeof d.unverifiedProviderCode === 'string'
        ? d.unverifiedProviderCode
        : undefined;
  const providerMessage =
    typeof d.providerMessage === 'string'
      ? d.providerMessage
      : typeof d.unverifiedProviderMessage === 'string'
        ? d.unverifiedProviderMessage
        : undefined;
  const said = {
    ...(code ? { code } : {}),
    ...(providerMessage !== undefined ? { providerMessage } : {}),
    checkedAt: at,
  };
  switch (err.code) {
    case 'PROVIDER_UNREACHABLE':
    case 'PROVIDER_TIMEOUT': {
      // The call's own message speaks of one request; the status bar speaks of the provider.
      const why =
        err.code === 'PROVIDER_UNREACHABLE'
          ? err.message.replace(/ Nothing was sent\..*$/, '')
          : d.reason === 'timeout'
            ? 'The payment provider did not answer in time.'
            : 'The connection to the payment provider dropped before it answered.';
      return {
        state: 'unreachable',
        detail: why,
        action:
          'Check the internet connection and the provider address in Settings. Sales wait in the queue meanwhile.',
        checkedAt: at,
      };
    }
    case 'PROVIDER_AUTH':
      return {
        state: 'refusing',
        detail: err.message,
        ...(typeof d.adminAction === 'string'
          ? { action: d.adminAction }
          : { action: 'Ask the administrator to check the keys and merchant ids in Settings.' }),
        ...said,
      };
    case 'PROVIDER_HTTP': {
      const status = typeof d.httpStatus === 'number' ? d.httpStatus : 0;
      if (status >= 500)
        return {
          state: 'unreachable',
          detail: err.message,
          action: 'The provider has a problem on its side; CounterPay keeps trying.',
          ...said,
        };
      return from === 'probe'
        ? { state: 'refusing', detail: err.message, action: 'Check the provider address in Settings.', ...said }
        : null;
    }
    case 'PROVIDER_BAD_RESPONSE':
      return from === 'probe'
        ? {
            state: 'refusing',
            detail: err.message,
            action: 'Ask the administrator to check the provider public key and the merchant private key in Settings.',
            ...said,
          }
        : null;
    case 'PROVIDER_REFUSED':
      return from === 'probe'
        ? {
            state: 'refusing',
            detail: err.message,
            action: 'Ask the administrator to check the merchant ids in Settings.',
            ...said,
          }
        : null;
    case 'PROVIDER_NOT_CONFIGURED':
      return { state: 'not-configured', detail: err.message };
    default:
      return null;
  }
}

export class ProviderHealth {
  private s: ProviderStatus = { state: 'checking', detail: 'Checking the connection to the provider…' };
  private failures = 0;
  private readonly retry: RetryTimer;
  private running: Promise<void> | null = null;
  /** Bumped by every check request, so an answer to an older probe cannot overwrite a newer one. */
  private generation = 0;
  private stopped = false;

  constructor(private readonly d: HealthDeps) {
    this.retry = new RetryTimer(d);
  }

  get status(): ProviderStatus {
    return this.s;
  }

  /** Probes now (start, profile activated, settings saved, the cashier asked); resolves with the answer. */
  check(why: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // A timed retry joins a probe already under way. Check now starts afresh: the cashier may just
    // have fixed the cause, and an answer to an older probe must not stand for it.
    if (this.running && why === 'retry') return this.running;
    this.retry.clear();
    this.generation += 1;
    if (this.s.state !== 'checking' && (why === 'settings' || why === 'start')) {
      // New settings mean old verdicts no longer hold: nothing is "online" before an answer.
      this.set({ state: 'checking', detail: 'Checking the connection to the provider…' });
    }
    const gen = this.generation;
    const run = this.probe(gen, why).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** A real call (sale, status check, top-up) succeeded or failed: update at once. */
  report(err: unknown): void {
    if (this.stopped) return;
    const at = this.d.now();
    if (err === null) {
      if (this.s.state !== 'online') {
        this.failures = 0;
        this.retry.clear();
        this.set({ state: 'online', detail: ONLINE_DETAIL, checkedAt: at });
      }
      return;
    }
    const next = statusFromError(err, at, 'call');
    if (!next || next.state === 'not-configured') return;
    if (next.state === this.s.state && next.code === this.s.code && next.detail === this.s.detail) return;
    this.failures = Math.max(this.failures, 1);
    this.set(next);
    this.schedule();
  }

  /** Marks the profile as not usable (no keys, Demo sandbox down) without probing. */
  notUsable(status: ProviderStatus): void {
    this.retry.clear();
    this.generation += 1;
    this.set(status);
  }

  stop(): void {
    this.stopped = true;
    this.retry.clear();
  }

  /** Resolves when no probe is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async probe(gen: number, why: string): Promise<void> {
    const probes = this.d.probes();
    const results = await Promise.allSettled([probes.pos(), probes.bills ? probes.bills() : Promise.resolve(null)]);
    if (gen !== this.generation || this.stopped) return;
    const at = this.d.now();
    const verdicts = results.map((r, i) =>
      r.status === 'fulfilled'
        ? null
        : { api: i === 0 ? 'POS' : 'bills', status: statusFromError(r.reason, at, 'probe') },
    );
    // The POS payment API decides; bills matters only when POS is fine.
    const bad = verdicts.find((v) => v !== null);
    if (!bad) {
      this.failures = 0;
      this.d.logger.info('provider probe: online', { why });
      this.set({ state: 'online', detail: ONLINE_DETAIL, checkedAt: at });
      return;
    }
    const status: ProviderStatus = bad.status ?? {
      state: 'unreachable',
      detail: 'The provider could not be checked.',
      checkedAt: at,
    };
    const detail = bad.api === 'bills' ? `Top-ups: ${status.detail}` : status.detail;
    this.failures += 1;
    this.d.logger.warn('provider probe failed', { why, api: bad.api, state: status.state, providerCode: status.code });
    this.set({ ...status, detail });
    if (status.state !== 'not-configured') this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.retry.pending) return;
    const at = this.retry.set(this.failures, () => void this.check('retry'));
    this.s = { ...this.s, nextCheckAt: at };
    this.d.onChange(this.s);
  }

  private set(next: ProviderStatus): void {
    const before = this.s;
    this.s = next;
    if (before.state !== next.state)
      this.d.logger.info('provider status', { from: before.state, to: next.state, providerCode: next.code });
    this.d.onChange(next);
  }
}
