// A counter process for the "killed mid-batch" test: imports a batch file into the given SQLite
// journal and sends it to the given bills API, printing its progress, until it is killed (-9).
// Run: TOPUPS_CHILD='{"dbFile":…,"config":{…},"csvFile":…,"chunkSize":…,"tuning":{…},"callBackUrl":…}' tsx test/helpers/topups-child.ts
import { readFileSync } from 'node:fs';
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { silentLogger } from '../../shared/logger';
import { createBillsClient } from '../../core/provider/bills-client';
import type { ProviderConfig } from '../../core/provider/types';
import { memoryStore } from '../../core/settings/kv-store';
import { createTopupService, type TopupTuning } from '../../core/topups/topup-service';

interface ChildArgs {
  dbFile: string;
  config: ProviderConfig;
  csvFile: string;
  chunkSize: number;
  tuning: Partial<TopupTuning>;
  callBackUrl: string;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.env.TOPUPS_CHILD ?? '') as ChildArgs;
  const db = openJournalDb(args.dbFile);
  const service = createTopupService({
    db,
    store: memoryStore(),
    bills: createBillsClient(args.config, { logger: silentLogger }),
    logger: silentLogger,
    clock: systemClock,
    identity: () => ({ profile: 'demo', billsMerchantId: args.config.billsMerchantId, counterName: 'Counter 1' }),
    callBackUrl: () => args.callBackUrl,
    tuning: args.tuning,
  });
  service.start();
  await service.refreshProviders();
  const imported = await service.importBatch(readFileSync(args.csvFile, 'utf8'), 'killed.csv');
  if (!imported.batch) throw new Error(`import failed: ${JSON.stringify(imported.errors.slice(0, 3))}`);
  let sending = 0;
  service.onItems((items) => {
    const n = items.filter((i) => i.state === 'sending').length;
    if (n > 0) {
      sending += n;
      process.stdout.write(`SENDING ${sending}\n`);
    }
  });
  service.onBatch((id) => {
    if (service.batchView(id).state === 'done') process.stdout.write('DONE\n');
  });
  process.stdout.write(`BATCH ${imported.batch.id}\n`);
  service.startBatch(imported.batch.id, args.chunkSize);
  // Keep running until killed (the timers of the service are unref'd).
  setInterval(() => {}, 60_000);
}

main().catch((e: unknown) => {
  process.stderr.write(`topups-child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
