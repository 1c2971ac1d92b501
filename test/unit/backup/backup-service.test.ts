// The backup service with its clock and timers passed in: the schedule, the rotation over days,
// and a second folder that is unplugged. Real SQLite files in a temp folder.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackupService } from '../../../core/backup/backup-service';
import type { Timers } from '../../../core/lib';
import { openJournalChecked } from '../../../core/data-folder/journal-file';
import { SCHEMA } from '../../../core/schema';
import { memoryLogger } from '../../../shared/logger';
import type { Db } from '../../../core/db/database';

const DAY = 86_400_000;
const dbs: Db[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});

function setUp(second: () => string | null = () => null) {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-backup-unit-'));
  const { db } = openJournalChecked(dir, 0, SCHEMA);
  dbs.push(db);
  db.exec("CREATE TABLE probe_rows (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO probe_rows (note) VALUES ('a')");
  let t = Date.parse('2026-11-02T09:00:00Z');
  const tick: { fn: (() => void) | null; ms: number; armed: number; cleared: boolean } = {
    fn: null,
    ms: 0,
    armed: 0,
    cleared: false,
  };
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      tick.fn = fn;
      tick.ms = ms;
      return ++tick.armed;
    },
    clearTimeout: (h) => void (tick.cleared = h === tick.armed),
  };
  const logger = memoryLogger();
  const service = createBackupService({
    db,
    dataDir: dir,
    clock: { now: () => t },
    logger,
    timers,
    secondFolder: second,
  });
  return { dir, service, tick, logger, advance: (ms: number) => (t += ms) };
}

describe('backup service', () => {
  it('backs up every 4 hours by its timer, and stops cleanly', async () => {
    const { service, tick } = setUp();
    service.start();
    expect(tick.ms).toBe(4 * 3_600_000);
    tick.fn!();
    // The next one is due 4 hours after: the timer is armed again, and stop clears that one.
    expect(tick.armed).toBe(2);
    expect(tick.ms).toBe(4 * 3_600_000);
    await service.stop();
    expect(tick.cleared).toBe(true);
    expect(service.view().backups.map((b) => b.reason)).toEqual(['scheduled']);
  });

  it('keeps a bounded set over five weeks of backups', async () => {
    const { service, advance, dir } = setUp();
    for (let day = 0; day < 35; day++) {
      await service.backupNow(day % 7 === 6 ? 'shift-close' : 'scheduled');
      advance(DAY);
    }
    const kept = service.view().backups;
    expect(kept.length).toBeLessThanOrEqual(3 + 7 + 4);
    expect(kept.length).toBeGreaterThanOrEqual(7 + 3);
    expect(readdirSync(join(dir, 'backups')).filter((n) => !n.endsWith('.db'))).toEqual([]);
  }, 30_000); // 35 real backups on a busy machine

  it('an unplugged second folder: the backup is kept in the data folder and the problem is shown', async () => {
    const { service, logger } = setUp(() => '/nonexistent/usb-disk');
    const b = await service.backupNow('manual');
    expect(b.place).toBe('main');
    const view = service.view();
    expect(view.backups).toHaveLength(1);
    expect(view.lastError?.message).toMatch(/not copied to \/nonexistent\/usb-disk: the folder is not there/);
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(true);
  });
});
