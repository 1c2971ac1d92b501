// A counter with the box-office integrations in its own process, so a test can SIGKILL it at any
// moment: the checkout and the real POS client to a sandbox the test runs, the integrations built
// from their explicit dependencies, the journal and the key vault in one folder. On start it
// resumes what a killed one left, pairs a box office when asked (printing its key once) and
// prints "READY <api url> <key or ->".
// Usage: node --import tsx test/helpers/integration-counter-child.ts <args.json>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalDb } from '../../core/schema';
import { boxOfficeRules, createIntegrations } from '../../core/integrations';
import {
  createCheckoutService,
  type CheckoutSettings,
  type CheckoutTuningInput,
} from '../../core/orders/checkout-service';
import { createPosClient } from '../../core/provider';
import type { ProviderConfig } from '../../core/provider/types';
import { fileVault } from '../../core/settings/secret-vault';
import { systemClock } from '../../shared/clock';
import { silentLogger } from '../../shared/logger';

export interface IntegrationChildArgs {
  dir: string;
  provider: ProviderConfig;
  settings: CheckoutSettings;
  sn: string;
  tuning?: CheckoutTuningInput;
  /** Pair a box office with this callback URL on this start. */
  pairWithCallback?: string;
  /** A fixed API port (0: any). */
  port?: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as IntegrationChildArgs;
  const db = openJournalDb(join(args.dir, 'journal.sqlite'));
  const checkout = createCheckoutService({
    db,
    ...boxOfficeRules(db),
    pos: createPosClient(args.provider, { logger: silentLogger }),
    clock: systemClock,
    logger: silentLogger,
    settings: () => args.settings,
    ...(args.tuning ? { tuning: args.tuning } : {}),
  });
  const integrations = createIntegrations({
    db,
    checkout,
    vault: fileVault(join(args.dir, 'secrets.json')),
    terminalSn: () => args.sn,
    now: () => Date.now(),
    logger: silentLogger,
    callbackBackoff: { baseMs: 20, maxMs: 200 },
  });
  checkout.resume();
  integrations.resume();
  const key = args.pairWithCallback ? integrations.pair('Box office', args.pairWithCallback).key : '-';
  const url = await integrations.serve({ port: args.port ?? 0, lan: false });
  process.stdout.write(`READY ${url} ${key}\n`);
  // Held open until killed (or, should the test die first, for ten minutes at most: longer than the
  // chaos run's last counter lives, whose charges may wait their turn on one terminal for minutes).
  setTimeout(() => process.exit(3), 600_000);
}

main().catch((e: unknown) => {
  process.stderr.write(`integration counter failed to start: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(2);
});
