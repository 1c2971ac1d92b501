// "Exchange…" on a paid sale's detail: which of its tickets move (all of them when none is ticked),
// the new show from the programme and the new seats typed as on the Sell screen's seat box (or
// picked on its seat map, ExchangeSeats.tsx) with their ticket type, and the tender for a difference
// to pay. The engine works out the credit and the difference, holds the new seats before anything
// changes, and answers with the new sale.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { soldBasketOf, TYPED_TICKET_TYPE } from '../../../../shared/basket-sale';
import { parseNaira } from '../../../../shared/money';
import type { OrderView } from '../../../../shared/orders';
import type { ShowView } from '../../../../shared/programme';
import { Banner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { SubmitForm } from '../../components/SubmitForm';
import { formatNaira, showDateText } from '../../format';
import { useProgramme } from '../../stores/programme-store';
import { useRefunds } from '../../stores/refunds-store';
import { ExchangeSeatMap, exchangeSeats, useShowMap } from './ExchangeSeats';
import { ExchangeQuoteLine, quoteDue, useExchangeQuote } from './ExchangeQuoteLine';
import { emptyUndoFields, UndoFields, undoRequestPart, type UndoFieldsValue } from './UndoFields';

export function ExchangePanel({ order, cashier }: { order: OrderView; cashier: string }) {
  const r = useRefunds();
  const next = useProgramme((s) => s.next);
  const loadNext = useProgramme((s) => s.loadNext);
  const gone = new Set(r.links?.cancelledSeats ?? []);
  const ticketLines = soldBasketOf(order).lines.flatMap((l) => (l.kind === 'tickets' ? [l] : []));
  const held = ticketLines.flatMap((l) => l.seats.filter((s) => !gone.has(s)).map((s) => ({ seat: s, line: l })));
  const [moving, setMoving] = useState<Set<string>>(new Set());
  const [showKey, setShowKey] = useState('');
  const [seatsTyped, setSeatsTyped] = useState('');
  const [ticketType, setTicketType] = useState('');
  const [tender, setTender] = useState<ExchangeTenderKind>('none');
  const [tendered, setTendered] = useState('');
  const [v, setV] = useState<UndoFieldsValue>(() => emptyUndoFields(cashier));
  const firstRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (!next) void loadNext();
    firstRef.current?.focus();
  }, [next, loadNext]);

  const shows = next?.shows ?? [];
  const show = shows.find((s) => s.key === showKey) ?? null;
  const type = show?.ticketTypes.find((t) => t.name === (ticketType || show.defaultTicketType)) ?? null;
  const mapView = useShowMap(show?.id ?? null);
  const newSeats = exchangeSeats(seatsTyped, mapView?.layout ?? null);
  // The engine works out the credit and the difference (a screen adds up no money): a cash tendered
  // that is not an amount is sent as nothing, and the engine names the field.
  let tenderedKobo = 0;
  try {
    tenderedKobo = tendered.trim() ? parseNaira(tendered) : 0;
  } catch {
    tenderedKobo = 0;
  }

  const picked = {
    orderId: order.id,
    seats: moving.size === 0 ? [] : [...moving],
    to: {
      ...(show ? { showKey: show.key } : {}),
      filmName: show?.filmName ?? '',
      filmTitle: show?.filmTitle ?? '',
      showDate: show?.date ?? '',
      showTime: show?.time ?? '',
      seats: newSeats.map((seat) => ({ seat, ticketType: type?.name ?? '' })),
    },
  };
  const movingCount = moving.size === 0 ? held.length : moving.size;
  const quoteReady = show !== null && type !== null && newSeats.length === movingCount;
  const quote = useExchangeQuote(picked, quoteReady);
  const due = quoteReady ? quoteDue(quote) : null;
  const submit = () =>
    void r.exchange({
      ...picked,
      ...(tender === 'cash' ? { tender: { kind: 'cash' as const, tenderedKobo } } : {}),
      ...(tender === 'card' ? { tender: { kind: 'card' as const }, ...(order.sn ? { sn: order.sn } : {}) } : {}),
      ...undoRequestPart(v),
    });

  return (
    <SubmitForm
      className="undo-panel"
      aria-labelledby="exchange-title"
      data-testid="exchange-panel"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        r.openPanel(null);
      }}
      onSubmit={submit}
    >
      <h3 id="exchange-title">Exchange tickets of sale {order.outOrderNo}</h3>
      <fieldset className="undo-pick" aria-describedby="exchange-pick-hint">
        <legend>Tickets that move</legend>
        <p className="hint" id="exchange-pick-hint">
          None ticked: all {held.length} move. <kbd>Space</kbd> ticks.
        </p>
        <div className="undo-pick-grid">
          {held.map((h) => (
            <label key={h.seat} className="undo-pick-item">
              <input
                type="checkbox"
                checked={moving.has(h.seat)}
                data-testid={`exchange-seat-${h.seat}`}
                onChange={() => {
                  const m = new Set(moving);
                  if (m.has(h.seat)) m.delete(h.seat);
                  else m.add(h.seat);
                  setMoving(m);
                }}
              />{' '}
              Seat <strong>{h.seat}</strong>{' '}
              <span className="hint-inline">
                {h.line.ticketType === TYPED_TICKET_TYPE ? '' : `${h.line.ticketType} `}
                {formatNaira(h.line.unitKobo)}
                {h.line.feePerTicketKobo > 0 ? ` + ${formatNaira(h.line.feePerTicketKobo)} fee` : ''}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <ExchangeTo
        shows={shows}
        show={show}
        typeName={type?.name ?? ''}
        seatsTyped={seatsTyped}
        firstRef={firstRef}
        onShow={(k) => (setShowKey(k), setTicketType(''))}
        onSeats={setSeatsTyped}
        onType={setTicketType}
      />
      {mapView?.layout && (
        <ExchangeSeatMap view={mapView} typed={seatsTyped} onTyped={setSeatsTyped} onCharge={submit} />
      )}
      <ExchangeQuoteLine q={quote} ready={quoteReady} count={movingCount} />
      <ExchangeTender
        sn={order.sn}
        tender={tender}
        setTender={setTender}
        tendered={tendered}
        setTendered={setTendered}
      />
      <UndoFields
        idPrefix="exchange"
        value={v}
        errors={r.errors}
        onChange={(patch, field) => (setV({ ...v, ...patch }), r.clearError(field))}
      />
      {r.message && (
        <Banner tone="bad" role="alert" data-testid="exchange-error">
          {r.message}
        </Banner>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={r.busy !== null} data-testid="exchange-confirm">
          {r.busy === 'exchange' ? 'Exchanging…' : due ? `Exchange · ${due}` : 'Exchange'}{' '}
          <kbd aria-hidden="true">Enter</kbd>
        </button>
        <button type="button" onClick={() => r.openPanel(null)}>
          Keep the sale <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
    </SubmitForm>
  );
}

function ExchangeTo(p: {
  shows: ShowView[];
  show: ShowView | null;
  typeName: string;
  seatsTyped: string;
  firstRef: RefObject<HTMLSelectElement | null>;
  onShow: (key: string) => void;
  onSeats: (typed: string) => void;
  onType: (name: string) => void;
}) {
  const errors = useRefunds((s) => s.errors);
  const clearError = useRefunds((s) => s.clearError);
  const show = p.show;
  return (
    <div className="exchange-to">
      <Field label="New show" error={errors.to}>
        {(id, d) => (
          <select
            id={id}
            ref={p.firstRef}
            aria-describedby={d}
            aria-invalid={!!errors.to}
            value={show?.key ?? ''}
            data-testid="exchange-show"
            onChange={(e) => (p.onShow(e.target.value), clearError('to'))}
          >
            <option value="">Choose the show…</option>
            {p.shows.map((s) => (
              <option key={s.key} value={s.key}>
                {showDateText(s.date)} {s.time} · {s.filmName} · {s.screen}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="New seats" error={errors.toSeats}>
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            value={p.seatsTyped}
            placeholder="g7 g8, or g7-g9"
            aria-invalid={!!errors.toSeats}
            autoComplete="off"
            data-testid="exchange-seats"
            onChange={(e) => (p.onSeats(e.target.value), clearError('toSeats'))}
          />
        )}
      </Field>
      {show && (
        <Field label="Ticket type" error={undefined}>
          {(id, d) => (
            <select
              id={id}
              aria-describedby={d}
              value={p.typeName}
              data-testid="exchange-type"
              onChange={(e) => p.onType(e.target.value)}
            >
              {show.ticketTypes.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name} · {formatNaira(t.priceKobo)}
                  {t.bookingFeeKobo > 0 ? ` + ${formatNaira(t.bookingFeeKobo)} fee` : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </div>
  );
}

type ExchangeTenderKind = 'none' | 'cash' | 'card';

/** How a difference to pay is paid; the engine says the difference, and the change of cash handed over. */
function ExchangeTender(p: {
  sn: string;
  tender: ExchangeTenderKind;
  setTender: (t: ExchangeTenderKind) => void;
  tendered: string;
  setTendered: (v: string) => void;
}) {
  const errors = useRefunds((s) => s.errors);
  const clearError = useRefunds((s) => s.clearError);
  const radio = (kind: ExchangeTenderKind, label: string) => (
    <label>
      <input
        type="radio"
        name="exchange-tender"
        checked={p.tender === kind}
        data-testid={`exchange-tender-${kind}`}
        onChange={() => (p.setTender(kind), clearError('tender'))}
      />{' '}
      {label}
    </label>
  );
  return (
    <fieldset className="exchange-tender" aria-invalid={!!errors.tender} aria-describedby="exchange-tender-hint">
      <legend>If the new tickets cost more, the difference is paid by</legend>
      {radio('none', 'Nothing to pay')}
      {radio('cash', 'Cash')}
      {radio('card', p.sn ? `Card (terminal ${p.sn})` : 'Card')}
      {p.tender === 'cash' && (
        <Field label="Cash handed over (₦)" error={errors.tender}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              inputMode="decimal"
              value={p.tendered}
              autoComplete="off"
              data-testid="exchange-tendered"
              onChange={(e) => (p.setTendered(e.target.value), clearError('tender'))}
            />
          )}
        </Field>
      )}
      {p.tender !== 'cash' && errors.tender && (
        <p className="field-error" role="alert">
          {errors.tender}
        </p>
      )}
      <p className="hint" id="exchange-tender-hint">
        CounterPay works out the credit of the moved tickets and the difference; a cheaper show makes a refund owed, as
        a cancel does.
      </p>
    </fieldset>
  );
}
