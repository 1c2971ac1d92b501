// The picked show's seat map on the Sell screen: the screen at the front, rows with their letters,
// aisles and gaps, each seat a button ("F7, free", "F7, sold at Counter 2"). Keyboard first: the
// arrow keys move a cursor over the seats (gaps skipped), Space picks or unpicks, a digit 1–9 picks
// the best seats together, Enter charges. Mouse and touch pick with a click or a tap.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LayoutSeat, ScreenLayout, SeatMapView, SeatTaken } from '../../../../shared/seats';
import { seatLegend, seatLook, seatName, takenBySeat } from '../../../../shared/seat-state';
import { findSeat, moveCursor, seatCounts, startSeat, type CursorKey, type SeatAt } from '../../stores/seat-map';
import '../../seat-map.css';

const CURSOR_KEYS: readonly string[] = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];
/** The "best N seats together" buttons (a digit key on the map does the same, up to 9). */
export const BEST_COUNTS = [1, 2, 3, 4, 5, 6] as const;

export interface SeatMapProps {
  view: SeatMapView & { layout: ScreenLayout };
  /** The seats chosen for this sale. */
  picked: readonly string[];
  onToggle(seat: string): void;
  onBest(count: number): void;
  onCharge(): void;
}

export function SeatMap({ view, picked, onToggle, onBest, onCharge }: SeatMapProps) {
  const { layout } = view;
  const taken = useMemo(() => takenBySeat(view.taken), [view.taken]);
  const pickedSet = useMemo(() => new Set(picked), [picked]);
  const zoneNames = useMemo(() => new Map(layout.zones.map((z) => [z.id, z.name])), [layout.zones]);
  const [cursorState, setCursor] = useState<SeatAt | null>(null);
  // The cursor starts on the first seat chosen, else in the middle of the room.
  const cursor =
    cursorState && layout.rows[cursorState.row]?.cells[cursorState.cell]?.kind === 'seat'
      ? cursorState
      : ((picked[0] ? findSeat(layout, picked[0]) : null) ?? startSeat(layout));
  const gridRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  // A show's map comes into view whole, above the sticky Charge row, once per show.
  useEffect(() => {
    const sec = sectionRef.current;
    const charge = sec?.closest('form')?.querySelector('.charge-row');
    const scroller = sec?.closest('.content');
    if (!sec || !charge || !scroller) return;
    const over = sec.getBoundingClientRect().bottom - (charge.getBoundingClientRect().top - 6);
    if (over > 0) scroller.scrollTop += over;
  }, [view.showId]);
  const counts = useMemo(() => seatCounts(view), [view]);
  const toggleRef = useRef(onToggle);
  toggleRef.current = onToggle;
  const pickAt = useCallback((row: number, cell: number, id: string) => {
    setCursor({ row, cell });
    toggleRef.current(id);
  }, []);

  const focusAt = (at: SeatAt) => {
    setCursor(at);
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-at="${at.row}:${at.cell}"]`)?.focus();
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !cursor) return;
    if (CURSOR_KEYS.includes(e.key)) {
      e.preventDefault();
      focusAt(moveCursor(layout, cursor, e.key as CursorKey));
    } else if (e.key === ' ') {
      e.preventDefault();
      const c = layout.rows[cursor.row]?.cells[cursor.cell];
      if (c?.kind === 'seat') onToggle(c.id);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      onCharge();
    } else if (/^[1-9]$/.test(e.key)) {
      e.preventDefault();
      onBest(Number(e.key));
    }
  };

  return (
    <section ref={sectionRef} className="seat-map" aria-labelledby="seat-map-title" data-testid="seat-map">
      <h3 id="seat-map-title">
        <span className="sr-only">Seat map of </span>
        {layout.screen}
        <span className="seat-map-counts" data-testid="seat-counts">
          {counts.free} free · {counts.held} held · {counts.sold} sold
        </span>
      </h3>
      {view.source.kind === 'local' && (
        <p className="seat-map-local" role="status" data-testid="seat-map-local">
          {view.source.reason}
        </p>
      )}
      <div className="seat-map-scroll">
        <div className="seat-screen" aria-hidden="true">
          Screen
        </div>
        <div
          ref={gridRef}
          className="seat-rows"
          role="group"
          aria-label={`Seats of ${layout.screen}: arrow keys move, Space picks, 1 to 9 pick the best seats together, Enter charges`}
          onKeyDown={onKeyDown}
          style={{ '--seat-cols': layout.width } as React.CSSProperties}
        >
          {layout.rows.map((row, r) => (
            <SeatRow
              key={row.row}
              r={r}
              row={row}
              width={layout.width}
              taken={taken}
              picked={pickedSet}
              zoneNames={zoneNames}
              cursorCell={cursor && cursor.row === r ? cursor.cell : -1}
              onPick={pickAt}
            />
          ))}
        </div>
      </div>
      <div className="seat-best" role="group" aria-label="Best seats together">
        <span aria-hidden="true">Best together:</span>
        {BEST_COUNTS.map((n) => (
          <button key={n} type="button" aria-label={`Best ${n} seats together`} onClick={() => onBest(n)}>
            {n}
          </button>
        ))}
      </div>
      <Legend layout={layout} />
    </section>
  );
}

interface SeatRowProps {
  r: number;
  row: ScreenLayout['rows'][number];
  width: number;
  taken: ReadonlyMap<string, SeatTaken>;
  picked: ReadonlySet<string>;
  zoneNames: ReadonlyMap<string, string>;
  cursorCell: number;
  onPick(row: number, cell: number, id: string): void;
}

const SeatRow = memo(function SeatRow({ r, row, width, taken, picked, zoneNames, cursorCell, onPick }: SeatRowProps) {
  return (
    <div className="seat-row">
      <span className="seat-row-name" aria-hidden="true">
        {row.row}
      </span>
      {row.cells.map((c, i) =>
        c.kind === 'gap' ? (
          <span key={`g${c.col}`} className="seat-gap" style={{ gridColumn: c.col + 2 }} />
        ) : (
          <Seat
            key={c.id}
            seat={c}
            at={`${r}:${i}`}
            taken={taken}
            picked={picked.has(c.id)}
            zoneName={c.zone ? (zoneNames.get(c.zone) ?? c.zone) : null}
            cursor={i === cursorCell}
            onPick={() => onPick(r, i, c.id)}
          />
        ),
      )}
      <span className="seat-row-name" style={{ gridColumn: width + 2 }} aria-hidden="true">
        {row.row}
      </span>
    </div>
  );
});

interface SeatProps {
  seat: LayoutSeat;
  at: string;
  taken: ReadonlyMap<string, SeatTaken>;
  picked: boolean;
  zoneName: string | null;
  cursor: boolean;
  onPick(): void;
}

function Seat({ seat, at, taken, picked, zoneName, cursor, onPick }: SeatProps) {
  const look = seatLook(seat, taken);
  const name = seatName(seat, look, zoneName);
  // A seat held or sold by this counter's own sale stays pickable (it is the sale being made again).
  const pickable = look.state === 'free' || (look.mine && look.state === 'held') || picked;
  return (
    <button
      type="button"
      className="seat"
      data-at={at}
      data-state={look.state}
      data-mine={look.mine ? 'true' : undefined}
      data-zone={seat.zone ?? undefined}
      data-kind={seat.wheelchair ? 'wheelchair' : seat.companion ? 'companion' : undefined}
      style={{ gridColumn: seat.col + 2 }}
      aria-label={name}
      aria-pressed={picked}
      aria-disabled={pickable ? undefined : true}
      tabIndex={cursor ? 0 : -1}
      title={name}
      onClick={() => {
        if (pickable) onPick();
      }}
    >
      {seat.wheelchair ? '♿' : seat.number}
    </button>
  );
}

function Legend({ layout }: { layout: ScreenLayout }) {
  return (
    <ul className="seat-legend" aria-label="Legend">
      {seatLegend(layout, { chosen: true }).map((e) => (
        <li key={e.key}>
          <span
            className="seat seat-key"
            data-state={e.state}
            data-picked={e.picked ? 'true' : undefined}
            data-kind={e.kind}
            data-zone={e.zone}
            aria-hidden="true"
          >
            {e.kind === 'wheelchair' ? '♿' : null}
          </span>{' '}
          {e.label}
        </li>
      ))}
    </ul>
  );
}
