// The journal's durability, which a kill test cannot see (a killed process leaves its writes in the
// OS cache): the settings SQLite runs with on every open, and the order of the flushes of a backup
// and of a restore's swap. node:fs is passed through unchanged, only recorded: which file each
// flush was for, and where it came among the renames.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../core/db/database';
import { journalPath, openJournalChecked, swapInJournal } from '../../../core/data-folder/journal-file';
import { SCHEMA } from '../../../core/schema';
import { createBackupService } from '../../../core/backup/backup-service';
import { memoryLogger } from '../../../shared/logger';

const steps: string[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const pathOf = new Map<number, string>();
  const name = (p: unknown) => String(p).split('/').pop()!;
  const wrapped = {
    ...fs,
    openSync: (p: import('node:fs').PathLike, ...rest: unknown[]) => {
      const fd = (fs.openSync as (...a: unknown[]) => number)(p, ...rest);
      pathOf.set(fd, String(p));
      return fd;
    },
    closeSync: (fd: number) => {
      pathOf.delete(fd);
      fs.closeSync(fd);
    },
    fsyncSync: (fd: number) => {
      const p = pathOf.get(fd) ?? '?';
      let dir = false;
      try {
        dir = fs.fstatSync(fd).isDirectory();
      } catch {
        /* recorded as a file */
      }
      steps.push(`fsync ${dir ? 'dir ' : ''}${name(p)}`);
      fs.fsyncSync(fd);
    },
    renameSync: (a: import('node:fs').PathLike, b: import('node:fs').PathLike) => {
      steps.push(`rename ${name(a)} -> ${name(b)}`);
      fs.renameSync(a, b);
    },
    writeFileSync: (...a: Parameters<typeof fs.writeFileSync>) => {
      steps.push(`write ${name(a[0])}`);
      fs.writeFileSync(...a);
    },
  };
  return { ...wrapped, default: wrapped };
});

const dbs: Db[] = [];
beforeEach(() => void (steps.length = 0));
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});
const temp = () => mkdtempSync(join(tmpdir(), 'counterpay-durability-'));

describe('the journal on open', () => {
  it('runs in WAL with synchronous = FULL, foreign keys on and a busy timeout, on every way it is opened', () => {
    const dir = temp();
    const direct = openDatabase(join(dir, 'direct.db'), { migrations: SCHEMA });
    dbs.push(direct);
    const checked = openJournalChecked(dir, Date.now(), SCHEMA).db;
    dbs.push(checked);
    for (const db of [direct, checked]) {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
    }
  });
});

describe('flushes', () => {
  it('a backup: the copy is flushed before it is renamed into place, and the rename is flushed before it is reported', async () => {
    const dir = temp();
    const { db } = openJournalChecked(dir, 0, SCHEMA);
    dbs.push(db);
    const service = createBackupService({
      db,
      dataDir: dir,
      clock: { now: () => Date.parse('2026-11-02T09:00:00Z') },
      logger: memoryLogger(),
      secondFolder: () => null,
    });
    steps.length = 0;
    const b = await service.backupNow('manual');
    const i = steps.indexOf(`fsync ${b.name}.partial`);
    const r = steps.indexOf(`rename ${b.name}.partial -> ${b.name}`);
    const d = steps.indexOf('fsync dir backups');
    expect(i, steps.join('\n')).toBeGreaterThanOrEqual(0);
    expect(r).toBeGreaterThan(i);
    expect(d).toBeGreaterThan(r);
    expect(readdirSync(join(dir, 'backups'))).toEqual([b.name]);
  });

  it('a restore: the staged copy, then the intent, then the folder are flushed before the journal is replaced; the folder again after', async () => {
    const dir = temp();
    const { db } = openJournalChecked(dir, 0, SCHEMA);
    const service = createBackupService({
      db,
      dataDir: dir,
      clock: { now: () => Date.parse('2026-11-02T09:00:00Z') },
      logger: memoryLogger(),
      secondFolder: () => null,
    });
    const b = await service.backupNow('manual');
    db.close();
    steps.length = 0;
    swapInJournal(dir, b.path, Date.parse('2026-11-02T10:00:00Z'));
    const at = (s: string) => {
      const i = steps.findIndex((x) => x.startsWith(s));
      expect(i, `${s} in\n${steps.join('\n')}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const dirName = dir.split('/').pop()!;
    const staged = at('fsync counterpay.db.restoring');
    const intentWritten = at('write restore-intent.json');
    const intent = at('fsync restore-intent.json');
    const folder = at(`fsync dir ${dirName}`);
    const aside = at('rename counterpay.db -> counterpay.db.replaced-');
    const swap = at('rename counterpay.db.restoring -> counterpay.db');
    expect(staged).toBeLessThan(intentWritten);
    expect(intentWritten).toBeLessThan(intent);
    expect(intent).toBeLessThan(folder);
    expect(folder).toBeLessThan(aside);
    expect(aside).toBeLessThan(swap);
    expect(steps.slice(swap + 1)).toContain(`fsync dir ${dirName}`);
    const reopened = openDatabase(journalPath(dir), { migrations: SCHEMA });
    dbs.push(reopened);
    expect(reopened.pragma('synchronous', { simple: true })).toBe(2);
  });
});
