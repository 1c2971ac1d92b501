// Never two provider orders for one sale: after a timeout, a lost answer, "already exists" or a
// restart the order is looked up first, and sent again (same number) only if the provider has none.
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { checkoutHarness, type CheckoutHarness } from '../../helpers/orders-harness';
import { tempDbFile } from '../../helpers/orders-db';
import { FakePos } from '../../helpers/orders-fake-pos';
import { fakeTime } from '../../helpers/orders-fake-time';

const hs: CheckoutHarness[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const h of hs.splice(0)) await h.close();
  cleanups.splice(0).forEach((c) => c());
});
function harness(...args: Parameters<typeof checkoutHarness>) {
  const h = checkoutHarness(...args);
  hs.push(h);
  return h;
}

describe('outcome unknown', () => {
  it('timeout -> unknown -> query -> no such order -> created again exactly once (same number)', async () => {
    const h = harness();
    h.pos.createPlan.push('timeout');
    const v = await h.sell();
    await h.time.advance(0);
    expect(h.state(v.id)).not.toBe('creating');
    const waiting = await h.until(v.id, 'waiting');
    expect(h.path(v.id)).toBe('creating>unknown>creating>waiting');
    expect(h.pos.calls.map((c) => c.op)).toEqual(['create', 'query', 'create']);
    expect(h.pos.creates(v.outOrderNo)).toBe(2);
    expect(waiting.attempts).toBe(2);
    expect(waiting.outOrderNo).toBe(v.outOrderNo);
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    await h.until(v.id, 'paid');
    expect(h.pos.creates()).toBe(2);
    expect(h.pos.orders.size).toBe(1);
  });

  it('commit then lost answer -> unknown -> the query finds it: never created twice', async () => {
    const h = harness();
    h.pos.createPlan.push('commit-then-timeout');
    const v = await h.sell();
    const waiting = await h.until(v.id, 'waiting');
    expect(h.pos.creates()).toBe(1);
    expect(waiting.orderNo).toBe(h.pos.detailsOf(v.outOrderNo).orderNo);
    expect(h.path(v.id)).toBe('creating>unknown>waiting');
    h.pos.settle(v.outOrderNo, 'SUCCESS');
    await h.until(v.id, 'paid');
    expect(h.pos.creates()).toBe(1);
  });

  it('HTTP 500 on create is treated as unknown, not as failed', async () => {
    const h = harness();
    h.pos.createPlan.push('http500');
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    expect(h.path(v.id)).toBe('creating>unknown>creating>waiting');
  });

  it('"already exists" means: query it (and it is ours)', async () => {
    const h = harness();
    // An earlier run created this very order; its answer never arrived.
    h.pos.seed({ outOrderNo: 'COU3-250131-0001', amountKobo: 710_000, orderExpireSeconds: 300, sn: 'P30-0012345' });
    const v = await h.sell();
    expect(v.outOrderNo).toBe('COU3-250131-0001');
    const waiting = await h.until(v.id, 'waiting');
    expect(h.pos.calls.map((c) => c.op)).toEqual(['create', 'query']);
    expect(waiting.orderNo).toBe(h.pos.detailsOf(v.outOrderNo).orderNo);
    expect(h.svc.history(v.id)[1]!.note).toMatch(/already exists/);
  });

  it('"already exists" for someone else\'s order under our number fails this sale, charging nothing', async () => {
    const h = harness();
    h.pos.seed({ outOrderNo: 'COU3-250131-0001', amountKobo: 5_000, orderExpireSeconds: 300, sn: 'OTHER-TERM-1' });
    const v = await h.sell();
    const failed = await h.until(v.id, 'failed');
    expect(failed.reason).toMatch(/used by another sale.*Nothing was charged.*own name/);
    expect(h.pos.creates()).toBe(1);
  });

  it('an unknown order that cannot be settled keeps being checked, backing off, until the provider answers', async () => {
    const h = harness();
    h.pos.createPlan.push('timeout');
    h.pos.queryPlan.push('timeout', 'timeout', 'timeout');
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    const q = h.pos.calls.filter((c) => c.op === 'query').map((c) => c.at);
    expect(q).toHaveLength(4);
    expect([q[1]! - q[0]!, q[2]! - q[1]!, q[3]! - q[2]!]).toEqual([1_000, 2_000, 4_000]);
    expect(h.pos.creates()).toBe(2);
  });

  it('no such order and too late to send: expired, not sent', async () => {
    const h = harness({ settings: { orderExpireSeconds: 60 } });
    h.pos.createPlan.push('timeout');
    h.pos.queryPlan.push(...Array(12).fill('timeout'));
    const v = await h.sell();
    const done = await h.until(v.id, 'expired');
    expect(done.reason).toMatch(/never reached the provider.*Nothing was charged/);
    expect(h.pos.creates()).toBe(1);
  });

  it('a status word the app does not know is recorded, never guessed, and does not make it ask in a loop', async () => {
    const h = harness();
    h.pos.seed(
      { outOrderNo: 'COU3-250131-0001', amountKobo: 710_000, orderExpireSeconds: 300, sn: 'P30-0012345' },
      'REFUNDED',
    );
    const v = await h.sell(); // "already exists" -> unknown -> the query answers REFUNDED
    await h.time.advance(60_000);
    expect(h.svc.get(v.id)).toMatchObject({ state: 'unknown', providerStatus: 'REFUNDED' });
    expect(h.pos.queries()).toBeLessThanOrEqual(10); // backing off: 0, 1, 2, 4, 8, 15, 15, 15 s...
    expect(h.svc.listOpen().map((o) => o.id)).toEqual([v.id]);
    h.pos.orders.get(v.outOrderNo)!.status = 'SUCCESS';
    await h.until(v.id, 'paid', 30_000);
    expect(h.svc.listOpen()).toEqual([]);
  });

  it('a waiting order whose final check fails becomes unknown, and is checked until decided', async () => {
    const h = harness({ settings: { orderExpireSeconds: 60 } });
    const v = await h.sell();
    await h.until(v.id, 'waiting');
    h.pos.defaultQuery = 'timeout';
    const unknown = await h.until(v.id, 'unknown');
    expect(unknown.reason).toMatch(/could not be confirmed.*do not hand over/);
    h.pos.settle(v.outOrderNo, 'SUCCESS'); // the customer had paid after all
    h.pos.defaultQuery = 'ok';
    await h.until(v.id, 'paid', 120_000);
  });
});

