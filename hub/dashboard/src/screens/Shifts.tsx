// Shifts: every counter's shifts opened on a day, open or closed, each closed shift's Z report as
// the counter printed it, the day's totals across counters, and the CSV of it all.
import { useBranchLabel } from '../branch-names';
import { useState } from 'react';
import type { z } from 'zod';
import { ShiftsViewSchema, type ShiftRow, type ZReportViewSchema } from '../../../../shared/hub-dashboard-contract';
import { CARD_TOTAL_LABEL, CARD_TOTAL_NOTE } from '../../../../shared/ledger';
import { api, apiUrl } from '../api';
import { Banner, Loading, practiceWord, ScreenTitle } from '../components/bits';
import { DayNav, useDay } from '../components/DayNav';
import { SalesMixView } from '../components/SalesMix';
import { dayLong, formatCount, formatNaira, lagosDayTime } from '../format';
import { branchQuery, useDash } from '../store';
import { useLoad } from '../use-load';

type ZReport = z.infer<typeof ZReportViewSchema>;

/** The Z report laid out like the counter's printout: a narrow receipt, label left, amount right. */
function ZReportPrint({ s, z }: { s: ShiftRow; z: ZReport }) {
  const pair = (label: string, value: string) => (
    <div className="receipt-pair" key={label}>
      <span>{label}</span>
      <span>{value}</span>
    </div>
  );
  return (
    <div
      className="receipt"
      role="document"
      aria-label={`Z report number ${z.reportNo} of ${s.counterName}`}
      data-testid={`zreport-${z.reportNo}`}
    >
      <div className="receipt-center receipt-bold">Z REPORT #{z.reportNo} - SHIFT CLOSED</div>
      {s.practice ? <div className="receipt-banner">DEMO SHIFT — NOT REAL MONEY</div> : null}
      <hr />
      {pair('Cashier', s.cashier)}
      {pair('Counter', s.counterName)}
      {pair('From', lagosDayTime(z.from))}
      {pair('To', lagosDayTime(z.to))}
      {s.floatKobo !== null ? pair('Opening float (cash)', formatNaira(s.floatKobo)) : null}
      <hr />
      {z.lines.map((l, i) => (
        <div className="receipt-pair" key={i}>
          <span>
            {l.label} ({l.count})
          </span>
          <span>{formatNaira(l.kobo)}</span>
        </div>
      ))}
      <hr className="double" />
      <div className="receipt-pair receipt-bold">
        <span>CARD TOTAL ({z.count})</span>
        <span>{formatNaira(z.totalKobo)}</span>
      </div>
      <div className="receipt-small">
        {CARD_TOTAL_LABEL}: {CARD_TOTAL_NOTE}.
      </div>
      <hr />
      <div className="receipt-small">Printed {lagosDayTime(z.at)}. Times are Lagos time (WAT).</div>
    </div>
  );
}

