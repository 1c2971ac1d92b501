// Backups of the journal with SQLite's online backup API, taken while the app sells: on demand,
// at shift close and every few hours, into the data folder's backups folder and, if set, a second
// folder. A backup is written as `.partial`, checked, flushed and only then renamed, so a kill or a
// full disk never leaves a broken file that looks like a backup. A failed backup is recorded and
// shown; it never throws into selling.
import Database from 'better-sqlite3';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { BackupInfo, BackupsView } from '../../shared/backups';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import { copyAtomic } from '../data-folder';
import type { Logger } from '../../shared/logger';
import { systemTimers, type TimerHandle, type Timers } from '../lib';
import { backupsFolder, checkJournalFile, fsyncDir, fsyncPath, stampOf } from '../data-folder';
import { backupsToDrop, DEFAULT_ROTATION, type Rotation } from './rotation';

type BackupReason = BackupInfo['reason'];
const NAME_RE =
  /^counterpay-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-(scheduled|shift-close|manual|before-restore)\.db$/;

interface BackupServiceDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  timers?: Timers;
  /** The second folder (USB disk, network share), or null. */
  secondFolder: () => string | null;
  everyHours?: number;
  rotation?: Rotation;
}

/** @internal for tests */
export function parseBackupName(name: string): { at: number; reason: BackupReason } | null {
  const m = NAME_RE.exec(name);
  if (!m) return null;
  return { at: Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`), reason: m[6] as BackupReason };
}

function listFolder(dir: string, place: BackupInfo['place']): BackupInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // a second folder that is unplugged simply lists nothing
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    const p = parseBackupName(name);
    if (!p) continue;
    try {
      out.push({
        name,
        path: join(dir, name),
        place,
        sizeBytes: statSync(join(dir, name)).size,
        at: p.at,
        reason: p.reason,
      });
    } catch {
      /* removed meanwhile */
    }
  }
  return out.sort((a, b) => b.at - a.at);
}

/** The copy carries the journal's WAL mode; a backup is better one self-contained file. */
function asSingleFile(file: string): void {
  const copy = new Database(file);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

const message = (e: unknown) => {
  const code = (e as { code?: string }).code;
  if (code === 'ENOSPC' || code === 'SQLITE_FULL') return 'the disk is full';
  if (code === 'EROFS') return 'the folder is on a read-only disk';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'the folder is not there (unplugged?)';
  return e instanceof Error ? e.message : String(e);
};

export function createBackupService(deps: BackupServiceDeps) {
  const { db, dataDir, clock, logger } = deps;
  const timers = deps.timers ?? systemTimers;
  const everyHours = deps.everyHours ?? 4;
  const folder = backupsFolder(dataDir);
  let lastError: BackupsView['lastError'] = null;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: TimerHandle | null = null;

  const ensureFolder = (dir: string) => {
    if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 });
  };

  const rotate = (dir: string, place: BackupInfo['place']) => {
    for (const b of backupsToDrop(listFolder(dir, place), deps.rotation ?? DEFAULT_ROTATION))
      rmSync(b.path, { force: true });
  };

  async function take(reason: BackupReason): Promise<BackupInfo> {
    const at = clock.now();
    const name = `counterpay-${stampOf(at)}-${reason}.db`;
    const final = join(folder, name);
    const partial = `${final}.partial`;
    try {
      ensureFolder(folder);
      closeSync(openSync(partial, 'w', 0o600)); // made 0600 before SQLite writes the journal's pages into it
      await db.backup(partial);
      chmodSync(partial, 0o600);
      asSingleFile(partial);
      const problem = checkJournalFile(partial);
      if (problem) throw new Error(`the new backup did not pass its check: ${problem}`);
      fsyncPath(partial, 'r+');
      renameSync(partial, final);
      fsyncDir(folder); // the rename itself reaches the disk before the backup is reported
    } catch (e) {
      rmSync(partial, { force: true });
      lastError = { at, message: `The backup could not be written to ${folder}: ${message(e)}.` };
      logger.warn('journal backup failed', { folder, reason, error: message(e) });
      throw new AppError('NOT_READY', lastError.message, { folder });
    }
    lastError = null;
    rotate(folder, 'main');
    const second = deps.secondFolder();
    if (second) {
      try {
        copyAtomic(final, join(second, name));
        rotate(second, 'second');
      } catch (e) {
        lastError = {
          at,
          message: `The backup was kept in the data folder but not copied to ${second}: ${message(e)}.`,
        };
        logger.warn('copy of the backup to the second folder failed', { second, error: message(e) });
      }
    }
    const info = listFolder(folder, 'main').find((b) => b.name === name);
    logger.info('journal backed up', { name, reason, sizeBytes: info?.sizeBytes });
    return info ?? { name, path: final, place: 'main', sizeBytes: 0, at, reason };
  }

  /** One backup at a time; later requests wait for the running one. */
  const backupNow = (reason: BackupReason): Promise<BackupInfo> => {
    const run = chain.then(() => take(reason));
    chain = run.catch(() => undefined);
    return run;
  };

  /** A backup that nobody waits for (timer, shift close): its failure is recorded, never thrown. */
  const backupQuietly = (reason: BackupReason) => void backupNow(reason).catch(() => undefined);

  return {
    folder,
    backupNow,
    backupQuietly,
    view(): BackupsView {
      const second = deps.secondFolder();
      const all = [...listFolder(folder, 'main'), ...(second ? listFolder(second, 'second') : [])].sort(
        (a, b) => b.at - a.at,
      );
      return { folder, secondFolder: second, backups: all, lastError, everyHours };
    },
    latest(): BackupInfo | null {
      return listFolder(folder, 'main')[0] ?? null;
    },
    /** Finds a listed backup by name and place: the renderer never sends a path. */
    find(name: string, place: BackupInfo['place']): BackupInfo | null {
      const second = deps.secondFolder();
      const list = place === 'main' ? listFolder(folder, 'main') : second ? listFolder(second, 'second') : [];
      return list.find((b) => b.name === name) ?? null;
    },
    start(): void {
      // A backup killed half-way leaves only a `.partial`: it was never a backup.
      try {
        for (const n of readdirSync(folder)) if (n.includes('.db.partial')) rmSync(join(folder, n), { force: true });
      } catch {
        /* no backups folder yet */
      }
      const every = everyHours * 3_600_000;
      const next = () => {
        timer = timers.setTimeout(() => {
          backupQuietly('scheduled');
          next();
        }, every);
      };
      next();
    },
    async stop(): Promise<void> {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      await chain;
    },
  };
}
