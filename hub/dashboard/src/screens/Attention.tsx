// Needs attention: what a manager should act on now, each line saying what to do.
import { useBranchLabel } from '../branch-names';
import { AttentionViewSchema, type AttentionLine } from '../../../../shared/hub-dashboard-contract';
import { api } from '../api';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { agoText, lagosDayTime } from '../format';
import { branchQuery, useDash } from '../store';
import { useEvery, useLoad, useNow } from '../use-load';

const KIND: Record<AttentionLine['kind'], { label: string; tone: 'bad' | 'warn' | 'info' }> = {
  'payment-unknown': { label: 'Payment unknown', tone: 'bad' },
  'payment-open': { label: 'Payment still open', tone: 'warn' },
  'counter-offline': { label: 'Counter offline', tone: 'bad' },
  'counter-unsynced': { label: 'Counter not synced', tone: 'warn' },
  'clock-off': { label: 'Clock off', tone: 'warn' },
  'notification-undelivered': { label: 'Notification not delivered', tone: 'bad' },
  'shift-open-late': { label: 'Shift left open', tone: 'warn' },
  'paid-after-closing': { label: 'Paid after closing', tone: 'bad' },
  'reported-otherwise': { label: 'Reported otherwise', tone: 'bad' },
  'no-shift-sales': { label: 'Sold with no shift open', tone: 'warn' },
  'relay-off': { label: 'Notifications not passed on', tone: 'bad' },
  'order-claimed-twice': { label: 'Order claimed twice', tone: 'bad' },
  'order-named-in-two-branches': { label: 'Order named in two branches', tone: 'bad' },
  'claim-refused': { label: 'Claim refused', tone: 'bad' },
  'seat-sold-twice': { label: 'Seat sold twice', tone: 'bad' },
  'stock-below-zero': { label: 'Stock below zero', tone: 'warn' },
  'card-refund-owed': { label: 'Card refund owed', tone: 'warn' },
  'case-flagged': { label: 'Complaint open 48 h', tone: 'warn' },
  'case-overdue': { label: 'Complaint overdue (72 h)', tone: 'bad' },
};

export function AttentionScreen() {
  const label = useBranchLabel();
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const q = branchQuery({ session, route });
  const r = useLoad(`attention?${q}`, () => api.get('/attention', AttentionViewSchema, q));
  useEvery(30_000, r.reload);
  const now = useNow(30_000);
  const v = r.data;
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <button type="button" onClick={r.reload} disabled={r.loading}>
            {r.loading ? 'Checking…' : 'Check again'}
          </button>
        }
      >
        <span id="screen-title">Needs attention</span>
      </ScreenTitle>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {!v ? (
        r.error ? null : (
          <Loading what="what needs attention" />
        )
      ) : v.lines.length === 0 ? (
        <Banner tone="good" testId="attention-clear">
          Nothing needs attention: every payment is settled, every counter is in touch and on time.
        </Banner>
      ) : (
        <ul className="attention-list" data-testid="attention-list">
          {v.lines.map((l, i) => {
            const k = KIND[l.kind];
            return (
              <li
                key={`${l.kind}-${l.orderId ?? l.notificationId ?? l.shiftId ?? l.counterId ?? i}`}
                className="attention-item card"
                data-kind={l.kind}
                data-tone={k.tone}
              >
                <div className="attention-head">
                  <span className="pill" data-tone={k.tone}>
                    {k.label}
                  </span>
                  <span className="attention-where">
                    {l.branch === null ? (
                      'The whole Hub'
                    ) : (
                      <>
                        {l.counterName ?? (l.kind === 'stock-below-zero' ? 'All counters' : 'Hub')}
                        {session?.manager.role === 'head-office' ? ` · ${label(l.branch)}` : ''}
                      </>
                    )}
                  </span>
                  <span className="hint" title={lagosDayTime(l.since)}>
                    since {lagosDayTime(l.since)} ({agoText(l.since, now)})
                  </span>
                </div>
                <p className="attention-subject">{l.subject}</p>
                <p className="attention-todo">
                  <strong>What to do:</strong> {l.todo}
                </p>
                {l.orderId ? <Link to={`/dashboard/orders/${l.orderId}`}>Open the order's history</Link> : null}
                {l.shiftId ? <Link to="/dashboard/shifts">Open Shifts</Link> : null}
                {l.kind === 'no-shift-sales' && l.counterId ? (
                  <Link to={`/dashboard/orders?counterId=${encodeURIComponent(l.counterId)}&state=paid`}>
                    Open this counter's paid orders
                  </Link>
                ) : null}
                {l.kind === 'relay-off' ? <Link to="/dashboard/counters">Open Counters</Link> : null}
              </li>
            );
          })}
        </ul>
      )}
      {v ? (
        <p className="hint">
          Checked at {lagosDayTime(v.at)}; again every 30 seconds. Closing time for open shifts: {v.closingTime}.
        </p>
      ) : null}
    </section>
  );
}
