// A fake clock with fake timers for the order lifecycle: time moves only when a test advances it,
// and every due timer fires in order, with promise chains settled between timers.
import type { Clock } from '../../shared/clock';
import type { Timers } from '../../core/lib/timers';

interface Pending {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets promise chains (fake provider answers, journal writes, follow-up calls) run to quiet. */
export async function settle(rounds = 25): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

export function fakeTime(start = Date.UTC(2025, 0, 31, 9, 0, 0)) {
  let now = start;
  let nextId = 1;
  const pending: Pending[] = [];
  const clock: Clock = { now: () => now };
  const timers: Timers = {
    setTimeout(fn, ms) {
      const t = { id: nextId++, at: now + Math.max(0, ms), fn };
      pending.push(t);
      return t.id;
    },
    clearTimeout(handle) {
      const i = pending.findIndex((p) => p.id === handle);
      if (i >= 0) pending.splice(i, 1);
    },
  };

  function takeDue(until: number): Pending | null {
    let best: Pending | null = null;
    for (const p of pending)
      if (p.at <= until && (!best || p.at < best.at || (p.at === best.at && p.id < best.id))) best = p;
    if (best) pending.splice(pending.indexOf(best), 1);
    return best;
  }

  return {
    clock,
    timers,
    get now() {
      return now;
    },
    /** Timers still waiting, soonest first (for asserting schedules). */
    pendingAt(): number[] {
      return pending.map((p) => p.at).sort((a, b) => a - b);
    },
    async advance(ms: number): Promise<void> {
      const target = now + ms;
      await settle();
      for (;;) {
        const t = takeDue(target);
        if (!t) break;
        now = Math.max(now, t.at);
        t.fn();
        await settle();
      }
      now = target;
      await settle();
    },
    /** Advances in steps until `done()` holds; fails after `maxMs` of fake time. */
    async until(done: () => boolean, maxMs = 10 * 60_000, stepMs = 250): Promise<void> {
      const limit = now + maxMs;
      await settle();
      while (!done()) {
        if (now >= limit) throw new Error(`condition not met within ${maxMs} ms of fake time`);
        await this.advance(stepMs);
      }
    },
  };
}
export type FakeTime = ReturnType<typeof fakeTime>;
