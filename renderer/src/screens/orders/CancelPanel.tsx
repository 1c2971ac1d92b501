// "Cancel tickets…" on a paid sale's detail: the sale's seats and concession lines still valid as
// checkboxes (none ticked at first; Space ticks), then the reason, the supervisor's approval and the
// cashier's name. The engine decides what goes back and by which tender; its answer is shown by
// UndoAnswerBanner once it is done.
import { useEffect, useRef, useState } from 'react';
import { soldBasketOf, TYPED_TICKET_TYPE } from '../../../../shared/basket-sale';
import type { OrderView } from '../../../../shared/orders';
import { Banner } from '../../components/Banner';
import { SubmitForm } from '../../components/SubmitForm';
import { formatNaira } from '../../format';
import { useRefunds } from '../../stores/refunds-store';
import { emptyUndoFields, UndoFields, undoRequestPart, type UndoFieldsValue } from './UndoFields';

export function CancelPanel({ order, cashier }: { order: OrderView; cashier: string }) {
  const r = useRefunds();
  const gone = new Set(r.links?.cancelledSeats ?? []);
  const lines = soldBasketOf(order).lines;
  const seats = lines.flatMap((l) =>
    l.kind === 'tickets'
      ? l.seats.filter((s) => !gone.has(s)).map((s) => ({ seat: s, type: l.ticketType, unitKobo: l.unitKobo }))
      : [],
  );
  const concessions = lines.flatMap((l, i) => (l.kind === 'tickets' ? [] : [{ index: i, line: l }]));
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [v, setV] = useState<UndoFieldsValue>(() => emptyUndoFields(cashier));
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const toggle = (key: string) => {
    const next = new Set(picked);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setPicked(next);
    r.clearError('seats');
  };
  const submit = () =>
    void r.cancel({
      orderId: order.id,
      seats: seats.filter((s) => picked.has(`seat:${s.seat}`)).map((s) => s.seat),
      concessions: concessions
        .filter((c) => picked.has(`line:${c.index}`))
        .map((c) => ({ line: c.index, quantity: c.line.quantity })),
      ...undoRequestPart(v),
    });

  let first = true;
  const firstProps = () => (first ? ((first = false), { ref: firstRef }) : {});
  return (
    <SubmitForm
      className="undo-panel"
      aria-labelledby="cancel-title"
      data-testid="cancel-panel"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        r.openPanel(null);
      }}
      onSubmit={submit}
    >
      <h3 id="cancel-title">Cancel tickets of sale {order.outOrderNo}</h3>
      <fieldset className="undo-pick" aria-invalid={!!r.errors.seats} aria-describedby="cancel-pick-hint">
        <legend>What to cancel</legend>
        <p className="hint" id="cancel-pick-hint">
          Tick what the customer gives back: <kbd>Tab</kbd> to move, <kbd>Space</kbd> to tick.
        </p>
        <div className="undo-pick-grid">
          {seats.map((s) => (
            <label key={s.seat} className="undo-pick-item">
              <input
                type="checkbox"
                {...firstProps()}
                checked={picked.has(`seat:${s.seat}`)}
                onChange={() => toggle(`seat:${s.seat}`)}
                data-testid={`cancel-seat-${s.seat}`}
              />{' '}
              Seat <strong>{s.seat}</strong>
              {s.type !== TYPED_TICKET_TYPE && <span className="hint-inline">({s.type})</span>}
            </label>
          ))}
          {concessions.map((c) => (
            <label key={c.index} className="undo-pick-item">
              <input
                type="checkbox"
                {...firstProps()}
                checked={picked.has(`line:${c.index}`)}
                onChange={() => toggle(`line:${c.index}`)}
                data-testid={`cancel-line-${c.index}`}
              />{' '}
              {c.line.quantity} × {c.line.name} <span className="hint-inline">({formatNaira(c.line.amountKobo)})</span>
            </label>
          ))}
        </div>
        {r.errors.seats && (
          <p className="field-error" role="alert">
            {r.errors.seats}
          </p>
        )}
      </fieldset>
      <UndoFields
        idPrefix="cancel"
        value={v}
        errors={r.errors}
        onChange={(patch, field) => (setV({ ...v, ...patch }), r.clearError(field))}
      />
      {r.message && (
        <Banner tone="bad" role="alert" data-testid="cancel-error">
          {r.message}
        </Banner>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={r.busy !== null} data-testid="cancel-confirm">
          {r.busy === 'cancel'
            ? 'Cancelling…'
            : confirmText(
                seats.filter((x) => picked.has(`seat:${x.seat}`)).map((x) => x.seat),
                concessions.filter((c) => picked.has(`line:${c.index}`)).length,
              )}{' '}
          <kbd aria-hidden="true">Enter</kbd>
        </button>
        <button type="button" onClick={() => r.openPanel(null)}>
          Keep the sale <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
    </SubmitForm>
  );
}

/** The confirm button says what goes: "Cancel seat F9", "Cancel seats F8, F9", "Cancel 3 items". */
function confirmText(seats: string[], lines: number): string {
  if (seats.length + lines === 0) return 'Cancel what is ticked';
  if (lines === 0) return `Cancel seat${seats.length === 1 ? '' : 's'} ${seats.join(', ')}`;
  const n = seats.length + lines;
  return `Cancel ${n} item${n === 1 ? '' : 's'}`;
}
