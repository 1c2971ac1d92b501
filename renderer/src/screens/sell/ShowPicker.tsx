// Selling from the programme: the next shows (soonest first), filtered as the cashier types; ↑/↓
// and Enter pick one; then the ticket type (the most sold is chosen already; ↑/↓ change it), the
// seats (the ticket count follows them), and Enter charges. Esc goes back to the list.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SeatCheckResult, ShowView } from '../../../../shared/programme';
import { lagosDate, lagosHm } from '../../../../shared/time';
import { Banner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { TERMINAL_CHANGE_ID } from '../../components/TerminalPicker';
import { useNow } from '../../components/useNow';
import { formatNaira, showDateText } from '../../format';
import { useSale } from '../../stores/sale-store';
import { ChargeRow, chargeState, SaleTotal, useNoShift } from './ChargeParts';
import { SeatMapPanel, useSeatPick } from './SeatMapPanel';
import { useSeatMap } from '../../stores/seat-map-store';
import {
  filterShows,
  firstNotStarted,
  showSaleAmounts,
  startedText,
  startsText,
  ticketTypeOf,
} from '../../stores/show-pick';

export const SWITCH_KEY = 'F2';

export function ShowPicker({ shows, sn }: { shows: ShowView[]; sn: string | null }) {
  const pick = useSale((s) => s.pick);
  return pick ? <PickedShow sn={sn} /> : <ShowList shows={shows} />;
}

function ShowList({ shows }: { shows: ShowView[] }) {
  const pickShow = useSale((s) => s.pickShow);
  const [query, setQuery] = useState('');
  // null: the first show that has not started yet (a started one is never the one Enter picks by itself).
  const [active, setActive] = useState<number | null>(null);
  const now = useNow(true);
  const list = useMemo(() => filterShows(shows, query), [shows, query]);
  const at = Math.min(active ?? firstNotStarted(list, now), Math.max(0, list.length - 1));
  const input = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (document.activeElement === document.body) input.current?.focus();
  }, []);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${at}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [at]);
  // The map of the show Enter would pick is read ahead, so it draws as soon as the show is picked.
  const atId = list[at]?.id;
  useEffect(() => {
    if (atId !== undefined) useSeatMap.getState().prefetch(atId);
  }, [atId]);

  const onKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.length) setActive((at + (e.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const show = list[at];
      if (show) pickShow(show);
    } else if (e.key === 'Escape' && query) {
      e.preventDefault();
      e.stopPropagation();
      setQuery('');
      setActive(null);
    }
  };

  return (
    <section className="card show-list" aria-labelledby="show-list-title">
      <div className="show-list-head">
        <h2 id="show-list-title">Next shows</h2>
        <SwitchButton to="hand" />
      </div>
      <label className="show-find">
        <span>Find a show: film, screen or time</span>
        <input
          ref={input}
          data-autofocus="true"
          role="combobox"
          aria-expanded="true"
          aria-controls="show-options"
          aria-autocomplete="list"
          aria-activedescendant={list[at] ? `show-${list[at].id}` : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          placeholder="Type to narrow the list, e.g. dune or 1930"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(null);
          }}
          onKeyDown={onKey}
        />
      </label>
      {list.length === 0 ? (
        <p className="show-none" role="status">
          No show matches “{query}”. Clear the box (Esc), or type the show by hand ({SWITCH_KEY}).
        </p>
      ) : (
        <ul id="show-options" role="listbox" aria-label="Shows" className="show-options" ref={listRef}>
          {list.map((s, i) => (
            <li
              key={s.id}
              id={`show-${s.id}`}
              role="option"
              aria-selected={i === at}
              data-index={i}
              className="show-option"
              data-started={s.startsAt <= now ? 'true' : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pickShow(s)}
            >
              <span className="show-time">{s.time}</span>
              <span className="show-film">
                <strong>{s.filmTitle}</strong>
                <span className="show-meta">
                  {s.screen}
                  {s.rating ? ` · ${s.rating}` : ''} · {startsText(s, now)}
                </span>
              </span>
              <span className="show-prices">
                {s.ticketTypes.map((t) => `${t.name} ${formatNaira(t.priceKobo)}`).join(' · ')}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="hint keys-hint">
        <kbd>↑</kbd> <kbd>↓</kbd> choose · <kbd>Enter</kbd> sell this show · <kbd>{SWITCH_KEY}</kbd> type a show by hand
      </p>
    </section>
  );
}

function PickedShow({ sn }: { sn: string | null }) {
  const s = useSale(
    useShallow((st) => ({
      pick: st.pick!,
      errors: st.pickErrors,
      seatCheck: st.seatCheck,
      acknowledged: st.seatsAcknowledged,
      message: st.message,
      busy: st.busy,
      open: st.open,
      setSeats: st.setSeats,
      setTicketType: st.setTicketType,
      step: st.stepTicketType,
      chargeShow: st.chargeShow,
      unpick: st.unpick,
      acknowledgeSeats: st.acknowledgeSeats,
    })),
  );
  const { show } = s.pick;
  const type = ticketTypeOf(show, s.pick.ticketType);
  const seatPick = useSeatPick(s.pick);
  const amounts = showSaleAmounts(type, seatPick.seatsForSale);
  const seatsRef = useRef<HTMLInputElement>(null);
  const now = useNow(true);
  const noShift = useNoShift();
  const started = startedText(show.startsAt, now);
  const { terminalBusy, disabledReason, chargeLabel, chargeWhere } = chargeState(
    sn,
    s.open,
    amounts.tickets > 0 ? amounts.totalKobo : null,
    noShift,
    amounts.tickets > 0 ? `${amounts.tickets} ${type.name}` : type.name,
  );

  useEffect(() => {
    seatsRef.current?.focus();
  }, [show.id]);

  const charge = async (besideWaiting?: string) => {
    if (noShift || (terminalBusy && besideWaiting !== terminalBusy.outOrderNo) || seatPick.problem) return;
    // With a seat map, ranges typed ("F7-F9") go to the sale spelt out.
    if (seatPick.seatsForSale !== s.pick.seats) s.setSeats(seatPick.seatsForSale);
    const field = await s.chargeShow(sn, besideWaiting);
    if (field === 'sn') document.getElementById(TERMINAL_CHANGE_ID)?.focus();
    else if (field) seatsRef.current?.focus();
  };

  const conflicts = s.seatCheck?.kind === 'checked' ? s.seatCheck.conflicts : [];
  const warningRef = useRef<HTMLDivElement>(null);
  // The warning and its "Sell … anyway" button come into view above the Charge bar (its scroll padding).
  useEffect(() => {
    if (conflicts.length > 0) warningRef.current?.scrollIntoView({ block: 'nearest' });
  }, [conflicts.length]);
  // A seat sold (or being paid for) elsewhere: Charge is off and says why; only "Sell … anyway" sells it.
  const conflictSeats = conflicts.map((c) => c.seat).join(', ');
  const seatReason =
    conflicts.length === 0
      ? null
      : `${conflictSeats} ${conflicts.length === 1 ? 'is' : 'are'} ${conflicts.every((c) => c.state === 'paid') ? 'already sold' : 'already sold or being paid for'} at another counter: change the seats, or press "Sell ${conflictSeats} anyway".`;
  const reason = disabledReason ?? seatPick.problem ?? seatReason;

  return (
    <form
      className="card show-sale"
      aria-labelledby="show-sale-title"
      onSubmit={(e) => {
        e.preventDefault();
        void charge();
      }}
    >
      <PickedHead show={show} now={now} started={started} onOther={s.unpick} />

      <TicketTypes
        show={show}
        chosen={type.name}
        onChoose={(name) => {
          s.setTicketType(name);
          seatsRef.current?.focus();
        }}
      />

      <Field
        label="Seats"
        error={s.errors.seats ?? s.errors.ticketType}
        hint={
          seatPick.view
            ? 'F7-F9 · b4 Enter: the best 4'
            : `Separate with commas or spaces, e.g. F7,F8${show.ticketTypes.length > 1 ? ' · ↑/↓ change the ticket type' : ''}`
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
            aria-invalid={s.errors.seats ? true : undefined}
            autoComplete="off"
            spellCheck={false}
            placeholder="F7,F8"
            value={s.pick.seats}
            onChange={(e) => s.setSeats(e.target.value)}
            onKeyDown={(e) => {
              if (e.altKey || e.ctrlKey || e.metaKey) return;
              if (e.key === 'Enter' && seatPick.bestFromText()) e.preventDefault();
              else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
                e.preventDefault();
                s.step(e.key === 'ArrowDown' ? 1 : -1);
              }
            }}
          />
        )}
      </Field>

      <SeatMapPanel seats={seatPick} picked={amounts.seats} onCharge={() => void charge()} />

      {conflicts.length > 0 && (
        <div ref={warningRef}>
          <SeatWarning
            conflicts={conflicts}
            seats={conflictSeats}
            busy={s.busy}
            onSellAnyway={() => {
              s.acknowledgeSeats();
              void charge();
            }}
          />
        </div>
      )}
      {s.seatCheck?.kind === 'skipped' && (
        <p className="hint seat-skipped" role="status">
          {s.seatCheck.reason}
        </p>
      )}

      <ChargeRow
        message={s.message}
        snError={s.errors.sn}
        disabledReason={reason}
        busy={s.busy}
        chargeLabel={chargeLabel}
        chargeWhere={chargeWhere}
        terminalBusy={terminalBusy}
        onChargeBeside={(no) => void charge(no)}
        total={
          <SaleTotal
            amounts={amounts.tickets > 0 ? amounts : null}
            ticketName={type.name}
            empty="Type the seats: one ticket per seat"
          />
        }
      >
        <kbd>Enter</kbd> charges · <kbd>Esc</kbd> another show · <kbd>{SWITCH_KEY}</kbd> type a show by hand
      </ChargeRow>
    </form>
  );
}

export function SwitchButton({ to }: { to: 'hand' | 'programme' }) {
  const setMode = useSale((s) => s.setMode);
  return (
    <button type="button" className="mode-switch" onClick={() => setMode(to)}>
      {to === 'hand' ? 'Type a show by hand' : 'Pick from the programme'} <kbd aria-hidden="true">{SWITCH_KEY}</kbd>
    </button>
  );
}

/** The picked show: its time, film, screen and day (and how long ago it started), and Other show. */
function PickedHead(p: { show: ShowView; now: number; started: string | null; onOther: () => void }) {
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
      <button type="button" onClick={onOther}>
        Other show <kbd aria-hidden="true">Esc</kbd>
      </button>
    </div>
  );
}

/** The show's ticket types with their prices, one chosen. */
function TicketTypes(p: { show: ShowView; chosen: string; onChoose: (name: string) => void }) {
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

type SeatConflicts = Extract<SeatCheckResult, { kind: 'checked' }>['conflicts'];

/** Seats sold or being paid for at another counter: a warning, and the one button that sells them anyway. */
function SeatWarning(p: { conflicts: SeatConflicts; seats: string; busy: boolean; onSellAnyway: () => void }) {
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
