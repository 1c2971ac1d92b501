// The real provider sandbox on a loopback port with the real POS client, for the order
// lifecycle's integration tests; plus waiting on checkout events (no sleeps).
import { sandboxProviderConfig } from './sandbox-provider-config';
import {
  generateDemoConfig,
  startSandbox,
  type DemoMerchantValues,
  type Sandbox,
  type SandboxConfig,
} from '../../sandbox';
import type { ProviderConfig } from '../../core/provider/types';
import type { CheckoutService } from '../../core/orders/checkout-service';
import type { OrderView } from '../../shared/orders';

export interface OrdersSandbox {
  sandbox: Sandbox;
  merchant: DemoMerchantValues;
  providerConfig(over?: Partial<ProviderConfig>): ProviderConfig;
}

export async function startOrdersSandbox(tweak: (c: SandboxConfig) => void = () => {}): Promise<OrdersSandbox> {
  const { config, merchant } = generateDemoConfig();
  tweak(config);
  const sandbox = await startSandbox(config, { port: 0 });
  return {
    sandbox,
    merchant,
    providerConfig: (over = {}) => ({
      ...sandboxProviderConfig(sandbox, merchant, { requestTimeoutMs: 15_000 }),
      ...over,
    }),
  };
}

/** Fast but real timings for loopback tests (the shapes of the schedule stay the same). */
export const FAST_TUNING = {
  poll: {
    fastMs: 20,
    fastWindowMs: 1_000,
    mediumMs: 40,
    mediumWindowMs: 2_000,
    slowMs: 80,
    graceMs: 400,
    errorBaseMs: 20,
    errorMaxMs: 200,
    undecidedMs: 300,
  },
  backoff: { baseMs: 20, maxMs: 200 },
  minUsefulMs: 300,
  maxChecksPerSecond: 200,
  checkBurst: 20,
};

/** Resolves with the order once `test` holds for it: now, or at the checkout event that makes it so. */
export function waitForOrder(svc: CheckoutService, id: number, test: (v: OrderView) => boolean): Promise<OrderView> {
  return new Promise((resolve) => {
    const now = svc.get(id);
    if (now && test(now)) return resolve(now);
    const off = svc.on('order', (v) => {
      if (v.id !== id || !test(v)) return;
      off();
      resolve(v);
    });
  });
}

export const inState = (svc: CheckoutService, id: number, state: OrderView['state']) =>
  waitForOrder(svc, id, (v) => v.state === state);
