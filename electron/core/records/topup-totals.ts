// Top-ups in a shift's totals, read from the top-ups journal when it exists. The top-ups module may
// not be installed (or not migrated yet): then there are none, and the report says so.
import type { OpenItem, TopupLine } from '../../../shared/records';
import type { Db } from '../db/database';

/** A real shift leaves Demo top-ups (play money) out. */
export interface TopupScope {
  excludeDemo: boolean;
}

export interface TopupTotalsSource {
  totals(from: number, to: number, scope?: TopupScope): { available: boolean; lines: TopupLine[]; successKobo: number };
  /** Top-ups still waiting for an outcome, created before `to`. */
  open(to: number, scope?: TopupScope): OpenItem[];
}

const NEEDED = ['id', 'reference', 'state', 'amount_kobo', 'created_at'];
const OPEN_STATES = ['queued', 'sending', 'unknown', 'pending'];
/** Report order and words; a state this list does not know is still counted, under its own name. */
const LABELS: [string, string][] = [
  ['success', 'Successful'],
  ['fail', 'Failed'],
  ['not_sent', 'Not sent'],
  ['cancelled', 'Cancelled'],
  ['pending', 'In progress'],
  ['unknown', 'Checking with the provider'],
  ['queued', 'Waiting to send'],
  ['sending', 'Sending'],
];

export function topupLabel(state: string): string {
  return LABELS.find(([s]) => s === state)?.[1] ?? state;
}

export function sqliteTopupTotals(db: Db): TopupTotalsSource {
  const columns = (): Set<string> => new Set((db.prepare('PRAGMA table_info(topups)').all() as { name: string }[]).map((c) => c.name));
  const ready = (): boolean => {
    const t = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'topups'").get();
    if (!t) return false;
    const cols = columns();
    return NEEDED.every((c) => cols.has(c));
  };
  // A journal without profiles has no Demo items to leave out.
  const realOnly = (scope: TopupScope | undefined): string => (scope?.excludeDemo && columns().has('profile') ? " AND profile <> 'demo'" : '');
  return {
    totals(from, to, scope) {
      if (!ready()) return { available: false, lines: [], successKobo: 0 };
      const real = realOnly(scope);
      const rows = db
        .prepare(`SELECT state, COUNT(*) AS n, COALESCE(SUM(amount_kobo), 0) AS kobo FROM topups WHERE created_at >= ? AND created_at < ? AND state <> 'draft'${real} GROUP BY state`)
        .all(from, to) as { state: string; n: number; kobo: number }[];
      const rank = (s: string) => {
        const i = LABELS.findIndex(([x]) => x === s);
        return i < 0 ? LABELS.length : i;
      };
      const lines = rows
        .sort((a, b) => rank(a.state) - rank(b.state) || a.state.localeCompare(b.state))
        .map((r) => ({ state: r.state, label: topupLabel(r.state), count: r.n, amountKobo: r.kobo }));
      return { available: true, lines, successKobo: rows.find((r) => r.state === 'success')?.kobo ?? 0 };
    },
    open(to, scope) {
      if (!ready()) return [];
      const marks = OPEN_STATES.map(() => '?').join(',');
      const real = realOnly(scope);
      const rows = db
        .prepare(`SELECT id, reference, state, amount_kobo, created_at FROM topups WHERE state IN (${marks}) AND created_at < ?${real} ORDER BY created_at LIMIT 200`)
        .all(...OPEN_STATES, to) as { id: number; reference: string; state: string; amount_kobo: number; created_at: number }[];
      return rows.map((r) => ({ kind: 'topup' as const, id: r.id, ref: r.reference, state: r.state, label: topupLabel(r.state), amountKobo: r.amount_kobo, createdAt: r.created_at }));
    },
  };
}
