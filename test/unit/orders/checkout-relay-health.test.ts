// The checkout with a relay health source (fake time, fake provider): once the relay is healthy AND
// has delivered a notification for one of this counter's orders, a waiting order costs at most 5
// status checks over its whole life; a healthy stream that never delivered earns nothing (a Hub
// without its merchant file); when the relay drops, every waiting order is checked within 2 s and
// the trust must be earned again by a new delivery.
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayHealthSource } from '../../../core/orders';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';

let h: CheckoutHarness;
afterEach(async () => h?.close());

function fakeRelay(initial: boolean): RelayHealthSource & { set(v: boolean): void; deliver(): void } {
  let healthy = initial;
  const listeners = new Set<(v: boolean) => void>();
  const delivered = new Set<() => void>();
  return {
    healthy: () => healthy,
    onChange(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    onDelivered(l) {
      delivered.add(l);
      return () => delivered.delete(l);
    },
    deliver() {
      for (const l of delivered) l();
    },
    set(v) {
      if (v === healthy) return;
      healthy = v;
      for (const l of listeners) l(v);
    },
  };
}

describe('polling as the safety net', () => {
  it('relay healthy: an order that stays waiting its whole life is checked at most 5 times', async () => {
    h = checkoutHarness();
    const relay = fakeRelay(true);
    h.relayHealth.set(relay);
    relay.deliver(); // the relay earned trust (a notification for another of this counter's orders)
    const o = await h.sell();
    await h.until(o.id, 'waiting');
    await h.until(o.id, 'expired', 20 * 60_000);
    expect(h.pos.queries()).toBeLessThanOrEqual(5);
    expect(h.pos.queries()).toBeGreaterThanOrEqual(1); // the final check still decides
  });

  it('without a relay the same order is checked many times (the comparison that makes the first test mean something)', async () => {
    h = checkoutHarness();
    const o = await h.sell();
    await h.until(o.id, 'expired', 20 * 60_000);
    expect(h.pos.queries()).toBeGreaterThan(20);
  });

  it('relay drops: every waiting order is checked within 2 s, then on the fast schedule; back: quiet again', async () => {
    h = checkoutHarness();
    const relay = fakeRelay(true);
    h.relayHealth.set(relay);
    relay.deliver();
    const a = await h.sell({ seats: 'A1,A2', sn: 'TERM-0001' });
    const b = await h.sell({ seats: 'B1,B2', sn: 'TERM-0002' });
    await h.until(a.id, 'waiting');
    await h.until(b.id, 'waiting');
    await h.time.advance(30_000); // past the first relay check (20 s)
    const before = h.pos.queries();
    await h.time.advance(30_000);
    expect(h.pos.queries()).toBe(before); // nothing between the relay points

    relay.set(false);
    const dropAt = h.time.now;
    await h.time.advance(2_000);
    const after = h.pos.calls.filter((c) => c.op === 'query' && c.at > dropAt);
    expect(new Set(after.map((c) => c.key)).size).toBe(2); // both orders, within 2 s
    await h.time.advance(20_000);
    expect(h.pos.queries() - before).toBeGreaterThan(6); // the fast schedule is back

    relay.set(true);
    relay.deliver(); // back, and it delivered again
    await h.time.advance(1_000);
    const quiet = h.pos.queries();
    await h.time.advance(30_000);
    expect(h.pos.queries() - quiet).toBeLessThanOrEqual(2);
  });

  it('unknown orders are still checked at once while the relay is healthy', async () => {
    h = checkoutHarness();
    h.relayHealth.set(fakeRelay(true));
    h.pos.createPlan.push('timeout');
    const o = await h.sell();
    await h.time.advance(0);
    expect(h.state(o.id)).not.toBe('creating');
    await h.time.advance(100);
    expect(h.pos.queries()).toBeGreaterThanOrEqual(1);
  });

  it('the relay gone (null) returns to the fast schedule at once, and a dropped source is no longer followed', async () => {
    h = checkoutHarness();
    const relay = fakeRelay(true);
    h.relayHealth.set(relay);
    relay.deliver();
    const o = await h.sell();
    await h.until(o.id, 'waiting');
    await h.time.advance(25_000);
    const before = h.pos.queries();
    h.relayHealth.set(null);
    await h.time.advance(2_000);
    expect(h.pos.queries()).toBeGreaterThan(before);
    relay.set(false);
    relay.set(true); // not followed any more: no change to the fast schedule
    const mid = h.pos.queries();
    await h.time.advance(10_000);
    expect(h.pos.queries() - mid).toBeGreaterThanOrEqual(5);
  });

  it('a healthy stream that never delivered a notification earns no trust: the fast schedule stays (a Hub without its merchant file)', async () => {
    h = checkoutHarness();
    const relay = fakeRelay(true);
    h.relayHealth.set(relay);
    const o = await h.sell();
    await h.until(o.id, 'waiting');
    const start = h.pos.queries();
    await h.time.advance(20_000);
    expect(h.pos.queries() - start).toBeGreaterThan(6); // fast, as without a Hub
    relay.deliver(); // the first notification through the relay: now it is trusted
    await h.time.advance(1_000);
    const quiet = h.pos.queries();
    await h.time.advance(30_000);
    expect(h.pos.queries() - quiet).toBeLessThanOrEqual(2);
  });

  it('after a reconnect the relay must deliver again before polling goes quiet; a delivery while unhealthy earns nothing', async () => {
    h = checkoutHarness();
    const relay = fakeRelay(true);
    h.relayHealth.set(relay);
    relay.deliver();
    const o = await h.sell();
    await h.until(o.id, 'waiting');
    await h.time.advance(25_000);
    relay.set(false);
    relay.deliver(); // not healthy: does not count
    relay.set(true); // reconnected, nothing delivered yet
    await h.time.advance(1_000);
    const mid = h.pos.queries();
    await h.time.advance(20_000);
    expect(h.pos.queries() - mid).toBeGreaterThan(6);
    relay.deliver();
    await h.time.advance(1_000);
    const quiet = h.pos.queries();
    await h.time.advance(30_000);
    expect(h.pos.queries() - quiet).toBeLessThanOrEqual(2);
  });
});
