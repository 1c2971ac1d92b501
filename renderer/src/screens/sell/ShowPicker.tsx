// Selling from the programme: the next shows (soonest first), filtered as the cashier types; ↑/↓
// and Enter pick one; then the basket of the picked show (PickedShow.tsx). Esc goes back to the list.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ShowView } from '../../../../shared/programme';
import { useNow } from '../../components/useNow';
import { formatNaira } from '../../format';
import { useSale } from '../../stores/sale-store';
import { useSeatMap } from '../../stores/seat-map-store';
import { filterShows, firstNotStarted, startsText } from '../../stores/show-pick';
import { SWITCH_KEY } from './PickedParts';
import { PickedShow } from './PickedShow';
import { ConcessionsSale } from './ConcessionsSale';
import { PAD_KEY } from './ConcessionsPad';

export { SWITCH_KEY };

export function ShowPicker({ shows, sn }: { shows: ShowView[]; sn: string | null }) {
  const pick = useSale((s) => s.pick);
  const concessionsOnly = useSale((s) => s.concessionsOnly);
  if (pick) return <PickedShow sn={sn} />;
  return concessionsOnly ? <ConcessionsSale sn={sn} /> : <ShowList shows={shows} />;
}

function ShowList({ shows }: { shows: ShowView[] }) {
  const pickShow = useSale((s) => s.pickShow);
  const sellConcessions = useSale((s) => s.sellConcessions);
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
    if (e.key === PAD_KEY) {
      e.preventDefault();
      sellConcessions();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
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
        <div className="show-list-actions">
          <button type="button" className="mode-switch" onClick={sellConcessions}>
            Concessions only <kbd aria-hidden="true">{PAD_KEY}</kbd>
          </button>
          <SwitchButton to="hand" />
        </div>
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
        <kbd>↑</kbd> <kbd>↓</kbd> choose · <kbd>Enter</kbd> sell this show · <kbd>{PAD_KEY}</kbd> concessions only ·{' '}
        <kbd>{SWITCH_KEY}</kbd> type a show by hand
      </p>
    </section>
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
