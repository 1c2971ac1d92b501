// The claim sender's answer to a Hub that refuses for the counter's rate (429): sent again after
// the wait the Hub named, a bounded number of times; not after a wait too long to be worth it (the
// journal's sync names the order by then), not for any other refusal, not after the pusher
// stopped. The Hub client is a stand-in answering as the Hub does (HubCallError with its code and
// details): the real 429 against a real Hub is in test/integration/hub-link/order-claim.test.ts.
import { describe, expect, it } from 'vitest';
import { HubCallError, type HubClient } from '../../../core/hub-link';
import {
  createClaimSender,
  orderClaimOf,
  ORDER_CLAIM_MAX_WAIT_MS,
  ORDER_CLAIM_TRIES,
  recentClaims,
} from '../../../core/hub-link/order-claim';
import type { Timers } from '../../../core/lib';

const CONN = { url: 'http://hub.test', counterId: 'c1', credential: 'x'.repeat(32), branch: 'B1' };
const CLAIM = { reference: 'CP-AB12-0001', orderNo: '2511270001' };

/** Timers the test fires by hand: each armed one with its delay. */
function handTimers(): Timers & { armed: { ms: number; fire: () => void; cleared: boolean }[] } {
  const armed: { ms: number; fire: () => void; cleared: boolean }[] = [];
  return {
    armed,
    setTimeout(fn, ms) {
      const t = { ms, fire: fn, cleared: false };
      armed.push(t);
      return t;
    },
    clearTimeout(h) {
      (h as { cleared: boolean }).cleared = true;
    },
  };
}

/** A Hub client answering each claim from a list: an error to throw, or the body. */
function answering(answers: (HubCallError | { claimed: number })[]): HubClient & { calls: number } {
  const c = {
    calls: 0,
    call: () => {
      const a = answers[Math.min(c.calls, answers.length - 1)]!;
      c.calls += 1;
      return a instanceof HubCallError ? Promise.reject(a) : Promise.resolve(a);
    },
    callAnonymous: () => Promise.reject(new Error('not used')),
  };
  return c as unknown as HubClient & { calls: number };
}

const limited = (ms: number) =>
  new HubCallError('HUB_RATE_LIMITED', 'This counter is sending too many requests; slow down.', 429, {
    retryAfterMs: ms,
  });
const settle = () => new Promise<void>((r) => setImmediate(r));
const logs: string[] = [];
const logger = {
  info: (m: string) => logs.push(m),
  warn: (m: string) => logs.push(m),
  error: (m: string) => logs.push(m),
  debug: () => {},
};

describe('order claims', () => {
  it('names a sale only once it carries both its reference and its orderNo, and each orderNo once', () => {
    expect(orderClaimOf('order.created', { reference: 'R1', orderNo: 'N1' })).toEqual({
      reference: 'R1',
      orderNo: 'N1',
    });
    expect(orderClaimOf('order.created', { reference: 'R1' })).toBeNull();
    expect(orderClaimOf('order.printed' as never, { reference: 'R1', orderNo: 'N1' })).toBeNull();
    const seen = recentClaims(2);
    expect(seen.first({ reference: 'R1', orderNo: 'N1' })).not.toBeNull();
    expect(seen.first({ reference: 'R1', orderNo: 'N1' })).toBeNull();
  });

  it('a 429 is sent again after exactly the wait the Hub named, and stops once taken', async () => {
    const timers = handTimers();
    const client = answering([limited(37), limited(5), { claimed: 1 }]);
    const s = createClaimSender({ client, connection: () => CONN, logger }, timers, () => true);
    s.send(CLAIM);
    await settle();
    expect(timers.armed.map((t) => t.ms)).toEqual([37]);
    timers.armed[0]!.fire();
    await settle();
    expect(timers.armed.map((t) => t.ms)).toEqual([37, 5]);
    timers.armed[1]!.fire();
    await settle();
    expect(client.calls).toBe(3);
    expect(timers.armed.length).toBe(2);
  });

  it(`gives up after ${ORDER_CLAIM_TRIES} calls, on a wait over ${ORDER_CLAIM_MAX_WAIT_MS} ms, and on any other refusal`, async () => {
    const timers = handTimers();
    const always = answering([limited(10)]);
    createClaimSender({ client: always, connection: () => CONN, logger }, timers, () => true).send(CLAIM);
    for (let fired = 0; fired < 10; fired++) {
      await settle();
      timers.armed[fired]?.fire();
    }
    expect(always.calls).toBe(ORDER_CLAIM_TRIES);

    const long = answering([limited(ORDER_CLAIM_MAX_WAIT_MS + 1)]);
    const t2 = handTimers();
    createClaimSender({ client: long, connection: () => CONN, logger }, t2, () => true).send(CLAIM);
    await settle();
    expect(t2.armed.length).toBe(0);

    const down = answering([new HubCallError('HUB_UNREACHABLE', 'The Hub could not be reached.', null)]);
    const t3 = handTimers();
    createClaimSender({ client: down, connection: () => CONN, logger }, t3, () => true).send(CLAIM);
    await settle();
    expect(t3.armed.length).toBe(0);
    expect(logs.filter((m) => m.startsWith('hub claim: not taken')).length).toBe(3);
  });

  it('a claim waiting to be sent again is dropped when the pusher stops', async () => {
    const timers = handTimers();
    let running = true;
    const client = answering([limited(20), { claimed: 1 }]);
    const s = createClaimSender({ client, connection: () => CONN, logger }, timers, () => running);
    s.send(CLAIM);
    await settle();
    running = false;
    s.stop();
    expect(timers.armed[0]!.cleared).toBe(true);
    timers.armed[0]!.fire(); // a timer that fires anyway finds the pusher stopped
    await settle();
    expect(client.calls).toBe(1);
  });
});
