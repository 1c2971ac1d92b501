// The one seat-state model (shared/seat-state.ts) both seat maps draw: the counter's Sell screen with
// its own sales marked `mine`, the Hub dashboard's with the Hub's rows (no `mine`). A seat's state and
// spoken name, sold beats held in any order, blocked beats any sale, the counts and the legend's words.
import { describe, expect, it } from 'vitest';
import type { HubSeatTaken } from '../../../shared/hub-seats-contract';
import type { LayoutCell, LayoutSeat, ScreenLayout } from '../../../shared/seats';
import {
  SEAT_STATE_WORDS,
  seatCounts,
  seatLegend,
  seatLook,
  seatName,
  takenBySeat,
  type SeatTakenLike,
} from '../../../shared/seat-state';

const seatOf = (id: string, more: Partial<LayoutSeat> = {}): LayoutSeat => ({
  kind: 'seat',
  col: Number(id.slice(1)) - 1,
  id,
  number: Number(id.slice(1)),
  blocked: false,
  wheelchair: false,
  companion: false,
  zone: null,
  ...more,
});

const cells: LayoutCell[] = [
  seatOf('A1', { wheelchair: true }),
  seatOf('A2', { companion: true }),
  seatOf('A3'),
  seatOf('A4', { blocked: true }),
  seatOf('A5', { zone: 'sofa' }),
];
const layout: ScreenLayout = {
  screen: 'Screen 1',
  zones: [{ id: 'sofa', name: 'Sofa', ticketType: 'Couple' }],
  rows: [{ row: 'A', cells }],
  width: 5,
  capacity: 4,
};
const at = (id: string) => cells.find((c): c is LayoutSeat => c.kind === 'seat' && c.id === id)!;

describe('the seat-state model', () => {
  it('sold beats held whatever order the rows come in, on either map', () => {
    const hub: HubSeatTaken[] = [
      { seat: 'A3', state: 'held', counterId: 'c3', counterName: 'Counter 3' },
      { seat: 'A3', state: 'sold', counterId: 'c2', counterName: 'Counter 2' },
    ];
    for (const rows of [hub, [...hub].reverse()]) {
      const look = seatLook(at('A3'), takenBySeat(rows));
      expect(look).toEqual({ state: 'sold', by: 'Counter 2', mine: false });
      expect(seatName(at('A3'), look, null)).toBe('A3, sold at Counter 2');
    }
  });

  it('a blocked seat is blocked whatever a sale says; a free one is free', () => {
    const rows: SeatTakenLike[] = [{ seat: 'A4', state: 'sold', counterName: 'Counter 2' }];
    expect(seatName(at('A4'), seatLook(at('A4'), takenBySeat(rows)), null)).toBe('A4, blocked');
    expect(seatName(at('A1'), seatLook(at('A1'), new Map()), null)).toBe('A1, wheelchair place, free');
    expect(seatName(at('A2'), seatLook(at('A2'), new Map()), null)).toBe('A2, companion seat, free');
    expect(seatName(at('A5'), seatLook(at('A5'), new Map()), 'Sofa')).toBe('A5, Sofa, free');
  });

  it("the counter's own sale is said as this counter's and marked mine", () => {
    const rows: SeatTakenLike[] = [{ seat: 'A3', state: 'held', counterName: 'Counter 1', mine: true }];
    const look = seatLook(at('A3'), takenBySeat(rows));
    expect(look).toEqual({ state: 'held', by: 'this counter', mine: true });
    expect(seatName(at('A3'), look, null)).toBe('A3, held at this counter');
  });

  it('counts free, held and sold seats of the layout, blocked ones left out', () => {
    const rows: SeatTakenLike[] = [
      { seat: 'A1', state: 'held', counterName: 'Counter 2' },
      { seat: 'A1', state: 'sold', counterName: 'Counter 3' },
      { seat: 'A3', state: 'held', counterName: 'Counter 2' },
      { seat: 'A4', state: 'sold', counterName: 'Counter 2' },
    ];
    expect(seatCounts(layout, rows)).toEqual({ free: 2, held: 1, sold: 1 });
    expect(seatCounts(null, rows)).toEqual({ free: 0, held: 0, sold: 0 });
  });

  it("the legend's words: the states, the layout's kinds of seat and its zones; Chosen on the counter only", () => {
    expect(seatLegend(layout).map((e) => e.label)).toEqual([
      SEAT_STATE_WORDS.free,
      'Held (being paid)',
      'Sold',
      'Blocked',
      'Wheelchair place',
      'Companion seat',
      'Sofa (Couple tickets)',
    ]);
    expect(
      seatLegend(layout, { chosen: true })
        .map((e) => e.label)
        .slice(0, 2),
    ).toEqual(['Free', 'Chosen']);
    const plain: ScreenLayout = { ...layout, zones: [], rows: [{ row: 'A', cells: [seatOf('A1')] }] };
    expect(seatLegend(plain).map((e) => e.label)).toEqual(['Free', 'Held (being paid)', 'Sold']);
  });
});
