// A process that the backup chaos test SIGKILLs at any moment. Mode "backup": commits rows to the
// journal (each acknowledged only once committed) while online backups run. Mode "restore":
// swaps a backup in for the (closed) journal, as `--restore` does, reporting each start.
// Usage: node --import tsx test/helpers/backup-chaos-child.ts <dataDir> backup|restore [backupFile]
import { createBackupService } from '../../core/backup/backup-service';
import { openJournalChecked, swapInJournal } from '../../core/data-folder/journal-file';
import { SCHEMA } from '../../core/schema';
import { systemClock } from '../../shared/clock';
import { openDataFolder } from '../../core/data-folder/open-data-folder';
import { silentLogger } from '../../shared/logger';

export type ChaosChildMessage =
  { kind: 'row'; n: number } | { kind: 'backup-started' } | { kind: 'restore-started' } | { kind: 'done' };
const send = (m: ChaosChildMessage) => process.send?.(m);

async function main(): Promise<void> {
  const [dataDir, mode, backupFile] = process.argv.slice(2);
  if (!dataDir || (mode !== 'backup' && mode !== 'restore'))
    throw new Error('usage: <dataDir> backup|restore [backupFile]');
  const folder = openDataFolder(dataDir, { now: systemClock.now(), jsonFiles: [] });
  if (mode === 'restore') {
    if (!backupFile) throw new Error('restore needs a backup file');
    for (;;) {
      send({ kind: 'restore-started' });
      swapInJournal(dataDir, backupFile, systemClock.now());
    }
  }
  const { db } = openJournalChecked(dataDir, systemClock.now(), SCHEMA);
  db.exec('CREATE TABLE IF NOT EXISTS probe_rows (id INTEGER PRIMARY KEY, note TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO probe_rows (note) VALUES (?)');
  const backups = createBackupService({
    db,
    dataDir,
    clock: systemClock,
    logger: silentLogger,
    secondFolder: () => null,
  });
  backups.start();
  const pad = 'x'.repeat(2000); // rows big enough that a backup takes a while
  for (let i = 0; ; i++) {
    const n = Number(insert.run(`${i} ${pad}`).lastInsertRowid);
    send({ kind: 'row', n });
    if (i % 50 === 0) {
      send({ kind: 'backup-started' });
      await backups.backupNow('scheduled');
    }
    if (i % 10 === 0) await new Promise<void>((r) => setImmediate(r)); // let IPC messages out
  }
  folder.lock.release();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
});
