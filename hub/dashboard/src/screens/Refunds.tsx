// Refunds (docs/hub.md "Refunds"): card refunds owed, by branch with the oldest's age and one by one
// (until the counter records how the money went back), the refunds returned with how, the
// reference and who, and the refunds paid by tender. Every sum is the Hub's; this only shows them.
import { RETURN_HOW_LABELS, UNDO_REASON_LABELS, type ReturnHow, type UndoReason } from '../../../../shared/refunds';
import { RefundsViewSchema, type RefundRow } from '../../../../shared/hub-refunds-contract';
import { useBranchLabel } from '../branch-names';
import { api } from '../api';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { ageText, formatCount, formatNaira, lagosDayTime } from '../format';
import { branchQuery, useDash } from '../store';
import { useEvery, useLoad, useNow } from '../use-load';

const reasonText = (r: string) => UNDO_REASON_LABELS[r as UndoReason] ?? r;
const howText = (h: string) => RETURN_HOW_LABELS[h as ReturnHow] ?? h;

function RefundLine({ r, now, headOffice }: { r: RefundRow; now: number; headOffice: boolean }) {
  const label = useBranchLabel();
  return (
    <tr data-testid={`refund-${r.refundNo}`}>
      <td data-label="Refund">
        {r.refundNo}
        {headOffice ? <span className="hint"> · {label(r.branch)}</span> : null}
      </td>
      <td data-label="Sale">
        {r.orderId ? <Link to={`/dashboard/orders/${r.orderId}`}>{r.reference}</Link> : r.reference}
      </td>
      <td data-label="Counter">{r.counterName}</td>
      <td data-label="Tender">{r.tender === 'card' ? 'Card' : 'Cash'}</td>
      <td className="num" data-label="Amount">
        {formatNaira(r.amountKobo)}
      </td>
      <td className="wrap" data-label="What and why">
        {r.kind === 'exchange' ? 'Exchange' : 'Cancel'}
        {r.seats.length ? ` · seats ${r.seats.join(' ')}` : ''} · {reasonText(r.reason)}
        {r.note ? ` (${r.note})` : ''} · approved by {r.approvedBy}
        {r.approvedHow === 'code' ? ' (approval code)' : ''}
      </td>
      <td title={lagosDayTime(r.at)} data-label="Made">
        {lagosDayTime(r.at)}
      </td>
      {r.returned ? (
        <td className="wrap" data-label="Returned">
          {howText(r.returned.how)}
          {r.returned.reference ? ` · ${r.returned.reference}` : ''}
          {r.returned.by ? ` · by ${r.returned.by}` : ''} · {lagosDayTime(r.returned.at)}
        </td>
      ) : (
        <td data-testid="refund-age" data-label="Owed">
          owed for {ageText(r.at, now)}
        </td>
      )}
    </tr>
  );
}

function RefundTable({
  rows,
  now,
  headOffice,
  last,
}: {
  rows: RefundRow[];
  now: number;
  headOffice: boolean;
  last: string;
}) {
  return (
    <div className="table-wrap">
      <table className="orders stacked">
        <thead>
          <tr>
            <th scope="col">Refund</th>
            <th scope="col">Sale</th>
            <th scope="col">Counter</th>
            <th scope="col">Tender</th>
            <th scope="col">Amount</th>
            <th scope="col">What and why</th>
            <th scope="col">Made</th>
            <th scope="col">{last}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <RefundLine key={`${r.counterId}-${r.refundNo}`} r={r} now={now} headOffice={headOffice} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function RefundsScreen() {
  const label = useBranchLabel();
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const q = branchQuery({ session, route });
  const r = useLoad(`refunds?${q}`, () => api.get('/refunds', RefundsViewSchema, q));
  useEvery(60_000, r.reload);
  const now = useNow(30_000);
  const v = r.data;
  const headOffice = session?.manager.role === 'head-office';
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <button type="button" onClick={r.reload} disabled={r.loading}>
            {r.loading ? 'Checking…' : 'Check again'}
          </button>
        }
      >
        <span id="screen-title">Refunds</span>
      </ScreenTitle>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {!v ? (
        r.error ? null : (
          <Loading what="the refunds" />
        )
      ) : (
        <>
          <div className="tiles after-sale-tiles" data-testid="refunds-paid">
            <div className="tile">
              <span className="tile-label">Paid in cash</span>
              <span className="tile-value">{formatNaira(v.paidByTender.cash.amountKobo)}</span>
              <span className="tile-sub">{formatCount(v.paidByTender.cash.count)} from the drawers</span>
            </div>
            <div className="tile">
              <span className="tile-label">Returned to cards</span>
              <span className="tile-value">{formatNaira(v.paidByTender.card.amountKobo)}</span>
              <span className="tile-sub">{formatCount(v.paidByTender.card.count)} recorded returned</span>
            </div>
            {v.owedByBranch.map((b) => (
              <div className="tile" data-tone="warn" key={b.branch} data-testid={`refunds-owed-${b.branch}`}>
                <span className="tile-label">Card refunds owed{headOffice ? ` · ${label(b.branch)}` : ''}</span>
                <span className="tile-value">{formatNaira(b.amountKobo)}</span>
                <span className="tile-sub">
                  {formatCount(b.count)} owed · the oldest owed for {ageText(b.oldestAt, now)}
                </span>
              </div>
            ))}
          </div>
          <section className="card" aria-labelledby="owed-title">
            <h2 id="owed-title">Owed to card customers</h2>
            {v.owed.length === 0 ? (
              <Banner tone="good" testId="refunds-none-owed">
                No card refund is owed: every one was recorded returned.
              </Banner>
            ) : (
              <>
                <p className="hint">
                  The provider has no refund call: return the money (a reversal in the provider's dashboard, or a bank
                  transfer), then the cashier records how, the reference and who on the counter. Each stays on Needs
                  attention until then.
                </p>
                <RefundTable rows={v.owed} now={now} headOffice={headOffice} last="Age" />
              </>
            )}
          </section>
          <section className="card" aria-labelledby="returned-title">
            <h2 id="returned-title">Returned</h2>
            {v.returned.length === 0 ? (
              <p className="hint">None yet.</p>
            ) : (
              <RefundTable rows={v.returned} now={now} headOffice={headOffice} last="Returned" />
            )}
          </section>
          <p className="hint">
            Checked at {lagosDayTime(v.at)}. Demo and Sandbox refunds are not shown. Cash refunds are paid out of the
            drawer when made.
          </p>
        </>
      )}
    </section>
  );
}
