// The rotation rule: the newest few always, then one per Lagos day for 7 days, one per week for 4.
import { describe, expect, it } from 'vitest';
import { backupsToDrop } from '../../../core/backup/rotation';
import { parseBackupName } from '../../../core/backup/backup-service';
import { stampOf } from '../../../core/data-folder/journal-file';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Wednesday 2026-11-25 12:00 Lagos (11:00 UTC)
const NOW = Date.parse('2026-11-25T11:00:00Z');
const b = (at: number) => ({ name: `b-${at}`, at });

describe('backup rotation', () => {
  it('keeps everything while there are few backups', () => {
    expect(backupsToDrop([b(NOW), b(NOW - HOUR), b(NOW - DAY)])).toEqual([]);
  });

  it('keeps one a day for 7 days and one a week for 4 weeks, the newest of each', () => {
    // Six backups a day (every 4 hours) for 60 days.
    const all = Array.from({ length: 60 * 6 }, (_, i) => b(NOW - i * 4 * HOUR));
    const dropped = new Set(backupsToDrop(all).map((x) => x.name));
    const kept = all.filter((x) => !dropped.has(x.name));
    // 3 newest (same day) + 6 more days + weeks beyond those days.
    expect(kept.slice(0, 3).map((x) => x.at)).toEqual([NOW, NOW - 4 * HOUR, NOW - 8 * HOUR]);
    const days = new Set(kept.map((x) => new Date(x.at + HOUR).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(7);
    expect(kept.length).toBeLessThanOrEqual(3 + 7 + 4);
    // Nothing older than 4 weeks (+ the partial current week) survives.
    expect(Math.min(...kept.map((x) => x.at))).toBeGreaterThan(NOW - 5 * 7 * DAY);
    // The newest of each kept day is the one kept.
    expect(kept.some((x) => x.at === NOW - 16 * HOUR)).toBe(true); // Tuesday 20:00 Lagos, not Tuesday 12:00
    expect(kept.some((x) => x.at === NOW - DAY)).toBe(false);
  });

  it('never drops the only backup, however old', () => {
    expect(backupsToDrop([b(NOW - 400 * DAY)])).toEqual([]);
  });
});

describe('backup names', () => {
  it('carry their time and reason, and nothing else is taken for a backup', () => {
    const at = Date.parse('2026-11-25T11:00:00.123Z');
    expect(parseBackupName(`counterpay-${stampOf(at)}-shift-close.db`)).toEqual({ at, reason: 'shift-close' });
    expect(parseBackupName(`counterpay-${stampOf(at)}-manual.db.partial`)).toBeNull();
    expect(parseBackupName('counterpay.db')).toBeNull();
  });
});
