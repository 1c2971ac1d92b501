// Offline: sales queue when the provider cannot be reached and go out oldest first when it can,
// with backoff and jitter; a queued sale too late to be paid expires unsent; checks pause; and
// status checks stay one per order and under the global rate cap.
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';

let h: CheckoutHarness;
afterEach(async () => h?.close());

describe('outbox', () => {
  it('queues while unreachable, then sends oldest first when the provider is back; exactly one order each', async () => {
    h = checkoutHarness();
    h.pos.defaultCreate = 'unreachable';
    // Three terminals: one terminal never holds two unpaid orders (charge-door.test.ts).
    const a = await h.sell({ seats: 'A1,A2', sn: 'TERM-0001' });
    await h.time.advance(0);
    expect(h.svc.get(a.id)).toMatchObject({
      state: 'queued',
      reason: expect.stringMatching(/No connection.*as soon as the connection is back/),
    });
    expect(h.connectivity.at(-1)).toEqual({ online: false, queueLength: 1 });
    const b = await h.sell({ seats: 'B1,B2', sn: 'TERM-0002' });
    const c = await h.sell({ seats: 'C1,C2', sn: 'TERM-0003' });
    expect([b.state, c.state]).toEqual(['queued', 'queued']); // behind the older one, not sent ahead of it
    expect(h.svc.listQueued().map((o) => o.id)).toEqual([a.id, b.id, c.id]);
    expect(h.connectivity.at(-1)).toEqual({ online: false, queueLength: 3 });
    expect(h.svc.get(b.id)!.nextActionAt).toBeGreaterThan(h.time.now);

    await h.time.advance(20_000); // probes keep failing: only the oldest is tried each time
    const tried = new Set(h.pos.calls.filter((x) => x.op === 'create').map((x) => x.key));
    expect([...tried]).toEqual([a.outOrderNo]);

    h.pos.defaultCreate = 'ok';
    await h.time.until(() => h.svc.listQueued().length === 0, 60_000);
    await h.until(c.id, 'waiting');
    const firstOk = h.pos.calls
      .filter((x) => x.op === 'create')
      .slice(-3)
      .map((x) => x.key);
    expect(firstOk).toEqual([a.outOrderNo, b.outOrderNo, c.outOrderNo]);
    expect(h.connectivity.at(-1)).toEqual({ online: true, queueLength: 0 });
    expect(h.pos.orders.size).toBe(3);
    for (const o of [a, b, c]) expect(h.svc.get(o.id)!.state).toBe('waiting');
    // Every attempt is journaled as `creating` before it goes out; failed ones fall back to queued.
    expect(h.path(a.id)).toMatch(/^creating>queued(>creating>queued)*>creating>waiting$/);
    expect(h.path(b.id)).toBe('queued>creating>waiting');
    expect(h.svc.get(a.id)!.attempts).toBe(h.pos.creates(a.outOrderNo));
  });

  it('retries with doubling backoff and the injected jitter', async () => {
    h = checkoutHarness({ random: () => 0 });
    h.pos.defaultCreate = 'unreachable';
    await h.sell();
    await h.time.advance(60_000);
    const times = h.pos.calls.map((c) => c.at - h.pos.calls[0]!.at);
    // equal jitter with random 0: half of 1, 2, 4, 8, 15 (cap) seconds
    expect(times.slice(0, 6)).toEqual([0, 500, 1_500, 3_500, 7_500, 15_000]);
    expect(times[6]! - times[5]!).toBe(7_500);
  });

  it('jitter spreads the retries of counters that lost the network together', async () => {
    h = checkoutHarness({ random: () => 0.999 });
    h.pos.defaultCreate = 'unreachable';
    await h.sell();
    await h.time.advance(4_000);
    const times = h.pos.calls.map((c) => c.at - h.pos.calls[0]!.at);
    expect(times.slice(0, 3)).toEqual([0, 1_000, 2_999]); // 1000 + 1999: the random half of each step
  });

  it('a queued sale that could no longer be paid before it expires is not sent: it expires, with a reason and an event', async () => {
    h = checkoutHarness({ settings: { orderExpireSeconds: 60 } });
    h.pos.defaultCreate = 'unreachable';
    const v = await h.sell();
    await h.time.advance(0);
    const createsWhileOffline = () => h.pos.creates(v.outOrderNo);
    await h.time.advance(39_000);
    expect(h.state(v.id)).toBe('queued');
    await h.time.advance(1_001); // 60 s expiry - 20 s minimum useful time
    const expired = h.svc.get(v.id)!;
    expect(expired.state).toBe('expired');
    expect(expired.reason).toMatch(/could not be sent to the terminal before it expired.*Nothing was charged/);
    expect(h.events.at(-1)).toMatchObject({ id: v.id, state: 'expired' });
    expect(h.connectivity.at(-1)).toEqual({ online: false, queueLength: 0 });
    const n = createsWhileOffline();
    h.pos.defaultCreate = 'ok';
    await h.time.advance(60_000);
    expect(h.pos.creates(v.outOrderNo)).toBe(n);
    expect(h.pos.orders.size).toBe(0);
  });

  it('when the provider comes back too late for a queued sale, that one expires and the next is sent', async () => {
    h = checkoutHarness({ settings: { orderExpireSeconds: 60 } });
    h.pos.defaultCreate = 'unreachable';
    const old = await h.sell({ seats: 'A1,A2', sn: 'TERM-0001' });
    await h.time.advance(30_000);
    const young = await h.sell({ seats: 'B1,B2', sn: 'TERM-0002' });
    await h.time.advance(15_000);
    h.pos.defaultCreate = 'ok';
    await h.until(young.id, 'waiting', 30_000);
    expect(h.state(old.id)).toBe('expired');
    expect(h.pos.orders.has(old.outOrderNo)).toBe(false);
    // The late send asks the provider only for the time the sale has left.
    expect(h.pos.orders.get(young.outOrderNo)!.input.orderExpireSeconds).toBeLessThan(60);
  });

  it('checkNow on a queued sale tries the queue at once', async () => {
    h = checkoutHarness({ tuning: { backoff: { baseMs: 60_000, maxMs: 60_000 } } });
    h.pos.defaultCreate = 'unreachable';
    const v = await h.sell();
    await h.time.advance(0);
    h.pos.defaultCreate = 'ok';
    const after = await h.svc.checkNow(v.id);
    await h.time.advance(0);
    expect(['creating', 'waiting']).toContain(after.state);
    expect(h.state(v.id)).toBe('waiting');
  });
});

