// The seat map's rules without a screen: seat states and names, the cursor over gaps, the seats
// typed (lists and ranges) read against the layout, picking and the zone's ticket type.
import { describe, expect, it } from 'vitest';
import type { LayoutCell, ScreenLayout, SeatMapView, SeatTaken } from '../../../shared/seats';
import { seatLook, seatName, takenBySeat } from '../../../shared/seat-state';
import {
  findSeat,
  moveCursor,
  pickProblem,
  readTypedSeats,
  seatCounts,
  startSeat,
  toggleSeat,
  zoneTicketType,
} from '../../../renderer/src/stores/seat-map';

/** A layout from rows written as cells: `7`, `_` (gap), `7x` blocked, `7w` wheelchair, `7c` companion, `:vip` zone. */
function layoutOf(rows: Record<string, string>): ScreenLayout {
  let capacity = 0;
  let width = 0;
  const out = Object.entries(rows).map(([row, text]) => {
    const cells: LayoutCell[] = text.split(' ').map((t, col) => {
      if (t === '_') return { kind: 'gap', col };
      const m = /^(\d+)([xwc]?)(?::(\w+))?$/.exec(t)!;
      const blocked = m[2] === 'x';
      if (!blocked) capacity++;
      return {
        kind: 'seat',
        col,
        id: `${row}${m[1]}`,
        number: Number(m[1]),
        blocked,
        wheelchair: m[2] === 'w',
        companion: m[2] === 'c',
        zone: m[3] ?? null,
      };
    });
    width = Math.max(width, cells.length);
    return { row, cells };
  });
  return { screen: 'Screen 1', zones: [{ id: 'vip', name: 'VIP', ticketType: 'VIP' }], rows: out, width, capacity };
}

const layout = layoutOf({
  A: '1w 2c _ 3 4 5 _ 6',
  B: '1 2 _ 3 4x 5 _ 6',
  C: '_ _ _ 1:vip 2:vip 3:vip _ _',
});
const taken: SeatTaken[] = [
  { seat: 'B1', state: 'sold', counterName: 'Counter 2', mine: false },
  { seat: 'B2', state: 'held', counterName: 'Counter 3', mine: false },
  { seat: 'B3', state: 'held', counterName: 'Counter 1', mine: true },
];
const view: SeatMapView = {
  showId: 1,
  showKey: 'k',
  screen: 'Screen 1',
  layout,
  taken,
  source: { kind: 'hub', at: 0 },
};
const seat = (id: string) => {
  const at = findSeat(layout, id)!;
  const c = layout.rows[at.row]!.cells[at.cell]!;
  if (c.kind !== 'seat') throw new Error('not a seat');
  return c;
};

describe('seat states and names', () => {
  const t = takenBySeat(taken);
  it('names each seat with its state and who took it', () => {
    expect(seatName(seat('A3'), seatLook(seat('A3'), t), null)).toBe('A3, free');
    expect(seatName(seat('B1'), seatLook(seat('B1'), t), null)).toBe('B1, sold at Counter 2');
    expect(seatName(seat('B2'), seatLook(seat('B2'), t), null)).toBe('B2, held at Counter 3');
    expect(seatName(seat('B3'), seatLook(seat('B3'), t), null)).toBe('B3, held at this counter');
    expect(seatName(seat('B4'), seatLook(seat('B4'), t), null)).toBe('B4, blocked');
    expect(seatName(seat('A1'), seatLook(seat('A1'), t), null)).toBe('A1, wheelchair place, free');
    expect(seatName(seat('A2'), seatLook(seat('A2'), t), null)).toBe('A2, companion seat, free');
    expect(seatName(seat('C1'), seatLook(seat('C1'), t), 'VIP')).toBe('C1, VIP, free');
  });
  it('a sale wins over a hold of the same seat, whatever the order they come in', () => {
    const both: SeatTaken[] = [
      { seat: 'A3', state: 'sold', counterName: 'Counter 2', mine: false },
      { seat: 'A3', state: 'held', counterName: 'Counter 3', mine: false },
    ];
    expect(takenBySeat(both).get('A3')!.state).toBe('sold');
    expect(takenBySeat([...both].reverse()).get('A3')!.state).toBe('sold');
  });
  it('counts free, held and sold seats, leaving blocked seats out', () => {
    expect(seatCounts(view)).toEqual({ free: 11, held: 2, sold: 1 });
  });
});

