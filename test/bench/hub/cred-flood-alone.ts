// Runs the credential-flood figure alone (issue 26): `npx tsx test/bench/hub/cred-flood-alone.ts`,
// on a Hub of its own with PGlite in a temporary folder. `npm run bench:hub` runs it with the rest.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { credFloodBench } from './cred-flood-bench';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-credflood-'));
  const f = await credFloodBench({ database: ['--data-dir', dir], log: (s) => console.log(s) });
  console.log(JSON.stringify(f));
  console.log(
    `credFloodCounterP95Ms=${f.credFloodCounterP95Ms} (target <= 100) quiet p95 ${f.credFloodQuietP95Ms} ms, load ${loadavg()[0]!.toFixed(2)}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
