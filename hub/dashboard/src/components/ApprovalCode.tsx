// A manager's one-time approval code for a cashier's cancel or exchange (docs/hub.md "Approval
// codes"): issued for the branch in view, shown once in large type with when it lapses (15 minutes);
// the cashier types it on the counter, which redeems it once. Only its hash is kept on the Hub.
import { useState } from 'react';
import {
  APPROVAL_CODES_PATH,
  IssuedApprovalCodeSchema,
  type IssuedApprovalCode,
} from '../../../../shared/hub-refunds-contract';
import { DASHBOARD_PREFIX } from '../../../../shared/hub-dashboard-contract';
import { api, errorText } from '../api';
import { Banner } from './bits';
import { lagosTime } from '../format';
import { currentBranch, useDash } from '../store';
import { useBranchLabel } from '../branch-names';

export function ApprovalCodePanel() {
  const branch = useDash((s) => currentBranch(s));
  const label = useBranchLabel();
  const [code, setCode] = useState<IssuedApprovalCode | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const issue = async () => {
    setBusy(true);
    setError(null);
    try {
      setCode(await api.post(APPROVAL_CODES_PATH.slice(DASHBOARD_PREFIX.length), IssuedApprovalCodeSchema, { branch }));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card approval-code" aria-labelledby="approval-title" data-testid="approval-code-panel">
      <h2 id="approval-title">Approval code</h2>
      {branch === null ? (
        <p className="hint">Choose a branch at the top to give its cashier an approval code.</p>
      ) : (
        <>
          <p className="hint">
            A cashier's cancel or exchange at {label(branch)} needs a supervisor's approval: give them this code instead
            of the admin PIN. It works once, at this branch, for 15 minutes.
          </p>
          <p className="actions">
            <button type="button" onClick={() => void issue()} disabled={busy} data-testid="approval-code-issue">
              {busy ? 'Issuing…' : code ? 'Issue another code' : 'Issue an approval code'}
            </button>
          </p>
        </>
      )}
      {error ? <Banner tone="bad">{error}</Banner> : null}
      {code ? (
        <div role="status">
          <p className="approval-code-value" data-testid="approval-code-value">
            {code.code}
          </p>
          <p className="hint">
            For {label(code.branch)}, valid until {lagosTime(code.expiresAt)} (15 minutes). Shown only now: read it to
            the cashier; it cannot be shown again.
          </p>
        </div>
      ) : null}
    </section>
  );
}
