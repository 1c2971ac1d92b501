// The concessions pad: one box takes a code (POPL), the number of an entry on the pad (5), or words
// of its name (wat), and Enter adds it; `+`/`-` change the selected line's quantity, ↑/↓ select a
// line; a combo asks its choice (the drink) with the items by key (1, 2, 3). The entries are listed
// with their numbers so the box is never a guess.
import { forwardRef, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatNaira } from '../../format';
import { padEntries, padFind } from '../../stores/basket-keys';
import { useBasket } from '../../stores/basket-store';

export const PAD_KEY = 'F4';

/** `roomy`: the list always shows (a sale of concessions only has the room). */
export const ConcessionsPad = forwardRef<HTMLInputElement, { roomy?: boolean }>(function ConcessionsPad(props, ref) {
  const b = useBasket(
    useShallow((s) => ({
      catalogue: s.catalogue,
      catalogueError: s.catalogueError,
      asking: s.asking,
      selected: s.selected,
      count: s.lines.length,
      padMessage: s.padMessage,
      addFromPad: s.addFromPad,
      bump: s.bump,
      select: s.select,
      chooseKey: s.chooseKey,
      skipChoice: s.skipChoice,
      loadCatalogue: s.loadCatalogue,
    })),
  );
  const [query, setQuery] = useState('');
  const entries = useMemo(() => (b.catalogue ? padEntries(b.catalogue) : []), [b.catalogue]);
  const found = query.trim() ? padFind(entries, query) : entries;

  const onKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (b.asking) {
      if (/^[0-9]$/.test(e.key)) {
        e.preventDefault();
        b.chooseKey(e.key);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        b.skipChoice();
        return;
      }
    }
    if (e.key === '+' || e.key === '-') {
      e.preventDefault();
      b.bump(e.key === '+' ? 1 : -1);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      if (b.count > 0) b.select((b.selected + (e.key === 'ArrowDown' ? 1 : -1) + b.count) % b.count);
    } else if (e.key === 'Enter' && query.trim() !== '') {
      // Enter adds what the box holds; an empty box lets Enter charge, as from any box.
      e.preventDefault();
      if (b.addFromPad(query)) setQuery('');
    } else if (e.key === 'Escape' && query) {
      e.preventDefault();
      e.stopPropagation();
      setQuery('');
    }
  };

  if (b.catalogueError)
    return (
      <div className="pad pad-error" role="status">
        Concessions could not be read: {b.catalogueError}{' '}
        <button type="button" onClick={() => void b.loadCatalogue()}>
          Try again
        </button>
      </div>
    );
  if (b.catalogue && entries.length === 0) return null;

  return (
    <div className="pad" data-testid="concessions-pad" data-compact={b.count > 0 && !props.roomy ? 'true' : undefined}>
      <label className="pad-find">
        <span>
          Concessions <kbd aria-hidden="true">{PAD_KEY}</kbd>
        </span>
        <input
          ref={ref}
          name="pad"
          autoComplete="off"
          spellCheck={false}
          value={query}
          placeholder="Code, number or name · Enter adds"
          title="Enter adds · + and - change the quantity of the marked line · ↑ ↓ mark another line"
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKey}
        />
      </label>
      {b.asking ? (
        <div className="pad-ask" role="group" aria-label={`Choose the ${b.asking.component}`} data-testid="pad-ask">
          <strong>Choose the {b.asking.component}:</strong>
          {b.asking.options.map((o) => (
            <button
              key={o.code}
              type="button"
              disabled={o.soldOut}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => b.chooseKey(o.key)}
            >
              <kbd>{o.key}</kbd> {o.name}
              {o.soldOut ? ' (sold out)' : ''}
            </button>
          ))}
          <span className="hint">Esc: later</span>
        </div>
      ) : (
        <ul className="pad-list" aria-label="On the pad">
          {found.map((e, i) => (
            <li key={e.code}>
              <button
                type="button"
                tabIndex={-1}
                className={query.trim() && i === 0 ? 'pad-first' : undefined}
                disabled={e.soldOut}
                onMouseDown={(ev) => ev.preventDefault()}
                onClick={() => b.addFromPad(e.code)}
              >
                <span className="pad-no">{e.position}</span>
                <span className="pad-name">{e.name}</span>
                <span className="pad-price">{e.soldOut ? 'sold out' : formatNaira(e.priceKobo)}</span>
              </button>
            </li>
          ))}
          {found.length === 0 && <li className="hint">Nothing matches “{query.trim()}”</li>}
        </ul>
      )}
      {b.padMessage && (
        <p className="field-error" role="status">
          {b.padMessage}
        </p>
      )}
    </div>
  );
});