describe('status checks', () => {
  it('pause while the provider is unreachable and resume when it is back', async () => {
    h = checkoutHarness({ random: () => 0 });
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.defaultQuery = 'unreachable';
    await h.time.advance(1_000);
    expect(h.connectivity.at(-1)).toEqual({ online: false, queueLength: 0 });
    const before = h.pos.queries();
    await h.time.advance(20_000);
    // Only the backing-off probe asks (0.5, 1, 2, 4, 7.5 s apart), not a check a second.
    expect(h.pos.queries() - before).toBeLessThanOrEqual(5);
    h.pos.defaultQuery = 'ok';
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    await h.until(v.id, 'paid', 30_000);
    expect(h.connectivity.at(-1)).toEqual({ online: true, queueLength: 0 });
  });

  it('one request in flight per order: a slow check is shared, never doubled', async () => {
    h = checkoutHarness();
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.queryPlan.push('hold');
    await h.time.advance(10_000);
    expect(h.pos.heldCount).toBe(1);
    const check = h.svc.checkNow(v.id);
    await h.time.advance(5_000);
    expect(h.pos.queries()).toBe(1);
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    h.pos.release();
    expect((await check).state).toBe('paid');
    expect(h.pos.maxInFlightPerKey.get(h.svc.get(v.id)!.orderNo!)).toBe(1);
  });

  it('a global cap on checks per second, however many orders wait', async () => {
    h = checkoutHarness({ tuning: { maxChecksPerSecond: 5, checkBurst: 5 } });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await h.sell({ sn: `TERM-${String(i).padStart(4, '0')}` })).id);
    await h.time.until(() => ids.every((id) => h.state(id) === 'waiting'), 5_000, 1);
    const start = h.time.now;
    await h.time.advance(20_000);
    const at = h.pos.calls.filter((c) => c.op === 'query' && c.at >= start).map((c) => c.at);
    for (const t0 of at) expect(at.filter((t) => t >= t0 && t < t0 + 1_000).length).toBeLessThanOrEqual(5 + 5);
    expect(at.length).toBeLessThanOrEqual(5 + 5 * 20);
    expect(at.length).toBeGreaterThanOrEqual(5 * 20 - 5); // and the capacity is used
    // Every order gets its fair turn: first come, first served for the tokens.
    const perOrder = new Map<string, number>();
    for (const c of h.pos.calls)
      if (c.op === 'query' && c.at >= start) perOrder.set(c.key, (perOrder.get(c.key) ?? 0) + 1);
    expect(perOrder.size).toBe(20);
    expect(Math.min(...perOrder.values())).toBeGreaterThanOrEqual(4);
  });
});
