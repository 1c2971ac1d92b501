// Today's figures of what came after the sale (docs/hub.md "Refunds", "Complaint cases"): card
// refunds owed now, refunds paid on the day by tender, complaint cases open now with those past
// 48 h and 72 h. The Hub computed every figure; this only shows them.
import type { AfterSaleFigures } from '../../../../shared/hub-refunds-contract';
import { Link } from './bits';
import { formatCount, formatNaira } from '../format';

export function AfterSaleTiles({ f }: { f: AfterSaleFigures }) {
  return (
    <div className="tiles after-sale-tiles" data-testid="today-after-sale">
      <div className="tile" data-tone={f.owedCount ? 'warn' : undefined} data-testid="tile-refunds-owed">
        <span className="tile-label">Card refunds owed</span>
        <span className="tile-value">{formatNaira(f.owedKobo)}</span>
        <span className="tile-sub">
          {formatCount(f.owedCount)} not yet returned · <Link to="/dashboard/refunds">Refunds</Link>
        </span>
      </div>
      <div className="tile" data-testid="tile-refunds-paid">
        <span className="tile-label">Refunds paid</span>
        <span className="tile-value">{formatNaira(f.paidCashKobo)} cash</span>
        <span className="tile-sub">
          {formatCount(f.paidCashCount)} from the drawers · {formatNaira(f.paidCardKobo)} card (
          {formatCount(f.paidCardCount)} returned)
        </span>
      </div>
      <div
        className="tile"
        data-tone={f.overdueCases ? 'bad' : f.flaggedCases ? 'warn' : undefined}
        data-testid="tile-cases"
      >
        <span className="tile-label">Complaint cases open</span>
        <span className="tile-value">{formatCount(f.openCases)}</span>
        <span className="tile-sub">
          {formatCount(f.flaggedCases)} past 48 h · {formatCount(f.overdueCases)} overdue (72 h) ·{' '}
          <Link to="/dashboard/cases">Cases</Link>
        </span>
      </div>
    </div>
  );
}
