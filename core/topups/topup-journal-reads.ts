// The top-up journal's reads for other modules (a shift's totals, the items still without an
// outcome), so that nothing outside topups/ writes SQL against the journal's tables.
import type { RecordScope } from '../../shared/record-profile';
import type { LedgerTopup } from '../../shared/ledger';
import { OPEN_TOPUP_STATES, type TopupState } from '../../shared/topups';
import type { Db } from '../db';
import { sqlList } from '../lib';

interface OpenTopup {
  id: number;
  reference: string;
  state: TopupState;
  amountKobo: number;
  createdAt: number;
}

const realOnly = (scope: RecordScope): string => (scope.excludeDemo ? " AND profile <> 'demo'" : '');

export class TopupJournalReads {
  constructor(private readonly db: Db) {}

  /** Items created in [from, to) for the ledger (shared/ledger.ts), every profile. */
  ledgerTopups(from: number, to: number): LedgerTopup[] {
    return (
      this.db
        .prepare(
          'SELECT reference AS ref, created_at AS createdAt, state, amount_kobo AS amountKobo, profile FROM topups WHERE created_at >= ? AND created_at < ?',
        )
        .all(from, to) as (Omit<LedgerTopup, 'demo'> & { profile: string })[]
    ).map(({ profile, ...r }) => ({ ...r, demo: profile === 'demo' }));
  }

  /** Items created before `to` still waiting for an outcome, oldest first. */
  openItems(to: number, limit: number, scope: RecordScope): OpenTopup[] {
    return this.db
      .prepare(
        `SELECT id, reference, state, amount_kobo AS amountKobo, created_at AS createdAt FROM topups
         WHERE state IN (${sqlList(OPEN_TOPUP_STATES)}) AND created_at < ?${realOnly(scope)} ORDER BY created_at LIMIT ?`,
      )
      .all(to, limit) as OpenTopup[];
  }
}
