// Child process for the crash test: opens the same SQLite file, sells one ticket against the
// sandbox, prints "WAITING <id> <outOrderNo>" once the order is on the terminal, then idles until
// it is killed (kill -9). Usage: tsx test/helpers/orders-child.ts <args.json>
import { readFileSync } from 'node:fs';
import { openJournalDb } from '../../core/schema';
import { systemClock } from '../../shared/clock';
import { silentLogger } from '../../shared/logger';
import { createCheckoutService, type CheckoutSettings } from '../../core/orders/checkout-service';
import { createPosClient } from '../../core/provider';
import type { ProviderConfig } from '../../core/provider/types';
import type { SaleInput } from '../../shared/orders';

interface ChildArgs {
  dbFile: string;
  provider: ProviderConfig;
  settings: CheckoutSettings;
  sale: SaleInput;
}

const args = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ChildArgs;
const db = openJournalDb(args.dbFile);
const checkout = createCheckoutService({
  db,
  pos: createPosClient(args.provider, { logger: silentLogger }),
  clock: systemClock,
  logger: silentLogger,
  settings: () => args.settings,
  tuning: { poll: { fastMs: 50 } },
});
// Timers of the service do not hold the process open; this does, until the kill (or, should
// the test die first, for a minute at most).
setTimeout(() => process.exit(3), 60_000);
checkout.on('order', (v) => {
  if (v.state === 'waiting') process.stdout.write(`WAITING ${v.id} ${v.outOrderNo}\n`);
  else if (v.state !== 'creating') process.stdout.write(`STATE ${v.id} ${v.state} ${v.reason ?? ''}\n`);
});
checkout.sell(args.sale).catch((err: unknown) => {
  process.stdout.write(`ERROR ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
