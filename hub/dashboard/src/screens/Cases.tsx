// Cases (docs/hub.md "Complaint cases"): the complaint desk's cases ("I was debited") still open, by
// age per branch — open 48 h flagged, 72 h overdue (the Central Bank's 72 hours; caseAge in
// shared/cases.ts, decided by the Hub) — and the latest resolved, with who resolved them and how.
import { CASE_RESOLUTION_LABELS, CASE_TRUTH_LABELS } from '../../../../shared/cases';
import { CasesViewSchema, type CaseRow } from '../../../../shared/hub-refunds-contract';
import { useBranchLabel } from '../branch-names';
import { api } from '../api';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { ageText, formatCount, formatNaira, lagosDayTime } from '../format';
import { branchQuery, useDash } from '../store';
import { useEvery, useLoad, useNow } from '../use-load';

const AGE_WORD: Record<CaseRow['age'], string> = { fresh: 'open', flagged: 'open 48 h', overdue: 'overdue (72 h)' };

function CaseTable({ rows, now, headOffice }: { rows: CaseRow[]; now: number; headOffice: boolean }) {
  const label = useBranchLabel();
  return (
    <div className="table-wrap">
      <table className="orders stacked">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Counter</th>
            <th scope="col">Opened</th>
            <th scope="col">What the customer said</th>
            <th scope="col">The provider's truth</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={`${c.counterId}-${c.caseNo}`} data-testid={`case-${c.caseNo}`} data-age={c.age}>
              <td data-label="Case">
                {c.caseNo}
                {headOffice ? <span className="hint"> · {label(c.branch)}</span> : null}
              </td>
              <td data-label="Counter">{c.counterName}</td>
              <td data-label="Opened">
                {lagosDayTime(c.openedAt)} by {c.openedBy}
              </td>
              <td className="wrap" data-label="The customer said">
                {c.amountKobo !== null ? formatNaira(c.amountKobo) : ''}
                {c.last4 ? ` · card ending ${c.last4}` : ''}
                {c.reference ? ` · sale ${c.reference}` : ''}
              </td>
              <td className="wrap" data-label="The provider's truth">
                {c.truth ? CASE_TRUTH_LABELS[c.truth] : '—'}
              </td>
              <td data-label="State">
                {c.resolution ? (
                  <>
                    {CASE_RESOLUTION_LABELS[c.resolution]} by {c.resolvedBy} ·{' '}
                    {c.resolvedAt !== null ? lagosDayTime(c.resolvedAt) : ''}
                  </>
                ) : (
                  <span className="age-pill" data-age={c.age}>
                    {AGE_WORD[c.age]} · for {ageText(c.openedAt, now)}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CasesScreen() {
  const label = useBranchLabel();
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const q = branchQuery({ session, route });
  const r = useLoad(`cases?${q}`, () => api.get('/cases', CasesViewSchema, q));
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
        <span id="screen-title">Complaint cases</span>
      </ScreenTitle>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {!v ? (
        r.error ? null : (
          <Loading what="the complaint cases" />
        )
      ) : (
        <>
          {v.openByBranch.length ? (
            <div className="tiles after-sale-tiles" data-testid="cases-by-branch">
              {v.openByBranch.map((b) => (
                <div
                  className="tile"
                  key={b.branch}
                  data-tone={b.overdue ? 'bad' : b.flagged ? 'warn' : undefined}
                  data-testid={`cases-open-${b.branch}`}
                >
                  <span className="tile-label">Open{headOffice ? ` · ${label(b.branch)}` : ''}</span>
                  <span className="tile-value">{formatCount(b.open)}</span>
                  <span className="tile-sub">
                    {formatCount(b.flagged)} past 48 h · {formatCount(b.overdue)} overdue · the oldest for{' '}
                    {ageText(b.oldestAt, now)}
                  </span>
                </div>
              ))}
            </div>
          ) : null}
          <section className="card" aria-labelledby="open-title">
            <h2 id="open-title">Open, oldest first</h2>
            {v.open.length === 0 ? (
              <Banner tone="good" testId="cases-none-open">
                No complaint case is open.
              </Banner>
            ) : (
              <>
                <p className="hint">
                  A disputed debit must be resolved within 72 hours: a case open 48 h is flagged, 72 h overdue (both on{' '}
                  <Link to="/dashboard/attention">Needs attention</Link>). It is resolved on the counter's complaint
                  desk.
                </p>
                <CaseTable rows={v.open} now={now} headOffice={headOffice} />
              </>
            )}
          </section>
          <section className="card" aria-labelledby="resolved-title">
            <h2 id="resolved-title">Resolved</h2>
            {v.resolved.length === 0 ? (
              <p className="hint">None yet.</p>
            ) : (
              <CaseTable rows={v.resolved} now={now} headOffice={headOffice} />
            )}
          </section>
          <p className="hint">Checked at {lagosDayTime(v.at)}.</p>
        </>
      )}
    </section>
  );
}