describe('restart', () => {
  it('resume(): creating -> unknown -> query first; waiting -> checks; queued -> outbox; final untouched', async () => {
    const { file, cleanup } = tempDbFile();
    const dbA = openJournalDb(file);
    cleanups.push(() => {
      dbA.close();
      cleanup();
    });
    const provider = new FakePos();
    const timeA = fakeTime();
    const a = checkoutHarness({ db: dbA, pos: provider, time: timeA });
    // 1: waiting on the terminal; 2: paid; 3: create sent, answer never came (process died);
    // 4 and 5: queued while the provider was unreachable.
    // Each on its own terminal: one terminal never holds two unpaid orders (charge-door.test.ts).
    const w = await a.sell({ sn: 'TERM-0001' });
    await a.until(w.id, 'waiting');
    const p = await a.sell({ seats: 'A1,A2', sn: 'TERM-0002' });
    await a.until(p.id, 'waiting');
    a.svc.onWebhook(provider.settle(p.outOrderNo, 'SUCCESS'));
    provider.createPlan.push('hold');
    const c = await a.sell({ seats: 'B1,B2', sn: 'TERM-0003' });
    await timeA.advance(0);
    provider.createPlan.push('unreachable');
    const q1 = await a.sell({ seats: 'C1,C2', sn: 'TERM-0004' });
    await timeA.advance(0);
    const q2 = await a.sell({ seats: 'D1,D2', sn: 'TERM-0005' });
    expect([a.state(w.id), a.state(p.id), a.state(c.id), a.state(q1.id), a.state(q2.id)]).toEqual([
      'waiting',
      'paid',
      'creating',
      'queued',
      'queued',
    ]);
    // The process is killed here: nothing of `a` runs again (its fake time never moves).

    const dbB = openJournalDb(file);
    cleanups.push(() => dbB.close());
    const timeB = fakeTime(timeA.now + 5_000);
    provider.createPlan.length = 0;
    const b = checkoutHarness({ db: dbB, pos: provider, time: timeB });
    hs.push(b);
    const paidBefore = JSON.stringify(b.svc.history(p.id));
    b.svc.resume();
    expect(b.state(c.id)).toBe('unknown');
    expect(b.svc.history(c.id).at(-1)!.note).toMatch(/restarted/);
    await b.until(c.id, 'waiting');
    await b.until(q2.id, 'waiting');
    expect(b.state(q1.id)).toBe('waiting');
    // The held create of the dead process never committed; the resumed one asked first, then sent.
    expect(provider.creates(c.outOrderNo)).toBe(2);
    const createsOfQueued = provider.calls.filter(
      (x) => x.op === 'create' && [q1.outOrderNo, q2.outOrderNo].includes(x.key),
    );
    expect(createsOfQueued.map((x) => x.key)).toEqual([q1.outOrderNo, q1.outOrderNo, q2.outOrderNo]); // oldest first
    b.svc.onWebhook(provider.settle(w.outOrderNo, 'SUCCESS'));
    expect(b.state(w.id)).toBe('paid');
    expect(JSON.stringify(b.svc.history(p.id))).toBe(paidBefore);
    expect(provider.orders.size).toBe(5);
  });

  it('resume() of an order that is already being sent in this process does not disturb it', async () => {
    const h = harness();
    h.pos.createPlan.push('hold');
    const v = await h.sell();
    await h.time.advance(0);
    h.svc.resume();
    expect(h.state(v.id)).toBe('creating');
    h.pos.release();
    await h.until(v.id, 'waiting');
    expect(h.pos.creates()).toBe(1);
  });
});
