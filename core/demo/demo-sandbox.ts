// The Demo profile's provider: the sandbox, embedded, on a free loopback port, with keys generated
// once and kept in the app's data folder so the next start reuses them.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  generateDemoConfig,
  parseSandboxConfig,
  startSandbox,
  type DemoMerchantValues,
  type Sandbox,
  type SandboxConfig,
} from '../../sandbox';
import type { Logger } from '../../shared/logger';

const StoredDemo = z.object({
  config: z.unknown(),
  merchant: z.object({
    billsMerchantId: z.string(),
    billsPublicKey: z.string(),
    billsSecretKey: z.string(),
    headMerchantId: z.string(),
    merchantId: z.string(),
    clientAuthKey: z.string(),
    merchantPrivateKeyPem: z.string(),
    providerPublicKeyPem: z.string(),
    terminalSn: z.string(),
    autoTerminalSn: z.string(),
  }),
});

export interface DemoSandbox {
  sandbox: Sandbox;
  merchant: DemoMerchantValues;
}

function loadOrCreate(dir: string, logger: Logger): { config: SandboxConfig; merchant: DemoMerchantValues } {
  const file = join(dir, 'demo-sandbox.json');
  if (existsSync(file)) {
    try {
      const stored = StoredDemo.parse(JSON.parse(readFileSync(file, 'utf8')));
      parseSandboxConfig(stored.config as SandboxConfig);
      return { config: stored.config as SandboxConfig, merchant: stored.merchant };
    } catch (e) {
      logger.warn('demo sandbox file unreadable; making fresh demo keys', {
        file,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  const fresh = generateDemoConfig();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return fresh;
}

export async function startDemoSandbox(dataDir: string, logger: Logger): Promise<DemoSandbox> {
  const { config, merchant } = loadOrCreate(dataDir, logger);
  const sandbox = await startSandbox(config, { host: '127.0.0.1', port: 0, logger });
  logger.info('demo sandbox running', { url: sandbox.url });
  return { sandbox, merchant };
}
