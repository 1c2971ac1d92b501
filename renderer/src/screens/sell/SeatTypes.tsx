// The ticket type of each seat, in a few keys: `2a1c` in the box (F3) gives the first two seats Adult
// and the third Child (the first letters of the show's ticket types, in seat order; seats left over
// keep the type chosen above); or ↓ to the row of seats, where ←/→ move and a type's letter sets
// that seat. Both stay out of Tab's way (Tab goes from the seats to the map, as before).
import { forwardRef } from 'react';
import type { ShowView } from '../../../../shared/programme';
import { typeByLetters, typeKeysOf, typesInWords, type TypeKeys } from '../../stores/basket-keys';
import { useBasket } from '../../stores/basket-store';

export const TYPES_KEY = 'F3';

export const SeatTypes = forwardRef<
  HTMLInputElement,
  { show: ShowView; seats: readonly string[]; typed: TypeKeys; types: readonly string[] }
>(function SeatTypes({ show, seats, typed, types }, ref) {
  const typeKeys = useBasket((s) => s.typeKeys);
  const setTypeKeys = useBasket((s) => s.setTypeKeys);
  if (show.ticketTypes.length < 2) return null;
  const letters = show.ticketTypes.map((t) => `${t.name.slice(0, 1).toLowerCase()} ${t.name}`).join(' · ');
  const help = !typed.ok ? typed.message : seats.length > 0 ? typesInWords(types) : `Letters: ${letters}`;

  const setSeatType = (i: number, letter: string): boolean => {
    const type = typeByLetters(show.ticketTypes, letter);
    if (typeof type === 'string') return false;
    const next = types.map((t, j) => (j === i ? type.name : t));
    setTypeKeys(typeKeysOf(next, show));
    return true;
  };
  const chips: (HTMLButtonElement | null)[] = [];

  return (
    <div className="seat-types">
      <label className="seat-types-box">
        <span>
          Ticket types <kbd aria-hidden="true">{TYPES_KEY}</kbd>
        </span>
        <input
          ref={ref}
          name="types"
          tabIndex={-1}
          autoComplete="off"
          spellCheck={false}
          value={typeKeys}
          placeholder="e.g. 2a1c"
          aria-invalid={typed.ok ? undefined : true}
          aria-describedby="seat-types-help"
          onChange={(e) => setTypeKeys(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowDown' || e.altKey || e.ctrlKey || e.metaKey || seats.length === 0) return;
            e.preventDefault();
            chips[0]?.focus();
          }}
        />
      </label>
      <div className="seat-type-line">
        {seats.length > 0 && (
          <div className="seat-type-row" role="group" aria-label="Each seat's ticket type">
            {seats.map((seat, i) => (
              <button
                key={seat}
                type="button"
                className="seat-type-chip"
                data-type={types[i]}
                tabIndex={-1}
                ref={(el) => {
                  chips[i] = el;
                }}
                onClick={() => {
                  const now = show.ticketTypes.findIndex((t) => t.name === types[i]);
                  const next = show.ticketTypes[(now + 1) % show.ticketTypes.length]!;
                  setSeatType(i, next.name);
                }}
                onKeyDown={(e) => {
                  if (e.altKey || e.ctrlKey || e.metaKey) return;
                  if (e.key === 'ArrowUp') {
                    e.preventDefault();
                    (ref as React.RefObject<HTMLInputElement>).current?.focus();
                  } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                    e.preventDefault();
                    const j = Math.max(0, Math.min(seats.length - 1, i + (e.key === 'ArrowRight' ? 1 : -1)));
                    chips[j]?.focus();
                  } else if (/^[a-z]$/i.test(e.key) && setSeatType(i, e.key)) {
                    e.preventDefault();
                    chips[Math.min(seats.length - 1, i + 1)]?.focus();
                  }
                }}
              >
                {seat} <strong>{types[i]}</strong>
              </button>
            ))}
          </div>
        )}
        <span
          id="seat-types-help"
          className={`seat-types-help ${typed.ok ? 'hint' : 'field-error'}`}
          role={typed.ok ? undefined : 'alert'}
        >
          {help}
        </span>
      </div>
    </div>
  );
});
