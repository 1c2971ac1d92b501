// One running CounterPay per data folder. The lock is an exclusive SQLite lock on its own small
// file: the operating system drops it when the process dies, even by SIGKILL or a power cut, so a
// crash never leaves a stale lock behind (a PID file alone would). The PID file only names the
// holder in the message.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirError } from './prepare-dir';

const LOCK_FILE = 'counterpay.lock';
const PID_FILE = 'counterpay.pid';

export interface InstanceLock {
  release(): void;
}

export function acquireInstanceLock(dir: string): InstanceLock {
  const lockPath = join(dir, LOCK_FILE);
  const pidPath = join(dir, PID_FILE);
  let db: Database.Database;
  try {
    closeSync(openSync(lockPath, 'a', 0o600));
    chmodSync(lockPath, 0o600);
    db = new Database(lockPath, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = MEMORY'); // no side file: the lock file holds nothing worth a journal
    // The first write takes the exclusive lock; in this locking mode it is kept until close.
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      let holder = '';
      try {
        const pid = Number(readFileSync(pidPath, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0) holder = ` (process ${pid})`;
      } catch {
        /* the name of the holder is a nicety */
      }
      throw new DataDirError(
        'locked',
        `Another CounterPay${holder} is already using the data folder ${dir}; close it first, or choose another folder with --data-dir.`,
        e,
      );
    }
    throw new DataDirError(
      'cannot-create',
      `CounterPay cannot lock the data folder ${dir} (${code || String(e)}); check the folder, or choose another with --data-dir.`,
      e,
    );
  }
  writeFileSync(pidPath, `${process.pid}\n`, { mode: 0o600 });
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        unlinkSync(pidPath);
      } catch {
        /* already gone */
      }
      db.close();
    },
  };
}
