// The provider sandbox as the chaos run and the benchmark use it: fresh demo keys, N manual
// terminals (settled only by present()), and the merchant-side provider settings to reach it.
import { sandboxProviderConfig } from './sandbox-provider-config';
import type { Clock } from '../../shared/clock';
import type { ProviderConfig } from '../../core/provider/types';
import { generateDemoConfig, startSandbox, type DemoMerchantValues, type Sandbox } from '../../sandbox';

export interface TerminalsSandbox {
  sandbox: Sandbox;
  merchant: DemoMerchantValues;
  terminals: string[];
  provider: ProviderConfig;
}

export async function startTerminalsSandbox(o: {
  terminals: number;
  prefix: string;
  requestTimeoutMs: number;
  retryScheduleMs?: number[];
  clock?: Clock;
}): Promise<TerminalsSandbox> {
  const { config, merchant } = generateDemoConfig();
  const terminals = Array.from({ length: o.terminals }, (_, i) => `${o.prefix}-${String(i + 1).padStart(4, '0')}`);
  config.pos.terminals = terminals.map((sn) => ({
    sn,
    merchantId: merchant.merchantId,
    autoOutcome: null,
    autoAfterMs: 0,
  }));
  config.webhooks = { retryScheduleMs: o.retryScheduleMs ?? [], timeoutMs: 2_000 };
  const sandbox = await startSandbox(config, { port: 0, ...(o.clock ? { clock: o.clock } : {}) });
  const provider: ProviderConfig = sandboxProviderConfig(sandbox, merchant, { requestTimeoutMs: o.requestTimeoutMs });
  return { sandbox, merchant, terminals, provider };
}
