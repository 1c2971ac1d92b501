// Chaos: the process is SIGKILLed during an online backup and during a restore. Afterwards the
// next start finds the journal readable, every row that was acknowledged is there, no half-written
// backup is taken for one, and a restore is either fully done or not done at all.
import Database from 'better-sqlite3';
import { fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  backupsFolder,
  checkJournalFile,
  finishInterruptedRestore,
  journalPath,
  moveJournalAside,
  openJournalChecked,
} from '../../../core/data-folder/journal-file';
import { SCHEMA } from '../../../core/schema';
import { createBackupService } from '../../../core/backup/backup-service';
import { systemClock } from '../../../shared/clock';
import { openDataFolder } from '../../../core/data-folder/open-data-folder';
import { silentLogger } from '../../../shared/logger';
import type { ChaosChildMessage } from '../../helpers/backup-chaos-child';

const ROOT = resolve(__dirname, '../../..');
const CHILD = join(ROOT, 'test/helpers/backup-chaos-child.ts');

/** Runs the child until `killAt` says so, then SIGKILLs it; resolves with the messages it sent. */
function runUntilKilled(
  args: string[],
  killAt: (m: ChaosChildMessage, seen: ChaosChildMessage[]) => boolean,
): Promise<ChaosChildMessage[]> {
  const child = fork(CHILD, args, {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const seen: ChaosChildMessage[] = [];
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((ok, fail) => {
    child.on('message', (m: ChaosChildMessage) => {
      seen.push(m);
      if (child.exitCode === null && killAt(m, seen)) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL' ? ok(seen) : fail(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
}

function rows(file: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT id FROM probe_rows ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

/** A journal with `n` rows whose notes start with `tag`. */
function makeJournal(dir: string, n: number, tag: string): void {
  const { db } = openJournalChecked(dir, systemClock.now(), SCHEMA);
  db.exec('CREATE TABLE IF NOT EXISTS probe_rows (id INTEGER PRIMARY KEY, note TEXT NOT NULL)');
  const ins = db.prepare('INSERT INTO probe_rows (note) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < n; i++) ins.run(`${tag} ${'y'.repeat(4000)}`);
  })();
  db.close();
}

function tags(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT DISTINCT substr(note, 1, 1) AS t FROM probe_rows').all() as { t: string }[]).map(
      (r) => r.t,
    );
  } finally {
    db.close();
  }
}

describe('killed during a backup', () => {
  it.each([1, 2, 3, 4])(
    'run %i: every acknowledged row survives, the journal and every backup are whole',
    async (run) => {
      const dir = mkdtempSync(join(tmpdir(), 'counterpay-chaos-backup-'));
      // Killed at the run-th backup's start, with the copy under way.
      const seen = await runUntilKilled(
        [dir, 'backup'],
        (m, all) => m.kind === 'backup-started' && all.filter((x) => x.kind === 'backup-started').length === run + 1,
      );
      const acked = seen.filter((m): m is { kind: 'row'; n: number } => m.kind === 'row').map((m) => m.n);
      const folder = openDataFolder(dir, { now: systemClock.now(), jsonFiles: [] }); // the lock was freed by the kill
      try {
        const opened = openJournalChecked(dir, systemClock.now(), SCHEMA);
        expect(opened.damaged).toBeNull();
        opened.db.close();
        const have = new Set(rows(journalPath(dir)));
        expect(acked.filter((n) => !have.has(n))).toEqual([]);
        const service = createBackupService({
          db: new Database(':memory:'),
          dataDir: dir,
          clock: systemClock,
          logger: silentLogger,
          secondFolder: () => null,
        });
        service.start(); // clears what the killed backup left
        await service.stop();
        const left = readdirSync(backupsFolder(dir));
        expect(left.filter((n) => !n.endsWith('.db'))).toEqual([]);
        // The precondition: killed at the (run+1)-th backup's start, so `run` backups were finished before it.
        expect(left.length).toBeGreaterThanOrEqual(1);
        for (const b of left) expect([b, checkJournalFile(join(backupsFolder(dir), b))]).toEqual([b, null]);
      } finally {
        folder.lock.release();
      }
    },
  );
});

describe('killed during a restore', () => {
  /** What each run found after the kill: the old journal ('A') or the backup ('B'). */
  const outcomes: string[] = [];

  async function killedRestore(run: number): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-chaos-restore-'));
    const src = mkdtempSync(join(tmpdir(), 'counterpay-chaos-src-'));
    makeJournal(dir, 300, 'A');
    makeJournal(src, 200, 'B');
    const backup = join(src, 'backup.db');
    copyFileSync(journalPath(src), backup);
    await runUntilKilled([dir, 'restore', backup], (m, all) => m.kind === 'restore-started' && all.length === run);
    const folder = openDataFolder(dir, { now: systemClock.now(), jsonFiles: [] });
    try {
      const opened = openJournalChecked(dir, systemClock.now(), SCHEMA);
      expect(opened.damaged).toBeNull();
      opened.db.close();
      const t = tags(journalPath(dir));
      expect([['A'], ['B']]).toContainEqual(t);
      outcomes.push(t[0]!);
      expect(rows(journalPath(dir))).toHaveLength(t[0] === 'A' ? 300 : 200);
      expect(existsSync(`${journalPath(dir)}.restoring`)).toBe(false);
      // The old journal is never lost: it is either in use or kept beside it.
      const replaced = readdirSync(dir).filter((n) => n.startsWith('counterpay.db.replaced-') && n.endsWith('Z'));
      if (t[0] === 'B') expect(replaced.some((n) => tags(join(dir, n)).includes('A'))).toBe(true);
    } finally {
      folder.lock.release();
    }
  }

  it.each([1, 2, 3, 4, 5, 6])('run %i: the journal is whole and is either the old one or the backup', (run) =>
    killedRestore(run),
  );

  it('the runs saw both outcomes (a kill before the swap took hold, and after): more runs until they have, at most 20', async () => {
    for (let run = 1; run <= 20 && !(outcomes.includes('A') && outcomes.includes('B')); run++) await killedRestore(run);
    expect(new Set(outcomes)).toEqual(new Set(['A', 'B']));
  }, 120_000);

  it('each step a kill can stop at is finished or undone at the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-chaos-steps-'));
    const src = mkdtempSync(join(tmpdir(), 'counterpay-chaos-src-'));
    makeJournal(src, 5, 'B');
    const file = journalPath(dir);
    // 1. killed while copying: a partial staged file, no intent. The journal is untouched.
    makeJournal(dir, 7, 'A');
    copyFileSync(journalPath(src), `${file}.restoring`);
    expect(finishInterruptedRestore(dir, systemClock.now())).toBe('dropped');
    expect(tags(file)).toEqual(['A']);
    // 2. killed after the intent was written, before the old journal was moved: finished.
    copyFileSync(journalPath(src), `${file}.restoring`);
    writeFileSync(join(dir, 'restore-intent.json'), '{"from":"x","at":1}');
    expect(finishInterruptedRestore(dir, systemClock.now())).toBe('finished');
    expect(tags(file)).toEqual(['B']);
    // 3. killed after the old journal was moved aside, before the rename: finished.
    copyFileSync(journalPath(src), `${file}.restoring`);
    writeFileSync(join(dir, 'restore-intent.json'), '{"from":"x","at":2}');
    moveJournalAside(file, '.replaced-test');
    expect(finishInterruptedRestore(dir, systemClock.now())).toBe('finished');
    expect(tags(file)).toEqual(['B']);
    expect(existsSync(join(dir, 'restore-intent.json'))).toBe(false);
    // 4. killed while the intent itself was written: nothing had been touched, the swap is dropped.
    copyFileSync(journalPath(src), `${file}.restoring`);
    writeFileSync(join(dir, 'restore-intent.json'), '{"fro');
    expect(finishInterruptedRestore(dir, systemClock.now())).toBe('dropped');
    expect(tags(file)).toEqual(['B']);
  });
});
