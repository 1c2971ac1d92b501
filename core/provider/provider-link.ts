// The provider as the composition root wires it: one measured clock, the clients (the POS client
// reporting every call to the provider status), the probes, and the status bar's provider and
// clock parts. app-core only connects it to settings, the checkout and the event bus.
import type { ProviderStatus } from '../../shared/provider-status';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { systemTimers, TypedEmitter, type Timers } from '../lib';
import { createBillsClient } from './bills-client';
import { observedPos } from './observed-clients';
import { createPosClient } from './pos-client';
import { clockStatus, ProviderClock, type SkewState } from './provider-clock';
import { ProviderHealth } from './provider-health';
import type { ProviderConfig } from './types';

/** Probes wait at most this long: an address that swallows packets shows as unreachable quickly. */
const PROBE_TIMEOUT_MS = 5000;

interface ProviderLinkDeps {
  config: () => ProviderConfig;
  /** Why the active profile cannot be probed at all (Demo sandbox down), or null. */
  blocked: () => ProviderStatus | null;
  clock: Clock;
  logger: Logger;
  timers?: Timers;
}

/** What the link tells those who follow it (the root wires the status bar and the checkout). */
type ProviderLinkEvents = {
  /** The status changed (publish it). */
  status: [];
  /** The provider answers us again after refusing or not answering: ask about open orders. */
  back: [];
  /** The clock correction started or stopped. */
  clock: [SkewState];
};

export function createProviderLink(d: ProviderLinkDeps) {
  const { clock, logger } = d;
  const told = new TypedEmitter<ProviderLinkEvents>();
  const skew = new ProviderClock(clock, logger);
  const rawPos = createPosClient(d.config, { logger, clock, skew });
  const bills = createBillsClient(d.config, { logger, clock });
  const probeConfig = () => {
    const cfg = d.config();
    return { ...cfg, requestTimeoutMs: Math.min(cfg.requestTimeoutMs, PROBE_TIMEOUT_MS) };
  };
  const probePos = createPosClient(probeConfig, { logger, clock, skew });
  const probeBills = createBillsClient(probeConfig, { logger, clock });

  let last: ProviderStatus['state'] = 'checking';
  const health = new ProviderHealth({
    timers: d.timers ?? systemTimers,
    now: () => clock.now(),
    random: Math.random,
    logger,
    backoff: { baseMs: 2000, maxMs: 60_000 },
    probes: () => {
      const cfg = d.config();
      const billsSet = Boolean(cfg.billsBaseUrl && cfg.billsMerchantId && cfg.secrets.billsPublicKey);
      // An order number that cannot exist: "no such order" proves the provider took our call.
      return {
        pos: () => probePos.queryOrder({ outOrderNo: `PROBE-${clock.now()}` }),
        bills: billsSet ? () => probeBills.bettingProviders() : null,
      };
    },
    onChange: (st) => {
      told.emit('status');
      if (st.state === 'online' && last !== 'online' && last !== 'checking') told.emit('back');
      last = st.state;
    },
  });
  skew.onChange((s) => {
    told.emit('status');
    told.emit('clock', s);
  });

  /** Why the profile cannot be probed: blocked, or the address, ids or keys are missing. */
  const notUsable = (): ProviderStatus | null => {
    const b = d.blocked();
    if (b) return b;
    const cfg = d.config();
    if (!cfg.posBaseUrl)
      return {
        state: 'not-configured',
        detail: 'Fill in the POS payment API address (https:// in Production) in Settings',
      };
    if (
      !cfg.headMerchantId ||
      !cfg.merchantId ||
      !cfg.secrets.posClientAuthKey ||
      !cfg.secrets.merchantPrivateKey ||
      !cfg.secrets.providerPublicKey
    ) {
      return { state: 'not-configured', detail: 'Fill in the merchant ids and keys in Settings' };
    }
    return null;
  };

  return {
    /** The POS client for the checkout: every call updates the provider status. */
    pos: observedPos(rawPos, (e) => health.report(e)),
    bills,
    /** The clock requests are stamped with (corrected when the offset is large). */
    clock: skew as Clock,
    /** Start, profile activated, settings saved, clock corrected, the cashier asked: probe now. */
    check: (why: string): Promise<void> => (notUsable() ? Promise.resolve() : health.check(why)),
    providerPart: (): ProviderStatus => notUsable() ?? health.status,
    clockPart: () => clockStatus(skew.state()),
    idle: () => health.idle(),
    /** Follow the link's news: `status`, `back` (answers again), `clock` (correction on or off). */
    on: <K extends keyof ProviderLinkEvents & string>(event: K, listener: (...args: ProviderLinkEvents[K]) => void) =>
      told.on(event, listener),
    stop: () => health.stop(),
  };
}
export type ProviderLink = ReturnType<typeof createProviderLink>;
