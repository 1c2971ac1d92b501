// One order's page on the Orders screen: its facts and its history as the counter recorded it.
import { OrderAmountFacts } from '../components/SalesMix';
import { OrderDetailSchema } from '../../../../shared/hub-dashboard-contract';
import { api } from '../api';
import { Banner, Link, Loading, ScreenTitle, StatePill } from '../components/bits';
import { LatePill, lateText } from '../components/LatePill';
import { lagosDayTime, lagosDayTimeSeconds, lagosTimeSeconds, showDayTime } from '../format';
import { useBranchLabel } from '../branch-names';
import { useLoad } from '../use-load';

export function OrderHistory({ id }: { id: string }) {
  const r = useLoad(`order/${id}`, () => api.get(`/orders/${encodeURIComponent(id)}`, OrderDetailSchema));
  const d = r.data;
  const label = useBranchLabel();
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <Link to="/dashboard/orders" className="button">
            ‹ Back to the search
          </Link>
        }
      >
        <span id="screen-title">Sale {d ? d.order.reference : ''}</span>
      </ScreenTitle>
      {r.error ? (
        <Banner tone="bad" testId="order-error">
          {r.error}
        </Banner>
      ) : null}
      {!d ? (
        r.error ? null : (
          <Loading what="the order" />
        )
      ) : (
        <>
          <div className="card order-facts" data-testid="order-facts">
            <StatePill state={d.order.state} practice={d.order.practice} profile={d.order.profile} />
            <LatePill o={d.order} />
            {d.order.late ? (
              <p className="late-detail" data-testid="order-late-detail">
                {lateText(d.order.late, d.order.amountKobo).detail}
              </p>
            ) : null}
            <dl>
              <OrderAmountFacts o={d.order} />
              <div>
                <dt>Counter</dt>
                <dd>
                  {d.order.counterName} ({label(d.order.branch)})
                </dd>
              </div>
              <div>
                <dt>Cashier</dt>
                <dd>{d.order.cashier ?? '—'}</dd>
              </div>
              <div>
                <dt>Sale number</dt>
                <dd>{d.order.reference}</dd>
              </div>
              <div>
                <dt>Provider order number</dt>
                <dd>{d.order.orderNo ?? '—'}</dd>
              </div>
              {/* A payment taken after closing has its own payment number (the closed order has none). */}
              <div>
                <dt>Payment number</dt>
                <dd data-testid="order-payno">
                  {d.order.payNo ?? d.order.late?.payNo ?? '—'}
                  {!d.order.payNo && d.order.late?.payNo ? ' (paid after closing)' : ''}
                </dd>
              </div>
              <div>
                <dt>Film</dt>
                <dd>{d.order.filmTitle ?? d.order.filmName ?? '—'}</dd>
              </div>
              <div>
                <dt>Show</dt>
                <dd>{showDayTime(d.order.showDate, d.order.showTime)}</dd>
              </div>
              <div>
                <dt>Seats</dt>
                <dd>
                  {d.order.seats ?? '—'}
                  {d.order.tickets ? ` (${d.order.tickets} tickets)` : ''}
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{lagosDayTime(d.order.createdAt)}</dd>
              </div>
            </dl>
          </div>
          <section className="card" aria-labelledby="history-title">
            <h2 id="history-title">History as the counter recorded it</h2>
            <div className="table-wrap">
              <table className="history" data-testid="order-history">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">At (counter clock)</th>
                    <th scope="col">What</th>
                    <th scope="col">State</th>
                    <th scope="col">Numbers</th>
                    <th scope="col">Reached the Hub</th>
                  </tr>
                </thead>
                <tbody>
                  {d.history.map((h) => (
                    <tr key={h.seq}>
                      <td className="h-seq" data-label="#">
                        {h.seq}
                      </td>
                      <td className="h-at" data-label="At (counter clock)">
                        {lagosDayTimeSeconds(h.at)}
                      </td>
                      <td className="h-what" data-label="What">
                        {h.kind === 'order.created'
                          ? 'Sale started'
                          : h.kind === 'order.status'
                            ? 'State changed'
                            : h.kind}
                        {h.note ? ` — ${h.note}` : ''}
                      </td>
                      {/* The sale's first record carries no state from the counter (the Hub stored "queued"): showing it would
                          say "Waiting for the network" where the counter said "Sending to the terminal". */}
                      <td className="h-state" data-label="State">
                        {h.status && h.kind !== 'order.created' ? <StatePill state={h.status} /> : '—'}
                      </td>
                      <td className="h-numbers" data-label="Numbers">
                        {[h.orderNo && `provider order ${h.orderNo}`, h.payNo && `payment ${h.payNo}`]
                          .filter(Boolean)
                          .join(', ') || '—'}
                      </td>
                      <td className="h-received" data-label="Reached the Hub">
                        {lagosTimeSeconds(h.receivedAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </section>
  );
}
