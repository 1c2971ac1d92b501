// Top-ups in a shift's totals, read through the top-up journal's read methods: lines by status in
// the report's order, in the top-ups' own words, and the items still without an outcome.
import type { OpenItem, TopupLine } from '../../../shared/records';
import type { RecordScope } from '../../../shared/record-profile';
import { TOPUP_STATE_LABELS, type TopupState } from '../../../shared/topups';
import type { TopupJournalReads } from '../../topups';

export interface TopupTotalsSource {
  totals(from: number, to: number, scope?: RecordScope): { available: boolean; lines: TopupLine[]; successKobo: number };
  /** Top-ups still waiting for an outcome, created before `to`. */
  open(to: number, scope?: RecordScope): OpenItem[];
}

const MAX_OPEN_ITEMS = 200;
/** The report's order: outcomes first, then what is still under way. */
const REPORT_ORDER: readonly TopupState[] = ['success', 'fail', 'not_sent', 'cancelled', 'pending', 'unknown', 'queued', 'sending'];
const ALL: RecordScope = { excludeDemo: false };

function rank(s: TopupState): number {
  const i = REPORT_ORDER.indexOf(s);
  return i < 0 ? REPORT_ORDER.length : i;
}

export function topupTotals(reads: TopupJournalReads): TopupTotalsSource {
  return {
    totals(from, to, scope = ALL) {
      const rows = reads.totalsByState(from, to, scope);
      const lines = rows
        .sort((a, b) => rank(a.state) - rank(b.state) || a.state.localeCompare(b.state))
        .map((r) => ({ state: r.state, label: TOPUP_STATE_LABELS[r.state] ?? r.state, count: r.count, amountKobo: r.amountKobo }));
      return { available: true, lines, successKobo: rows.find((r) => r.state === 'success')?.amountKobo ?? 0 };
    },
    open(to, scope = ALL) {
      return reads.openItems(to, MAX_OPEN_ITEMS, scope).map((r) => ({
        kind: 'topup' as const, id: r.id, ref: r.reference, state: r.state, label: TOPUP_STATE_LABELS[r.state] ?? r.state, amountKobo: r.amountKobo, createdAt: r.createdAt,
      }));
    },
  };
}
