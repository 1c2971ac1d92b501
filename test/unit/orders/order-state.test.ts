// The state machine: every transition, allowed and refused, in the table and in the journal.
import { afterEach, describe, expect, it } from 'vitest';
import { OrderJournal } from '../../../core/orders/order-journal';
import {
  canTransition,
  isFinalState,
  ORDER_STATES,
  stateForProviderStatus,
  type OrderState,
} from '../../../core/orders/order-state';
import { openTempDb, sale } from '../../helpers/orders-db';

const ALLOWED: [OrderState, OrderState][] = [
  ['queued', 'creating'],
  ['queued', 'waiting'],
  ['queued', 'paid'],
  ['queued', 'failed'],
  ['queued', 'cancelled'],
  ['queued', 'expired'],
  ['creating', 'waiting'],
  ['creating', 'queued'],
  ['creating', 'unknown'],
  ['creating', 'paid'],
  ['creating', 'failed'],
  ['creating', 'cancelled'],
  ['creating', 'expired'],
  ['unknown', 'creating'],
  ['unknown', 'waiting'],
  ['unknown', 'paid'],
  ['unknown', 'failed'],
  ['unknown', 'cancelled'],
  ['unknown', 'expired'],
  ['waiting', 'unknown'],
  ['waiting', 'paid'],
  ['waiting', 'failed'],
  ['waiting', 'cancelled'],
  ['waiting', 'expired'],
];
const isAllowed = (from: OrderState, to: OrderState) => ALLOWED.some(([f, t]) => f === from && t === to);
const ALL_PAIRS = ORDER_STATES.flatMap((from) => ORDER_STATES.map((to) => [from, to] as [OrderState, OrderState]));

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Puts an order into `state` by writing the row directly (the shortest path to any state). */
function orderIn(state: OrderState) {
  const t = openTempDb();
  cleanups.push(t.cleanup);
  const j = new OrderJournal(t.db, () => 1_000);
  const rec = j.insert({
    sale: sale(),
    amountKobo: 710_000,
    counterCode: 'T',
    businessDay: '250131',
    createdAt: 0,
    expireSeconds: 300,
    state: 'creating',
    attempts: 1,
    headMerchantId: 'H',
    merchantId: 'M',
    note: 'new',
  });
  t.db.prepare('UPDATE orders SET state = ? WHERE id = ?').run(state, rec.id);
  return { j, id: rec.id, db: t.db };
}

describe('transition table', () => {
  it.each(ALL_PAIRS)('%s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(isAllowed(from, to));
  });

  it('final states are exactly paid, failed, cancelled, expired and have no way out', () => {
    expect(ORDER_STATES.filter(isFinalState)).toEqual(['paid', 'failed', 'cancelled', 'expired']);
    for (const s of ORDER_STATES.filter(isFinalState))
      for (const t of ORDER_STATES) expect(canTransition(s, t)).toBe(false);
  });
});

describe('journal transitions', () => {
  it.each(ALL_PAIRS)('%s -> %s is applied only when allowed, with an event', (from, to) => {
    const { j, id } = orderIn(from);
    const before = j.history(id).length;
    const r = j.transition(id, to, 'step', { patch: { reason: 'why' } });
    expect(r.changed).toBe(isAllowed(from, to));
    const after = j.get(id)!;
    if (isAllowed(from, to)) {
      expect(after.state).toBe(to);
      expect(after.reason).toBe('why');
      expect(j.history(id).at(-1)).toEqual({ at: 1_000, from, to, note: 'step' });
    } else {
      expect(r.refused).toBeTruthy();
      expect(after.state).toBe(from);
      expect(after.reason).toBeUndefined();
      expect(j.history(id)).toHaveLength(before);
    }
  });

  it('refuses when the order is not in the expected state', () => {
    const { j, id } = orderIn('waiting');
    const r = j.transition(id, 'creating', 'x', { from: ['queued'] });
    expect(r.changed).toBe(false);
    expect(r.refused).toMatch(/expected queued/);
  });

  it('a final order takes no patch either', () => {
    const { j, id } = orderIn('paid');
    const r = j.update(id, { payNo: 'LATE', reason: 'late' });
    expect(r.changed).toBe(false);
    expect(j.get(id)!.payNo).toBeUndefined();
  });
});

describe('provider status words', () => {
  it.each([
    ['PENDING', 'waiting'],
    ['SUCCESS', 'paid'],
    ['FAIL', 'failed'],
    ['CANCEL', 'cancelled'],
    ['CLOSE', 'expired'],
    ['success', 'paid'],
    ['REFUNDED', null],
    ['', null],
  ])('%s -> %s', (word, state) => {
    expect(stateForProviderStatus(word)).toBe(state);
  });
});
