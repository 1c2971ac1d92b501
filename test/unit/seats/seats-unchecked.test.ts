// What a sale sent without the check across counters says (shared/seats.ts): the one line the
// payment panel, the order's detail and the receipt show when its Hub was unreachable (not for a
// counter without a Hub, nor a sale held, refused or taken), and the order's "Seat hold" fact.
import { describe, expect, it } from 'vitest';
import { seatHoldText, SEATS_UNCHECKED, SEATS_UNCHECKED_REASONS, seatsUncheckedLine } from '../../../shared/seats';

const hold = (outcome: 'held' | 'unchecked' | 'taken' | 'refused' | null, note: string | null) => ({ outcome, note });

describe('a sale sent unchecked', () => {
  it('is said "Seats not checked across counters (Hub unreachable)" only when its Hub could not be asked', () => {
    for (const note of [
      SEATS_UNCHECKED_REASONS.unreachable,
      SEATS_UNCHECKED_REASONS.slow,
      SEATS_UNCHECKED_REASONS.broken('HTTP 502.'),
    ]) {
      expect(note.startsWith(`${SEATS_UNCHECKED.hubUnreachable}: `)).toBe(true);
      expect(seatsUncheckedLine(hold('unchecked', note))).toBe('Seats not checked across counters (Hub unreachable)');
    }
    expect(SEATS_UNCHECKED_REASONS.broken('HTTP 502.')).toContain('(HTTP 502)');
    expect(seatsUncheckedLine(hold('unchecked', SEATS_UNCHECKED_REASONS.noHub))).toBeNull();
    expect(seatsUncheckedLine(hold('held', null))).toBeNull();
    expect(seatsUncheckedLine(hold('refused', 'The Hub would not hold these seats: …'))).toBeNull();
    expect(seatsUncheckedLine(hold(null, null))).toBeNull();
    expect(seatsUncheckedLine(undefined)).toBeNull();
  });

  it("the order's detail says how its hold went", () => {
    expect(seatHoldText(undefined)).toBeUndefined();
    expect(seatHoldText(hold(null, null))).toBe('Being asked of the Hub');
    expect(seatHoldText(hold('held', null))).toBe('Held across counters');
    expect(seatHoldText(hold('unchecked', SEATS_UNCHECKED_REASONS.noHub))).toBe(SEATS_UNCHECKED_REASONS.noHub);
    expect(seatHoldText(hold('taken', 'F7 was just taken at Counter 2'))).toBe('F7 was just taken at Counter 2');
  });
});
