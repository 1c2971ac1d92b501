// Runs the real sandbox (sandbox) on a loopback port for contract tests, and builds the
// client configuration that matches its demo merchant.
import { sandboxProviderConfig } from '../../helpers/sandbox-provider-config';
import type { EventEmitter } from 'node:events';
import type { DemoMerchantValues, Sandbox, SandboxConfig } from '../../../sandbox';
import { startOrdersSandbox } from '../../helpers/orders-sandbox';
import type { Conventions } from '../../../shared/settings';
import type { ProviderConfig } from '../../../core/provider/types';

export interface DemoSandbox {
  sandbox: Sandbox;
  merchant: DemoMerchantValues;
  clientConfig(conv?: Partial<Conventions>, over?: Partial<ProviderConfig>): ProviderConfig;
}

export async function startDemoSandbox(tweak: (c: SandboxConfig) => void = () => {}): Promise<DemoSandbox> {
  const { sandbox, merchant } = await startOrdersSandbox(tweak);
  return {
    sandbox,
    merchant,
    clientConfig: (conv = {}, over = {}) => ({
      ...sandboxProviderConfig(sandbox, merchant, { requestTimeoutMs: 5000, conventions: conv }),
      ...over,
    }),
  };
}

/** Resolves with the first event `name` whose payload passes `test` (no sleeping, no polling). */
export function nextEvent<T>(
  events: EventEmitter,
  name: string,
  test: (payload: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const listener = (payload: T) => {
      if (!test(payload)) return;
      events.off(name, listener);
      resolve(payload);
    };
    events.on(name, listener);
  });
}

let seq = 0;
/** A fresh merchant order number per call (the sandbox refuses reused ones). */
export function outOrderNo(prefix = 'CT'): string {
  seq += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${seq}`;
}
