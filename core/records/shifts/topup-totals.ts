// Top-ups in a shift's totals, read through the top-up journal's read methods: the facts the ledger
// (shared/ledger.ts) counts, and the items still without an outcome.
import type { LedgerTopup } from '../../../shared/ledger';
import type { OpenItem } from '../../../shared/records';
import type { RecordScope } from '../../../shared/record-profile';
import { TOPUP_STATE_LABELS } from '../../../shared/topups';
import type { TopupJournalReads } from '../../topups';

export interface TopupTotalsSource {
  /** False on a counter with no top-ups at all. */
  available: boolean;
  /** Top-ups created in [from, to), every profile (the ledger scopes them). */
  facts(from: number, to: number): LedgerTopup[];
  /** Top-ups still waiting for an outcome, created before `to`. */
  open(to: number, scope?: RecordScope): OpenItem[];
}

const MAX_OPEN_ITEMS = 200;
const ALL: RecordScope = { excludeDemo: false };

export function topupTotals(reads: TopupJournalReads): TopupTotalsSource {
  return {
    available: true,
    facts: (from, to) => reads.ledgerTopups(from, to),
    open(to, scope = ALL) {
      return reads.openItems(to, MAX_OPEN_ITEMS, scope).map((r) => ({
        kind: 'topup' as const,
        id: r.id,
        ref: r.reference,
        state: r.state,
        label: TOPUP_STATE_LABELS[r.state] ?? r.state,
        amountKobo: r.amountKobo,
        createdAt: r.createdAt,
      }));
    },
  };
}