function ShiftItem({ s, headOffice }: { s: ShiftRow; headOffice: boolean }) {
  const label = useBranchLabel();
  const [open, setOpen] = useState(false);
  const closed = s.closedAt !== null;
  return (
    <li className="card shift" data-shift={s.shiftId} data-state={closed ? 'closed' : 'open'}>
      <div className="shift-head">
        <span className="pill" data-tone={closed ? 'good' : 'info'}>
          {closed ? 'Closed' : 'Open'}
        </span>
        <strong>{s.counterName}</strong>
        <span>{s.cashier}</span>
        {headOffice ? <span className="hint">{label(s.branch)}</span> : null}
        {s.practice ? <span className="pill practice-pill">{practiceWord(s.profile)}</span> : null}
      </div>
      <dl className="shift-facts">
        <div>
          <dt>Opened</dt>
          <dd>{lagosDayTime(s.openedAt)}</dd>
        </div>
        <div>
          <dt>Closed</dt>
          <dd>{closed ? lagosDayTime(s.closedAt!) : 'still open'}</dd>
        </div>
        <div>
          <dt>Float</dt>
          <dd>{s.floatKobo === null ? '—' : formatNaira(s.floatKobo)}</dd>
        </div>
        <div>
          <dt>{CARD_TOTAL_LABEL}</dt>
          <dd>{s.cardTotalKobo === null ? '—' : formatNaira(s.cardTotalKobo)}</dd>
        </div>
      </dl>
      <SalesMixView m={s.sales} testId={`shift-sales-${s.shiftId}`} compact />
      {s.zreports.length ? (
        <>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : 'Show'} the Z report{s.zreports.length > 1 ? 's' : ''} (
            {s.zreports.map((z) => `#${z.reportNo}`).join(', ')})
          </button>
          {open ? (
            <div className="receipts">
              {s.zreports.map((z) => (
                <ZReportPrint key={z.reportNo} s={s} z={z} />
              ))}
            </div>
          ) : null}
        </>
      ) : (
        <p className="hint">
          {closed
            ? 'No Z report reached the Hub for this shift.'
            : 'The Z report comes when the cashier closes the shift.'}
        </p>
      )}
    </li>
  );
}

export function ShiftsScreen() {
  const session = useDash((s) => s.session);
  const route = useDash((s) => s.route);
  const { day, todayDay, go } = useDay();
  const q = branchQuery({ session, route }, { day });
  const r = useLoad(`shifts?${q}`, () => api.get('/shifts', ShiftsViewSchema, q));
  const v = r.data;
  const headOffice = session?.manager.role === 'head-office';
  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle aside={<DayNav day={day} todayDay={todayDay} go={go} />}>
        <span id="screen-title">Shifts</span> <span className="title-day">{dayLong(day)}</span>
      </ScreenTitle>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {!v ? (
        r.error ? null : (
          <Loading what="the shifts" />
        )
      ) : (
        <>
          <div className="tiles" data-testid="shift-totals">
            <div className="tile">
              <span className="tile-label">Shifts</span>
              <span className="tile-value">{formatCount(v.totals.shifts)}</span>
              <span className="tile-sub">{formatCount(v.totals.open)} still open</span>
            </div>
            <div className="tile" data-tone="good">
              <span className="tile-label">{CARD_TOTAL_LABEL} at close</span>
              <span className="tile-value">{formatNaira(v.totals.cardTotalKobo)}</span>
              <span className="tile-sub">closed shifts · {CARD_TOTAL_NOTE}</span>
            </div>
            <div className="tile">
              <span className="tile-label">Z reports</span>
              <span className="tile-value">{formatCount(v.totals.zReports)}</span>
              <span className="tile-sub">
                {CARD_TOTAL_LABEL.toLowerCase()} {formatNaira(v.totals.zTotalKobo)} · {formatCount(v.totals.zCount)}{' '}
                card payments
              </span>
            </div>
          </div>
          {v.practice.shifts > 0 ? (
            <p className="hint" data-testid="practice-note">
              Demo and Sandbox (practice, no real money, not in the totals): {formatCount(v.practice.shifts)} shift
              {v.practice.shifts === 1 ? '' : 's'}, {CARD_TOTAL_LABEL.toLowerCase()} at close{' '}
              {formatNaira(v.practice.cardTotalKobo)}, {formatCount(v.practice.zReports)} Z report
              {v.practice.zReports === 1 ? '' : 's'}.
            </p>
          ) : null}
          <p className="actions">
            <a className="button" href={apiUrl('/shifts.csv', q)} download data-testid="shifts-csv">
              Download the day as CSV
            </a>
            <span className="hint">Totals count real shifts only (not Demo or Sandbox).</span>
          </p>
          {v.shifts.length === 0 ? (
            <p className="hint">No shift was opened on this day.</p>
          ) : (
            <ul className="shift-list" data-testid="shift-list">
              {v.shifts.map((s) => (
                <ShiftItem key={`${s.counterId}-${s.shiftId}`} s={s} headOffice={headOffice} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
