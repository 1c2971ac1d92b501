// The one hold deadline (issue 37): the checkout waits on the SeatHolds port longer than the Hub's
// link waits on the Hub (SEAT_HOLD_WAIT_MS < SEAT_HOLD_DEADLINE_MS, shared/seats.ts), so a Hub that
// is reachable but slow is waited for and obeyed, and one slower than the wait is said so in the
// link's own words. Once the checkout gave up at 400 ms while the link still waited 800 ms: a hold
// answered at 600 ms came back "not checked" and the sale went to the provider unchecked. A real
// journal and seat-hold table (SQLite), the hold step itself, and a hand-driven clock for its timers.
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { OrderJournal } from '../../../core/orders/order-journal';
import { holdForSale, SeatHoldStore, type SeatPlan } from '../../../core/orders/seat-holding';
import { SEAT_HOLD_REASONS } from '../../../core/hub-link/link-seat-holds';
import type { TimerHandle, Timers } from '../../../core/lib';
import { memoryLogger } from '../../../shared/logger';
import {
  SEAT_HOLD_DEADLINE_MS,
  SEAT_HOLD_WAIT_MS,
  SEATS_UNCHECKED_REASONS,
  type SeatHoldOutcome,
  type SeatHolds,
} from '../../../shared/seats';
import { sale, tempDbFile } from '../../helpers/orders-db';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Timers run by hand: `advance(to)` fires what is due up to `to`, in time order, letting promises settle between. */
function handClock() {
  let now = 0;
  let next = 0;
  const due: { at: number; id: number; fn: () => void }[] = [];
  const settle = () => new Promise<void>((ok) => setImmediate(ok));
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      due.push({ at: now + ms, id: ++next, fn });
      return next;
    },
    clearTimeout: (h: TimerHandle) => {
      const i = due.findIndex((d) => d.id === h);
      if (i >= 0) due.splice(i, 1);
    },
  };
  return {
    timers,
    /** A promise the clock resolves `ms` from now with `value`. */
    at: <T>(ms: number, value: T) => new Promise<T>((ok) => timers.setTimeout(() => ok(value), ms)),
    async advance(to: number) {
      for (;;) {
        await settle();
        due.sort((a, b) => a.at - b.at || a.id - b.id);
        const d = due[0];
        if (!d || d.at > to) break;
        due.shift();
        now = d.at;
        d.fn();
      }
      now = to;
      await settle();
    },
  };
}

const PLAN: SeatPlan = {
  showKey: '2025-01-31 19:30 screen 1',
  show: { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', date: '2025-01-31', time: '19:30', screen: 'Screen 1' },
  seats: ['F7', 'F8'],
};

/** A journaled sale with its seats, and the hold step over a port that answers as told. */
function holdStep(answer: (clock: ReturnType<typeof handClock>) => Promise<SeatHoldOutcome>) {
  const { file, cleanup } = tempDbFile();
  const db = openJournalDb(file);
  cleanups.push(() => {
    db.close();
    cleanup();
  });
  const clock = handClock();
  const journal = new OrderJournal(db, () => Date.UTC(2025, 0, 31, 9, 0));
  const store = new SeatHoldStore(db);
  const rec = journal.insert({
    sale: sale(),
    amountKobo: 710_000,
    counterCode: 'COU3',
    businessDay: '250131',
    createdAt: Date.UTC(2025, 0, 31, 9, 0),
    expireSeconds: 300,
    state: 'creating',
    attempts: 1,
    headMerchantId: 'H1',
    merchantId: 'M1',
    note: 'Sale recorded',
    alongside: (id) => store.insert(id, PLAN),
  });
  const holds: SeatHolds = { hold: () => answer(clock), settle: () => {} };
  const step = holdForSale(
    { journal, store, holds: () => holds, timers: clock.timers, logger: memoryLogger(), changed: () => {} },
    rec,
    PLAN,
    false,
  );
  return { clock, step, hold: () => store.of(rec.id), state: () => journal.get(rec.id)!.state };
}

describe('the one hold deadline', () => {
  it('the Hub’s wait ends before the checkout’s bound', () => {
    expect(SEAT_HOLD_WAIT_MS).toBeLessThan(SEAT_HOLD_DEADLINE_MS);
  });

  it('a Hub that holds the seats in 600 ms is waited for: the sale goes on held, not unchecked', async () => {
    const s = holdStep((c) => c.at(600, { kind: 'held' }));
    await s.clock.advance(600);
    expect(await s.step).toBe('go');
    expect(s.hold()).toMatchObject({ outcome: 'held', note: null });
  });

  it('a Hub that says "taken" in 600 ms is obeyed: the sale ends failed and is never sent', async () => {
    const s = holdStep((c) =>
      c.at(600, { kind: 'taken', taken: [{ seat: 'F7', state: 'held', counterName: 'Counter 2', mine: false }] }),
    );
    await s.clock.advance(600);
    expect(await s.step).toBe('stop');
    expect(s.state()).toBe('failed');
    expect(s.hold()).toMatchObject({
      outcome: 'taken',
      note: expect.stringContaining('F7 was just taken at Counter 2'),
    });
  });

  it('a Hub slower than the wait: the link’s own “did not answer in time” reaches the order', async () => {
    const s = holdStep((c) => c.at(SEAT_HOLD_WAIT_MS, { kind: 'unchecked', reason: SEAT_HOLD_REASONS.slow }));
    await s.clock.advance(SEAT_HOLD_WAIT_MS);
    expect(await s.step).toBe('go');
    expect(s.hold()).toMatchObject({ outcome: 'unchecked', note: SEAT_HOLD_REASONS.slow });
  });

  it('a port that never answers is cut off at the checkout’s bound', async () => {
    const s = holdStep(() => new Promise<SeatHoldOutcome>(() => {}));
    await s.clock.advance(SEAT_HOLD_DEADLINE_MS - 1);
    expect(s.hold()!.outcome).toBeNull();
    await s.clock.advance(SEAT_HOLD_DEADLINE_MS);
    expect(await s.step).toBe('go');
    expect(s.hold()).toMatchObject({
      outcome: 'unchecked',
      note: SEATS_UNCHECKED_REASONS.slow,
    });
  });
});
