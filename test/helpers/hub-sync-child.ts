// Child process for the sync kill test: opens the counter's SQLite file and runs the sync pusher
// against the Hub in small batches, printing "SEQ <lastSeq>" each time the Hub's answer is kept,
// until it is killed (kill -9). Usage: tsx test/helpers/hub-sync-child.ts <args.json>
import { readFileSync } from 'node:fs';
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { createHubClient, createSyncPusher, HubOutbox, type HubConnection } from '../../core/hub-link';
import { silentLogger } from '../../shared/logger';

interface ChildArgs {
  dbFile: string;
  conn: HubConnection;
  batchSize: number;
}

const args = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ChildArgs;
const db = openJournalDb(args.dbFile);
const outbox = new HubOutbox(db);
let printed = -1;
const pusher = createSyncPusher({
  db,
  connection: () => args.conn,
  client: createHubClient(),
  clock: systemClock,
  logger: silentLogger,
  status: () => ({ appVersion: '0.1.0', profile: 'production', openPayments: 0 }),
  tuning: { debounceMs: 5, backoff: { baseMs: 20, maxMs: 200 }, batchSize: args.batchSize },
  onChange: () => {
    const seq = outbox.lastSeq(args.conn.counterId);
    if (seq === printed) return;
    printed = seq;
    process.stdout.write(`SEQ ${seq}\n`);
  },
});
// The pusher's timers do not hold the process open; this does, until the kill (a minute at most).
setTimeout(() => process.exit(3), 60_000);
pusher.start();
