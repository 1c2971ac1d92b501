// A shift's totals in big, plain figures: what was paid, what failed, what is still open. Every
// figure is the ledger's (shared/ledger.ts, computed in the engine): this screen adds up nothing.
import type { Bucket, ShiftReport } from '../../../../shared/records';
import {
  BOOKING_FEES_LABEL,
  CARD_TOTAL_LABEL,
  CARD_TOTAL_NOTE,
  PROVIDER_FEES_LABEL,
  SALES_TOTAL_LABEL,
  SHOWS_TABLE_LABEL,
  TICKETS_SOLD_LABEL,
  TOPUPS_TOTAL_LABEL,
} from '../../../../shared/ledger';
import { formatNaira, showDateText } from '../../format';
import { Banner } from '../../components/Banner';
import { ShiftBasketFigures } from './ShiftBasketFigures';

function Figure({
  label,
  note,
  b,
  tone,
  testId,
}: {
  label: string;
  note?: string;
  b: Bucket;
  tone?: string;
  testId?: string;
}) {
  return (
    <div className="figure" data-tone={tone} data-testid={testId}>
      <dt>
        {label}
        {note && <span className="figure-note">{note}</span>}
      </dt>
      <dd>
        <span className="figure-amount">{formatNaira(b.amountKobo)}</span>
        <span className="figure-count">
          {b.count} order{b.count === 1 ? '' : 's'}
        </span>
      </dd>
    </div>
  );
}

export function ShiftFigures({ report }: { report: ShiftReport }) {
  const t = report.totals;
  return (
    <div className="shift-figures">
      {t.noShift.count > 0 && (
        <Banner tone="warn" role="status" data-testid="no-shift-sales">
          {t.noShift.count} sale{t.noShift.count === 1 ? '' : 's'} ({formatNaira(t.noShift.amountKobo)}) made with no
          shift open before this one: in no Z report until this one, and not in its card total. Check{' '}
          {t.noShift.count === 1 ? 'it' : 'them'} on the Orders screen.
        </Banner>
      )}
      <dl className="figures">
        <Figure label={CARD_TOTAL_LABEL} note={CARD_TOTAL_NOTE} b={t.card} tone="good" testId="figure-taken" />
        {t.salesTotal && <Figure label={SALES_TOTAL_LABEL} b={t.salesTotal} testId="figure-sales-total" />}
        <Figure label="Failed" b={t.failed} testId="figure-failed" />
        <Figure label="Cancelled" b={t.cancelled} testId="figure-cancelled" />
        <Figure label="Expired" b={t.expired} testId="figure-expired" />
        <Figure label="Still open" b={t.open} tone={t.open.count > 0 ? 'warn' : undefined} testId="figure-open" />
      </dl>
      <dl className="figure-lines">
        <div>
          <dt>{TICKETS_SOLD_LABEL}</dt>
          <dd>{t.ticketsSold}</dd>
        </div>
        <div>
          <dt>{BOOKING_FEES_LABEL}</dt>
          <dd>{formatNaira(t.bookingFeesKobo)}</dd>
        </div>
        <div>
          <dt>{PROVIDER_FEES_LABEL}</dt>
          <dd>{formatNaira(t.providerFeesKobo)}</dd>
        </div>
        {t.paidLate.count > 0 && (
          <div>
            <dt>Of which sold in an earlier shift, paid in this one</dt>
            <dd>
              {formatNaira(t.paidLate.amountKobo)} ({t.paidLate.count})
            </dd>
          </div>
        )}
        {t.paidAfterClosing.count > 0 && (
          <div data-testid="figure-paid-after-closing">
            <dt>Of which paid after closing</dt>
            <dd>
              {formatNaira(t.paidAfterClosing.amountKobo)} ({t.paidAfterClosing.count})
            </dd>
          </div>
        )}
        {t.refundToArrange.count > 0 && (
          <div data-testid="figure-refund-to-arrange">
            <dt>Refund to be arranged (not in the card total)</dt>
            <dd>
              {formatNaira(t.refundToArrange.amountKobo)} ({t.refundToArrange.count})
            </dd>
          </div>
        )}
        {report.shift.openingFloatKobo !== null && (
          <div>
            <dt>Opening float (cash)</dt>
            <dd>{formatNaira(report.shift.openingFloatKobo)}</dd>
          </div>
        )}
        <div>
          <dt>Top-ups</dt>
          <dd>
            {!t.topups.available
              ? 'none on this counter'
              : t.topups.lines.length === 0
                ? 'none in this shift'
                : t.topups.lines.map((l) => `${l.label}: ${l.count} · ${formatNaira(l.amountKobo)}`).join('; ')}
          </dd>
        </div>
        {t.topups.available && t.topups.lines.length > 0 && (
          <div data-testid="figure-topups-successful">
            <dt>{TOPUPS_TOTAL_LABEL}</dt>
            <dd>
              {formatNaira(t.topupsSuccessful.amountKobo)} ({t.topupsSuccessful.count})
            </dd>
          </div>
        )}
      </dl>
      {t.shows.length > 0 && (
        <table className="shift-shows" data-testid="shift-shows">
          <caption>{SHOWS_TABLE_LABEL}</caption>
          <thead>
            <tr>
              <th scope="col">Show</th>
              <th scope="col">Film</th>
              <th scope="col" className="num">
                Seats sold
              </th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {t.shows.map((s) => (
              <tr key={`${s.showDate} ${s.showTime} ${s.filmName} ${s.filmTitle}`}>
                <td className="num">
                  {showDateText(s.showDate)} {s.showTime}
                </td>
                <td>{s.filmTitle}</td>
                <td className="num">{s.seats}</td>
                <td className="num">{formatNaira(s.amountKobo)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ShiftBasketFigures t={t} />
    </div>
  );
}
