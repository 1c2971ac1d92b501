// The top-up journal's reads for other modules (a shift's totals, the items still without an
// outcome), so that nothing outside topups/ writes SQL against the journal's tables.
import type { RecordScope } from '../../shared/record-profile';
import { OPEN_TOPUP_STATES, type TopupState } from '../../shared/topups';
import type { Db } from '../db';
import { sqlList } from '../lib';

export interface TopupStateTotals {
  state: TopupState;
  count: number;
  amountKobo: number;
}

export interface OpenTopup {
  id: number;
  reference: string;
  state: TopupState;
  amountKobo: number;
  createdAt: number;
}

const realOnly = (scope: RecordScope): string => (scope.excludeDemo ? " AND profile <> 'demo'" : '');

export class TopupJournalReads {
  constructor(private readonly db: Db) {}

  /** Items created in [from, to) and meant to be sent (drafts left out), by state. */
  totalsByState(from: number, to: number, scope: RecordScope): TopupStateTotals[] {
    return this.db
      .prepare(
        `SELECT state, COUNT(*) AS count, COALESCE(SUM(amount_kobo), 0) AS amountKobo FROM topups
         WHERE created_at >= ? AND created_at < ? AND state <> 'draft'${realOnly(scope)} GROUP BY state`,
      )
      .all(from, to) as TopupStateTotals[];
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
