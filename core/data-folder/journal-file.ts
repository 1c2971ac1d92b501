// The journal file itself: open it with an integrity check, set a damaged one aside (never
// overwrite it), and swap a backup in for a restore in steps that a kill at any moment cannot
// leave half-done. The database must be closed while a swap runs.
import Database from 'better-sqlite3';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { migrate, openDatabase, type Db, type Migration } from '../db';
import { tightenFileModes } from './prepare-dir';

const JOURNAL_FILE = 'counterpay.db';
const SIDE_FILES = ['', '-wal', '-shm'] as const;
const RESTORING = '.restoring';
const INTENT = 'restore-intent.json';

export const journalPath = (dataDir: string) => join(dataDir, JOURNAL_FILE);
export const stampOf = (ms: number) => new Date(ms).toISOString().replace(/[:.]/g, '-');

/** SQLite errors that mean the file is damaged (as opposed to busy, locked or not permitted). */
function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** `pragma quick_check` on an open database: null when fine, else SQLite's first complaint. */
function quickCheck(db: Db): string | null {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  const first = rows[0]?.quick_check ?? 'no answer';
  return first === 'ok' ? null : first;
}

/** Checks a file that is not in use (a backup): it must be a whole SQLite journal of ours. */
export function checkJournalFile(file: string): string | null {
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const problem = quickCheck(db);
    if (problem) return `it is damaged (${problem})`;
    const t = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'orders'").get() as {
      n: number;
    };
    if (t.n === 0) return 'it is not a CounterPay journal (no orders table)';
    return null;
  } catch (e) {
    return isDamage(e)
      ? 'it is not a readable SQLite database'
      : `it cannot be opened (${e instanceof Error ? e.message : String(e)})`;
  } finally {
    db?.close();
  }
}

/**
 * Renames the journal and its -wal/-shm to `<file><suffix>…`; returns the new main name.
 * @internal for tests
 */
export function moveJournalAside(file: string, suffix: string): string {
  for (const side of SIDE_FILES) if (existsSync(file + side)) renameSync(file + side, file + suffix + side);
  return file + suffix;
}

/** Flushes a file (or, with 'r', a folder's entries) to the disk. */
export function fsyncPath(path: string, flags = 'r'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a folder's entries (a rename) to the disk, where the platform can. */
export function fsyncDir(dir: string): void {
  try {
    fsyncPath(dir);
  } catch {
    /* not every platform can fsync a folder; the renames are still ordered */
  }
}

type OpenedJournal = { db: Db; damaged: null } | { db: Db; damaged: { keptAs: string; problem: string } };

/**
 * Opens the journal after an integrity check. A damaged one is moved aside whole and a new empty
 * journal is started, so the counter can sell while a manager restores a backup. `schema`: the
 * migrations in their order (the root's, core/schema.ts).
 */
export function openJournalChecked(dataDir: string, now: number, schema: readonly Migration[]): OpenedJournal {
  const file = journalPath(dataDir);
  let problem: string | null = null;
  if (existsSync(file)) {
    let db: Db | null = null;
    try {
      // Checked before the schema's migrations write anything to it.
      db = openDatabase(file, { migrations: [] });
      problem = quickCheck(db);
      if (!problem) {
        migrate(db, schema);
        tightenFileModes(SIDE_FILES.map((s) => file + s));
        return { db, damaged: null };
      }
    } catch (e) {
      if (!isDamage(e)) throw e;
      problem = e instanceof Error ? e.message : String(e);
    }
    try {
      db?.close();
    } catch {
      /* a damaged file may refuse even to close cleanly */
    }
  }
  const keptAs = problem ? moveJournalAside(file, `.damaged-${stampOf(now)}`) : null;
  closeSync(openSync(file, 'a', 0o600)); // created 0600 before SQLite sees it: -wal/-shm follow its mode
  tightenFileModes([file]);
  const db = openDatabase(file, { migrations: schema });
  return keptAs && problem ? { db, damaged: { keptAs, problem } } : { db, damaged: null };
}

/**
 * Puts `backup` in place of the journal (closed). Order: the copy is made and flushed first,
 * then an intent file is written; from then on a restart finishes the swap (finishInterruptedRestore).
 * The replaced journal is kept as `counterpay.db.replaced-<time>`.
 */
export function swapInJournal(dataDir: string, backup: string, now: number): { replacedAs: string | null } {
  const file = journalPath(dataDir);
  const staged = file + RESTORING;
  rmSync(staged, { force: true });
  copyFileSync(backup, staged);
  tightenFileModes([staged]);
  fsyncPath(staged, 'r+');
  const intent = join(dataDir, INTENT);
  writeFileSync(intent, JSON.stringify({ from: backup, at: now }), { mode: 0o600 });
  fsyncPath(intent, 'r+');
  fsyncDir(dataDir);
  return finishSwap(dataDir, now);
}

function finishSwap(dataDir: string, now: number): { replacedAs: string | null } {
  const file = journalPath(dataDir);
  const replacedAs = existsSync(file) ? moveJournalAside(file, `.replaced-${stampOf(now)}`) : null;
  for (const side of ['-wal', '-shm']) rmSync(file + side, { force: true }); // never apply an old WAL to the restored file
  renameSync(file + RESTORING, file);
  fsyncDir(dataDir);
  rmSync(join(dataDir, INTENT), { force: true });
  fsyncDir(dataDir);
  return { replacedAs };
}

/** At start: a restore that was killed half-way is finished (or, if its copy never completed, dropped). */
export function finishInterruptedRestore(dataDir: string, now: number): 'none' | 'finished' | 'dropped' {
  const intent = join(dataDir, INTENT);
  const staged = journalPath(dataDir) + RESTORING;
  if (!existsSync(intent)) {
    // Killed while copying: the journal was never touched; the partial copy goes.
    if (existsSync(staged)) {
      rmSync(staged, { force: true });
      return 'dropped';
    }
    return 'none';
  }
  if (!existsSync(staged)) {
    rmSync(intent, { force: true }); // killed after the rename, before the intent was removed
    return 'finished';
  }
  try {
    JSON.parse(readFileSync(intent, 'utf8'));
  } catch {
    // The intent was being written when the process died: the swap had not begun.
    rmSync(intent, { force: true });
    rmSync(staged, { force: true });
    return 'dropped';
  }
  finishSwap(dataDir, now);
  return 'finished';
}

/** Sales in `file` made after `at`, if the file can still be read that far; null when it cannot. */
export function countSalesAfter(file: string, at: number): number | null {
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return (db.prepare('SELECT count(*) AS n FROM orders WHERE created_at > ?').get(at) as { n: number }).n;
  } catch {
    return null;
  } finally {
    try {
      db?.close();
    } catch {
      /* a damaged file may refuse even to close */
    }
  }
}

export const backupsFolder = (dataDir: string) => join(dataDir, 'backups');
