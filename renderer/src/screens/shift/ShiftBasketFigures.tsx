// A shift's basket lines: tickets by show and ticket type, concessions by item and by category, the
// tenders, the cash drawer (float, drops, expected, counted, over/short), the refunds after the
// sale and the exchanges done. Every figure is the
// ledger's (shared/ledger-basket.ts, computed in the engine): this screen adds up nothing.
import type { ShiftTotals } from '../../../../shared/records';
import {
  CATEGORIES_HEADING,
  CONCESSIONS_HEADING,
  DRAWER_HEADING,
  drawerRows,
  drawerVerdict,
  TENDERS_HEADING,
  TICKET_TYPES_HEADING,
  tenderRows,
} from '../../../../shared/ledger-basket-lines';
import { handBackText } from '../../../../shared/tender-lines';
import { hasRefunds, REFUNDS_HEADING, refundRows } from '../../../../shared/ledger-refunds';
import { EXCHANGES_HEADING, exchangeRows, hasExchanges } from '../../../../shared/ledger-exchanges';
import { formatLagosTime, formatNaira, showDateText } from '../../format';
import { Banner } from '../../components/Banner';

function Lines({
  rows,
  testId,
}: {
  rows: { key: string; label: string; count: number | null; amountKobo: number }[];
  testId: string;
}) {
  return (
    <dl className="figure-lines" data-testid={testId}>
      {rows.map((r) => (
        <div key={r.key} data-testid={`${testId}-${r.key}`}>
          <dt>
            {r.label}
            {r.count !== null && ` (${r.count})`}
          </dt>
          <dd>{formatNaira(r.amountKobo)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The refunds after the sale and the exchanges done (each shown once there is one). */
function AfterSale({ t }: { t: ShiftTotals }) {
  return (
    <>
      {hasRefunds(t.refunds) && (
        <section aria-label={REFUNDS_HEADING} data-testid="refunds">
          <h4>{REFUNDS_HEADING}</h4>
          <Lines rows={refundRows(t.refunds)} testId="refunds-line" />
        </section>
      )}
      {hasExchanges(t.exchanges) && (
        <section aria-label={EXCHANGES_HEADING} data-testid="exchanges">
          <h4>{EXCHANGES_HEADING}</h4>
          <Lines rows={exchangeRows(t.exchanges)} testId="exchanges-line" />
        </section>
      )}
    </>
  );
}

export function ShiftBasketFigures({ t }: { t: ShiftTotals }) {
  return (
    <>
      {t.ticketTypes && t.ticketTypes.length > 0 && (
        <table className="shift-shows" data-testid="shift-ticket-types">
          <caption>{TICKET_TYPES_HEADING}</caption>
          <thead>
            <tr>
              <th scope="col">Show</th>
              <th scope="col">Film</th>
              <th scope="col">Ticket type</th>
              <th scope="col" className="num">
                Tickets
              </th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col" className="num">
                Booking fee
              </th>
            </tr>
          </thead>
          <tbody>
            {t.ticketTypes.map((l) => (
              <tr key={`${l.showDate} ${l.showTime} ${l.filmName} ${l.filmTitle} ${l.ticketType}`}>
                <td className="num">
                  {showDateText(l.showDate)} {l.showTime}
                </td>
                <td>{l.filmTitle}</td>
                <td>{l.ticketType}</td>
                <td className="num">{l.quantity}</td>
                <td className="num">{formatNaira(l.amountKobo)}</td>
                <td className="num">{formatNaira(l.bookingFeeKobo)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {t.concessions && t.concessions.items.length > 0 && (
        <div className="shift-concessions">
          <table className="shift-shows" data-testid="shift-concessions">
            <caption>{CONCESSIONS_HEADING}</caption>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Category</th>
                <th scope="col" className="num">
                  Sold
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {t.concessions.items.map((i) => (
                <tr key={i.code}>
                  <td>
                    {i.name} <span className="hint">{i.code}</span>
                  </td>
                  <td>{i.category}</td>
                  <td className="num">{i.quantity}</td>
                  <td className="num">{formatNaira(i.amountKobo)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="shift-shows" data-testid="shift-categories">
            <caption>{CATEGORIES_HEADING}</caption>
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col" className="num">
                  Sold
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {t.concessions.categories.map((c) => (
                <tr key={c.category}>
                  <td>{c.category}</td>
                  <td className="num">{c.quantity}</td>
                  <td className="num">{formatNaira(c.amountKobo)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">All concessions</th>
                <td className="num">{t.concessions.quantity}</td>
                <td className="num">{formatNaira(t.concessions.amountKobo)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <div className="shift-money">
        {t.tenders && (
          <section aria-label={TENDERS_HEADING}>
            <h4>{TENDERS_HEADING}</h4>
            <Lines rows={tenderRows(t.tenders)} testId="tenders" />
            {t.tenders.toHandBack.items.map((i) => (
              <Banner key={i.ref} tone="warn" role="status">
                {handBackText(i)}
              </Banner>
            ))}
          </section>
        )}
        {t.drawer && (
          <section aria-label={DRAWER_HEADING} data-testid="drawer">
            <h4>{DRAWER_HEADING}</h4>
            <Lines rows={drawerRows(t.drawer)} testId="drawer-line" />
            {t.drawer.dropItems.length > 0 && (
              <ul className="drawer-drops" data-testid="drawer-drops">
                {t.drawer.dropItems.map((d) => (
                  <li key={`${d.at} ${d.by} ${d.amountKobo}`}>
                    Drop at {formatLagosTime(d.at)}: {formatNaira(d.amountKobo)} by {d.by}
                    {d.note ? ` (${d.note})` : ''}
                  </li>
                ))}
              </ul>
            )}
            <p
              className="drawer-verdict"
              data-testid="drawer-verdict"
              data-tone={t.drawer.overShortKobo === null ? undefined : t.drawer.overShortKobo === 0 ? 'good' : 'warn'}
            >
              {drawerVerdict(t.drawer)}
              {t.drawer.count && ` Counted by ${t.drawer.count.by} at ${formatLagosTime(t.drawer.count.at)}.`}
            </p>
          </section>
        )}
        <AfterSale t={t} />
      </div>
    </>
  );
}
