// A show's seat map, read-only (the dashboard): the screen at the front, rows with their letters,
// aisles and gaps, each seat free, held (a payment under way), sold or blocked, wheelchair places,
// companion seats and zones; a legend. Seats are not buttons here: a manager reads, never sells.
import type { LayoutSeat, ScreenLayout } from '../../../../shared/seats';
import '../seats.css';

export interface SeatTakenRead {
  seat: string;
  state: 'held' | 'sold';
  counterName: string;
}

function stateOf(seat: LayoutSeat, taken: ReadonlyMap<string, SeatTakenRead>): 'free' | 'held' | 'sold' | 'blocked' {
  if (seat.blocked) return 'blocked';
  return taken.get(seat.id)?.state ?? 'free';
}

function titleOf(seat: LayoutSeat, taken: ReadonlyMap<string, SeatTakenRead>, zone: string | null): string {
  const t = taken.get(seat.id);
  const kind = [seat.wheelchair ? 'wheelchair place' : null, seat.companion ? 'companion seat' : null, zone]
    .filter(Boolean)
    .join(', ');
  const state = seat.blocked ? 'blocked' : t ? `${t.state} at ${t.counterName}` : 'free';
  return kind ? `${seat.id}, ${kind}, ${state}` : `${seat.id}, ${state}`;
}

export function SeatMapRead({
  layout,
  taken,
  summary,
}: {
  layout: ScreenLayout;
  taken: readonly SeatTakenRead[];
  /** What the map says in words (its accessible name): "Screen 1: 120 sold, 4 held, 236 free". */
  summary: string;
}) {
  const byId = new Map<string, SeatTakenRead>();
  for (const t of taken) if (!byId.has(t.seat) || t.state === 'sold') byId.set(t.seat, t);
  const zones = new Map(layout.zones.map((z) => [z.id, z.name]));
  const has = (k: 'wheelchair' | 'companion' | 'blocked') =>
    layout.rows.some((r) => r.cells.some((c) => c.kind === 'seat' && c[k]));
  return (
    <div className="seatmap-read" data-testid="seat-map-read">
      <div className="seatmap-scroll">
        <div className="seatmap-screen" aria-hidden="true">
          Screen
        </div>
        <div
          className="seatmap-rows"
          role="img"
          aria-label={summary}
          style={{ '--seat-cols': layout.width } as React.CSSProperties}
        >
          {layout.rows.map((row) => (
            <div key={row.row} className="seatmap-row">
              <span className="seatmap-rowname">{row.row}</span>
              {row.cells.map((c) =>
                c.kind === 'gap' ? null : (
                  <span
                    key={c.id}
                    className="seatmap-seat"
                    data-state={stateOf(c, byId)}
                    data-zone={c.zone ?? undefined}
                    data-kind={c.wheelchair ? 'wheelchair' : c.companion ? 'companion' : undefined}
                    data-seat={c.id}
                    style={{ gridColumn: c.col + 2 }}
                    title={titleOf(c, byId, c.zone ? (zones.get(c.zone) ?? c.zone) : null)}
                  />
                ),
              )}
              <span className="seatmap-rowname" style={{ gridColumn: layout.width + 2 }}>
                {row.row}
              </span>
            </div>
          ))}
        </div>
      </div>
      <ul className="seatmap-legend" aria-label="Legend">
        {(
          [
            ['free', 'Free'],
            ['held', 'Held (being paid)'],
            ['sold', 'Sold'],
          ] as const
        ).map(([s, label]) => (
          <li key={s}>
            <span className="seatmap-seat" data-state={s} aria-hidden="true" /> {label}
          </li>
        ))}
        {has('blocked') && (
          <li>
            <span className="seatmap-seat" data-state="blocked" aria-hidden="true" /> Blocked
          </li>
        )}
        {has('wheelchair') && (
          <li>
            <span className="seatmap-seat" data-state="free" data-kind="wheelchair" aria-hidden="true" /> Wheelchair
            place
          </li>
        )}
        {has('companion') && (
          <li>
            <span className="seatmap-seat" data-state="free" data-kind="companion" aria-hidden="true" /> Companion seat
          </li>
        )}
        {layout.zones.map((z) => (
          <li key={z.id}>
            <span className="seatmap-seat" data-state="free" data-zone={z.id} aria-hidden="true" /> {z.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
