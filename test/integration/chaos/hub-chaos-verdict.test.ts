// The Hub chaos verdict's counting rules on hand-made journals: a gap, a Hub event the counter does
// not have, the same event held twice, a different event under one number, and a notification its
// owner never recorded are each counted as test/chaos/hub-chaos-verdict.ts defines them.
import { describe, expect, it } from 'vitest';
import type { SandboxPosOrder } from '../../../sandbox';
import type { JournalRow } from '../../chaos/chaos-verdict';
import { hubChaosLine, hubChaosVerdict, type CounterFacts, type JournalEvent } from '../../chaos/hub-chaos-verdict';

const ev = (seq: number, ref = `R${seq}`, status = 'paid'): JournalEvent => ({
  seq,
  kind: 'order.status',
  at: 1_000 + seq,
  payload: { reference: ref, status },
});
const po = (outOrderNo: string): SandboxPosOrder =>
  ({ outOrderNo, orderNo: `NO-${outOrderNo}`, status: 'SUCCESS', payNo: `PAY-${outOrderNo}` }) as SandboxPosOrder;
const row = (outOrderNo: string): JournalRow => ({
  outOrderNo,
  state: 'paid',
  orderNo: `NO-${outOrderNo}`,
  payNo: `PAY-${outOrderNo}`,
});

const created = (seq: number, ref: string): JournalEvent => ({
  seq,
  kind: 'order.created',
  at: 1_000 + seq,
  payload: { reference: ref, amountKobo: 100, sn: 'T1' },
});

/** A counter whose outbox holds each sale's order.created after the given events (unless `bare`). */
function counter(
  name: string,
  outbox: JournalEvent[],
  hub: JournalEvent[],
  sales: string[],
  recorded: string[] = sales.map((s) => `NO-${s}`),
  bare = false,
): CounterFacts {
  const extra = bare ? [] : sales.map((s, i) => created(100 + i, s));
  return {
    name,
    counterId: `ctr_${name}`,
    outbox: [...outbox, ...extra],
    hub: [...hub, ...extra],
    orders: sales.map(row),
    recordedOrderNos: new Set(recorded),
    acked: new Set(sales),
  };
}

describe('Hub chaos verdict', () => {
  it('a clean run: journals equal (key order of payloads aside), every notification recorded by its owner', () => {
    const reordered = { ...ev(2), payload: { status: 'paid', reference: 'R2' } };
    const v = hubChaosVerdict(
      [counter('A', [ev(1), ev(2)], [ev(1), reordered], ['A1']), counter('B', [ev(1)], [ev(1)], ['B1'])],
      {
        notifications: [
          { id: '1', orderNo: 'NO-A1' },
          { id: '2', orderNo: 'NO-B1' },
          { id: '3', orderNo: 'NO-B1' },
          { id: '4', orderNo: 'NO-unknown' },
        ],
        ackedDeliveries: 5,
      },
      [po('A1'), po('B1')],
    );
    expect(hubChaosLine(v)).toBe(
      'counters=2 sales=2 relayed=5 relayLost=0 syncGaps=0 syncDuplicates=0 lateFound=0 lateMissed=0',
    );
    expect(v.journalsEqual).toBe(true);
    expect(v.passed).toBe(true);
    expect(v.problems).toEqual([]);
  });

  it('counts outbox events missing on the Hub as gaps, and Hub events the counter lacks or holds fewer times as duplicates', () => {
    const v = hubChaosVerdict(
      [
        counter('A', [ev(1), ev(2), ev(3)], [ev(1), ev(3), ev(4)], []),
        // The Hub holds B's first event again under number 2, where the counter wrote something else.
        counter('B', [ev(1), ev(2, 'R9')], [ev(1), { ...ev(1), seq: 2 }], []),
      ],
      { notifications: [], ackedDeliveries: 0 },
      [],
    );
    expect(v.syncGaps).toBe(1); // A 2
    expect(v.syncDuplicates).toBe(2); // A 4; B's event 1 held twice
    expect(v.syncMismatches).toBe(1); // B 2
    expect(v.journalsEqual).toBe(false);
    expect(v.passed).toBe(false);
  });

  it('counts each accepted notification whose owner never recorded its order as relay lost, not the other counters', () => {
    const v = hubChaosVerdict(
      [counter('A', [], [], ['A1', 'A2'], ['NO-A1']), counter('B', [], [], ['B1'], ['NO-B1', 'NO-A2'])],
      {
        notifications: [
          { id: '1', orderNo: 'NO-A2' },
          { id: '2', orderNo: 'NO-A2' },
          { id: '3', orderNo: 'NO-B1' },
          { id: '4', orderNo: null },
        ],
        ackedDeliveries: 3,
      },
      [po('A1'), po('A2'), po('B1')],
    );
    expect(v.relayLost).toBe(2); // B recording A2 does not count for A
    expect(v.problems.join('\n')).toMatch(/notification 1 for A2 .* never reached A's webhook_events/);
    expect(v.passed).toBe(false);
  });

  it("fails when a sale has no order.created in its counter's outbox, even with equal (empty) journals", () => {
    const v = hubChaosVerdict(
      [counter('A', [], [], ['A1', 'A2'], undefined, true)],
      { notifications: [], ackedDeliveries: 0 },
      [po('A1'), po('A2')],
    );
    expect(v.journalsEqual).toBe(true);
    expect(v.outboxMissing).toBe(2);
    expect(v.passed).toBe(false);
  });

  it('fails on a dirty sale verdict even when the journals and the relay are clean', () => {
    const v = hubChaosVerdict([counter('A', [], [], ['A1'])], { notifications: [], ackedDeliveries: 0 }, [
      po('A1'),
      po('A1'),
    ]);
    expect(v.sale.duplicates).toBe(1);
    expect(v.passed).toBe(false);
  });

  it('a payment after closing is found only when the order, the shift totals and the Hub’s copy carry it', () => {
    const late = (seq: number, ref: string): JournalEvent => ({
      seq,
      kind: 'order.late',
      at: 1_000 + seq,
      payload: { reference: ref, kind: 'paid-after-closing' },
    });
    const a = counter('A', [late(1, 'A1')], [late(1, 'A1')], ['A1']);
    const b = counter('B', [late(1, 'B1')], [], ['B1']); // the Hub has not got it
    for (const c of [a, b])
      c.orders = c.orders.map((r) => ({ ...r, state: 'expired', late: 'paid-after-closing', inTotals: true }));
    const v = hubChaosVerdict(
      [a, b],
      { notifications: [], ackedDeliveries: 0 },
      [po('A1'), po('B1')],
      new Set(['A1', 'B1']),
    );
    expect([v.lateFound, v.lateMissed]).toEqual([1, 1]);
    expect(v.passed).toBe(false);
    expect(v.problems.some((p) => p.startsWith('late missed: B1'))).toBe(true);
  });
});
