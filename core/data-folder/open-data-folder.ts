// Everything done to the data folder before the core opens a file in it, for both shells: check
// and lock the folder, finish a restore that a kill interrupted, apply a --restore from the command
// line, and repair settings and keys files that cannot be read. Throws DataDirError (one sentence,
// an exit code) when the folder cannot be used.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RecoveryNotice } from '../../shared/backups';
import { formatLagosDateTime } from '../../shared/time';
import { acquireInstanceLock, type InstanceLock } from './instance-lock';
import { checkJournalFile, finishInterruptedRestore, journalPath, swapInJournal } from './journal-file';
import { keepLastGood, lastGoodPath, recoverJsonFile } from './json-recovery';
import { DataDirError, prepareDataDir, tightenFileModes } from './prepare-dir';

interface OpenedDataFolder {
  lock: InstanceLock;
  notices: RecoveryNotice[];
}

interface OpenDataFolderOptions {
  /** A journal backup to put in place before start (`--restore FILE`). */
  restoreFrom?: string;
  /** The settings files this shell uses (the browser shell also keeps a keys file). */
  jsonFiles: { file: string; what: 'settings' | 'keys' }[];
  now: number;
}

export function openDataFolder(dataDir: string, opts: OpenDataFolderOptions): OpenedDataFolder {
  prepareDataDir(dataDir);
  const lock = acquireInstanceLock(dataDir);
  try {
    const notices: RecoveryNotice[] = [];
    const interrupted = finishInterruptedRestore(dataDir, opts.now);
    if (interrupted === 'finished') {
      notices.push({
        kind: 'restore-finished',
        message: "A restore of the journal was interrupted and has now been finished. Check today's orders.",
        keptAs: null,
        at: opts.now,
      });
    }
    if (opts.restoreFrom) {
      const problem = checkJournalFile(opts.restoreFrom);
      if (problem)
        throw new DataDirError(
          'cannot-create',
          `The backup ${opts.restoreFrom} cannot be restored: ${problem}. Nothing was changed.`,
        );
      const { replacedAs } = swapInJournal(dataDir, opts.restoreFrom, opts.now);
      notices.push({
        kind: 'restore-finished',
        message: `The journal was restored from ${opts.restoreFrom} (at ${formatLagosDateTime(opts.now)}). Sales made after that backup are not in it: their sale numbers are on the printed receipts, and the provider can be asked for them.`,
        keptAs: replacedAs,
        at: opts.now,
      });
    }
    for (const { file, what } of opts.jsonFiles) {
      const n = recoverJsonFile(file, what, opts.now);
      if (n) notices.push(n);
      else if (!existsSync(lastGoodPath(file))) keepLastGood(file); // a folder from before this feature gets its first good copy now
      tightenFileModes([file, lastGoodPath(file)]);
    }
    const db = journalPath(dataDir);
    tightenFileModes([db, `${db}-wal`, `${db}-shm`]);
    return { lock, notices };
  } catch (e) {
    lock.release();
    throw e;
  }
}

export const settingsFile = (dataDir: string) => join(dataDir, 'settings.json');
export const secretsFile = (dataDir: string) => join(dataDir, 'secrets.json');
