// The parts of a picked show's sale: its head (time, film, screen, day, Other show), its ticket
// types with their prices, and the warning about seats sold at another counter.
import { useEffect, useRef } from 'react';
import type { SeatCheckResult, ShowView } from '../../../../shared/programme';
import { lagosDate, lagosHm } from '../../../../shared/time';
import { Banner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { formatNaira, showDateText } from '../../format';
import { useSale } from '../../stores/sale-store';
import type { SeatPick } from './SeatMapPanel';

/** Switches between the programme and a show typed by hand. */
export const SWITCH_KEY = 'F2';

/** The picked show: its time, film, screen and day (and how long ago it started), and Other show. */
export function PickedHead(p: {
  show: ShowView;
  now: number;
  started: string | null;
  onOther: () => void;
  /** What sits between the film and Other show (the ticket types). */
  children?: React.ReactNode;
}) {
  const { show, now, started, onOther } = p;
  return (
    <div className="show-picked">
      <span className="show-time">{show.time}</span>
      <div className="show-film">
        <h2 id="show-sale-title">{show.filmTitle}</h2>
        <span className="show-meta">
          {show.screen}
          {show.rating ? ` · ${show.rating}` : ''} ·{' '}
          {show.date === lagosDate(now) ? `Today, ${showDateText(show.date)}` : showDateText(show.date)}
        </span>
        {started && (
          <span className="show-started" data-testid="show-started">
            {started}
          </span>
        )}
      </div>
      {p.children}
      <button type="button" onClick={onOther}>
        Other show <kbd aria-hidden="true">Esc</kbd>
      </button>
    </div>
  );
}

/** The show's ticket types with their prices, one chosen. */
export function TicketTypes(p: { show: ShowView; chosen: string; onChoose: (name: string) => void }) {
  const { show, chosen, onChoose } = p;
  return (
    <fieldset className="ticket-types">
      <legend>Ticket type</legend>
      <div className="segmented" role="radiogroup" aria-label="Ticket type">
        {show.ticketTypes.map((t) => (
          <button
            key={t.name}
            type="button"
            role="radio"
            aria-checked={t.name === chosen}
            aria-pressed={t.name === chosen}
            onClick={() => onChoose(t.name)}
          >
            {t.name} <span className="tt-price">{formatNaira(t.priceKobo)}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}

export type SeatConflicts = Extract<SeatCheckResult, { kind: 'checked' }>['conflicts'];

/** Seats sold or being paid for at another counter: a warning, and the one button that sells them anyway. */
export function SeatWarning(p: { conflicts: SeatConflicts; seats: string; busy: boolean; onSellAnyway: () => void }) {
  const { conflicts, seats, busy, onSellAnyway } = p;
  return (
    <Banner as="div" tone="warn" role="alert" data-testid="seat-warning">
      <ul className="seat-conflicts">
        {conflicts.map((c) => (
          <li key={c.seat}>
            {c.seat} was {c.state === 'paid' ? 'sold' : 'being paid for'} at {c.counterName} at {lagosHm(c.at)}
          </li>
        ))}
      </ul>
      <span>Change the seats, or sell them anyway with the button (Enter does not).</span>
      <button type="button" className="danger" disabled={busy} onClick={onSellAnyway}>
        Sell {seats} anyway
      </button>
    </Banner>
  );
}

/** The seats box: typed seats or a range (F7-F9), `b4` Enter for the best 4, ↑/↓ the ticket type. */
export function SeatsField(p: {
  seatsRef: React.RefObject<HTMLInputElement | null>;
  seatPick: SeatPick;
  /** The row of seats with their types stands where the hint would. */
  hideHint: boolean;
}) {
  const { seatsRef, seatPick } = p;
  const pick = useSale((st) => st.pick!);
  const errors = useSale((st) => st.pickErrors);
  const setSeats = useSale((st) => st.setSeats);
  const step = useSale((st) => st.stepTicketType);
  const many = pick.show.ticketTypes.length > 1;
  return (
    <Field
      label="Seats"
      error={errors.seats ?? errors.ticketType}
      hint={
        p.hideHint
          ? undefined
          : seatPick.view
            ? 'F7-F9 · b4 Enter: the best 4'
            : `Separate with commas or spaces, e.g. F7,F8${many ? ' · ↑/↓ change the ticket type' : ''}`
      }
    >
      {(id, d) => (
        <input
          id={id}
          ref={seatsRef}
          name="seats"
          data-autofocus="true"
          className="seats-input show-seats"
          aria-describedby={d}
          aria-invalid={errors.seats ? true : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder="F7,F8"
          value={pick.seats}
          onChange={(e) => setSeats(e.target.value)}
          onKeyDown={(e) => {
            if (e.altKey || e.ctrlKey || e.metaKey) return;
            if (e.key === 'Enter' && seatPick.bestFromText()) e.preventDefault();
            else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
              e.preventDefault();
              step(e.key === 'ArrowDown' ? 1 : -1);
            }
          }}
        />
      )}
    </Field>
  );
}

/** A seat sold (or being paid for) elsewhere: Charge is off and says why; only "Sell … anyway" sells it. */
export function seatConflictReason(check: SeatCheckResult | null): string | null {
  const conflicts = check?.kind === 'checked' ? check.conflicts : [];
  if (conflicts.length === 0) return null;
  const seats = conflicts.map((c) => c.seat).join(', ');
  return `${seats} ${conflicts.length === 1 ? 'is' : 'are'} ${conflicts.every((c) => c.state === 'paid') ? 'already sold' : 'already sold or being paid for'} at another counter: change the seats, or press "Sell ${seats} anyway".`;
}

/** What the seat check said: the warning with its "Sell … anyway" button, or why it was skipped. */
export function SeatCheckNotes(p: { busy: boolean; onSellAnyway: () => void }) {
  const check = useSale((st) => st.seatCheck);
  const conflicts = check?.kind === 'checked' ? check.conflicts : [];
  const warningRef = useRef<HTMLDivElement>(null);
  // The warning and its "Sell … anyway" button come into view above the Charge bar (its scroll padding).
  useEffect(() => {
    if (conflicts.length > 0) warningRef.current?.scrollIntoView({ block: 'nearest' });
  }, [conflicts.length]);
  return (
    <>
      {conflicts.length > 0 && (
        <div ref={warningRef}>
          <SeatWarning
            conflicts={conflicts}
            seats={conflicts.map((c) => c.seat).join(', ')}
            busy={p.busy}
            onSellAnyway={p.onSellAnyway}
          />
        </div>
      )}
      {check?.kind === 'skipped' && (
        <p className="hint seat-skipped" role="status">
          {check.reason}
        </p>
      )}
    </>
  );
}
