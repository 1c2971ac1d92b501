// Which backups to keep: the newest few always, then the newest of each of the last 7 Lagos days
// and the newest of each of the last 4 weeks. Pure, so the rule is tested without files.
import { addDays, lagosDate } from '../../shared/time';

export interface Rotation {
  always: number;
  daily: number;
  weekly: number;
}
export const DEFAULT_ROTATION: Rotation = { always: 3, daily: 7, weekly: 4 };

/** Monday of the instant's Lagos week, as yyyy-MM-dd (a week key). */
function lagosWeek(ms: number): string {
  const day = lagosDate(ms);
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** Names to delete, given every backup in one folder. */
export function backupsToDrop<T extends { name: string; at: number }>(
  all: T[],
  rule: Rotation = DEFAULT_ROTATION,
): T[] {
  const newest = [...all].sort((a, b) => b.at - a.at);
  const keep = new Set<string>(newest.slice(0, rule.always).map((b) => b.name));
  const pick = (key: (ms: number) => string, count: number) => {
    const seen = new Set<string>();
    for (const b of newest) {
      const k = key(b.at);
      if (seen.has(k)) continue;
      if (seen.size >= count) break;
      seen.add(k);
      keep.add(b.name);
    }
  };
  pick(lagosDate, rule.daily);
  pick(lagosWeek, rule.weekly);
  return newest.filter((b) => !keep.has(b.name));
}
