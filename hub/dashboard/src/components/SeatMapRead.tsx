// A show's seat map, read-only (the dashboard): the screen at the front, rows with their letters,
// aisles and gaps, each seat free, held (a payment under way), sold or blocked, wheelchair places,
// companion seats and zones; a legend. Seats are not buttons here: a manager reads, never sells.
// Each seat's state, its name and the legend's words are the counter's too: shared/seat-state.ts.
import type { ScreenLayout } from '../../../../shared/seats';
import { seatLegend, seatLook, seatName, takenBySeat, type SeatTakenLike } from '../../../../shared/seat-state';
import '../seats.css';

export function SeatMapRead({
  layout,
  taken,
  summary,
}: {
  layout: ScreenLayout;
  taken: readonly SeatTakenLike[];
  /** What the map says in words (its accessible name): "Screen 1: 120 sold, 4 held, 236 free". */
  summary: string;
}) {
  const byId = takenBySeat(taken);
  const zones = new Map(layout.zones.map((z) => [z.id, z.name]));
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
              {row.cells.map((c) => {
                if (c.kind === 'gap') return null;
                const look = seatLook(c, byId);
                return (
                  <span
                    key={c.id}
                    className="seatmap-seat"
                    data-state={look.state}
                    data-zone={c.zone ?? undefined}
                    data-kind={c.wheelchair ? 'wheelchair' : c.companion ? 'companion' : undefined}
                    data-seat={c.id}
                    style={{ gridColumn: c.col + 2 }}
                    title={seatName(c, look, c.zone ? (zones.get(c.zone) ?? c.zone) : null)}
                  />
                );
              })}
              <span className="seatmap-rowname" style={{ gridColumn: layout.width + 2 }}>
                {row.row}
              </span>
            </div>
          ))}
        </div>
      </div>
      <ul className="seatmap-legend" aria-label="Legend">
        {seatLegend(layout).map((e) => (
          <li key={e.key}>
            <span
              className="seatmap-seat"
              data-state={e.state}
              data-kind={e.kind}
              data-zone={e.zone}
              aria-hidden="true"
            />{' '}
            {e.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