describe('the cursor', () => {
  it('moves along a row over the aisles and stops at its ends', () => {
    let at = findSeat(layout, 'A2')!;
    at = moveCursor(layout, at, 'ArrowRight');
    expect(at).toEqual(findSeat(layout, 'A3'));
    at = moveCursor(layout, findSeat(layout, 'A5')!, 'ArrowRight');
    expect(at).toEqual(findSeat(layout, 'A6'));
    expect(moveCursor(layout, at, 'ArrowRight')).toEqual(at);
    expect(moveCursor(layout, findSeat(layout, 'A1')!, 'ArrowLeft')).toEqual(findSeat(layout, 'A1'));
    expect(moveCursor(layout, findSeat(layout, 'B3')!, 'End')).toEqual(findSeat(layout, 'B6'));
    expect(moveCursor(layout, findSeat(layout, 'B3')!, 'Home')).toEqual(findSeat(layout, 'B1'));
  });
  it('moves to the nearest seat of the next row, front to back and back', () => {
    expect(moveCursor(layout, findSeat(layout, 'A4')!, 'ArrowDown')).toEqual(findSeat(layout, 'B4'));
    // Row C has no seat under B1: the nearest one is its first seat.
    expect(moveCursor(layout, findSeat(layout, 'B1')!, 'ArrowDown')).toEqual(findSeat(layout, 'C1'));
    expect(moveCursor(layout, findSeat(layout, 'C3')!, 'ArrowDown')).toEqual(findSeat(layout, 'C3'));
    expect(moveCursor(layout, findSeat(layout, 'C2')!, 'ArrowUp')).toEqual(findSeat(layout, 'B4'));
    expect(moveCursor(layout, findSeat(layout, 'A6')!, 'ArrowUp')).toEqual(findSeat(layout, 'A6'));
  });
  it('starts in the middle of the room', () => {
    const at = startSeat(layout)!;
    expect(layout.rows[at.row]!.row).toBe('B');
  });
});

describe('seats typed', () => {
  it('reads lists, spaces and ranges of one row, in either direction, against the layout', () => {
    expect(readTypedSeats('a3,a4', layout)).toEqual({ seats: ['A3', 'A4'], unknown: [] });
    expect(readTypedSeats('A3 A5', layout)).toEqual({ seats: ['A3', 'A5'], unknown: [] });
    expect(readTypedSeats('A3-A5', layout).seats).toEqual(['A3', 'A4', 'A5']);
    expect(readTypedSeats('a5 - 3', layout).seats).toEqual(['A5', 'A4', 'A3']);
    expect(readTypedSeats('A3-5,A4', layout).seats).toEqual(['A3', 'A4', 'A5']);
  });
  it('keeps what names no seat of this screen, to be told', () => {
    expect(readTypedSeats('Z9, A3-B4, A40-A50', layout)).toEqual({ seats: [], unknown: ['Z9', 'A3-B4', 'A40-A50'] });
  });
  it('a pick on the map adds or removes one seat and spells a range out', () => {
    expect(toggleSeat('', layout, 'A3')).toBe('A3');
    expect(toggleSeat('A3-A5', layout, 'A6')).toBe('A3,A4,A5,A6');
    expect(toggleSeat('A3-A5', layout, 'A4')).toBe('A3,A5');
    expect(toggleSeat('A3,Z9', layout, 'A4')).toBe('A3,A4,Z9');
  });
});

describe('what the picked seats mean for the sale', () => {
  it('seats all in one zone call for its ticket type; others for none', () => {
    expect(zoneTicketType(layout, ['C1', 'C2'])).toBe('VIP');
    expect(zoneTicketType(layout, ['A3'])).toBeNull();
    expect(zoneTicketType(layout, ['C1', 'A3'])).toBeNull();
    expect(zoneTicketType(layout, [])).toBeNull();
  });
  it('says which seats are taken elsewhere or blocked, and when zones are mixed', () => {
    expect(pickProblem(view, ['A3', 'A4'])).toBeNull();
    expect(pickProblem(view, ['B3'])).toBeNull();
    expect(pickProblem(view, ['B1', 'B2'])).toBe(
      'B1 is sold at Counter 2; B2 is held at Counter 3: pick another seat.',
    );
    expect(pickProblem(view, ['B4'])).toBe('B4 is blocked: pick another seat.');
    expect(pickProblem(view, ['C1', 'A3'])).toMatch(/different zones \(VIP and standard\)/);
  });
});
