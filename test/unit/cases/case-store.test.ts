// The cases on a real SQLite file (core/cases/case-store.ts): numbered in order from the counter's
// code, resolved once, and each write with its sync event in one transaction (journal first: an
// event that cannot be written leaves no case, a resolution that cannot be synced is not kept).
import { afterEach, describe, expect, it } from 'vitest';
import { CaseStore } from '../../../core/cases/case-store';
import type { JournalSink } from '../../../core/journal-sink';
import { openTempDb } from '../../helpers/orders-db';

const opened: { cleanup: () => void }[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.cleanup();
});

function storeWith(sink: JournalSink) {
  const t = openTempDb();
  opened.push(t);
  return { store: new CaseStore(t.db, sink), db: t.db };
}

const recording = () => {
  const events: { kind: string; payload: unknown; at: number }[] = [];
  return { events, sink: { append: (kind, payload, at) => void events.push({ kind, payload, at }) } as JournalSink };
};
const NEW = {
  search: { last4: '4321', amountKobo: 400_000 },
  customer: '',
  openedBy: 'Ngozi',
  found: null,
  at: 1_000,
  code: 'COU1',
  profile: 'sandbox' as const,
};

describe('the cases', () => {
  it('are numbered in order from the counter code; what was found is kept with its proof', () => {
    const { events, sink } = recording();
    const { store } = storeWith(sink);
    const a = store.open(NEW);
    const b = store.open({
      ...NEW,
      at: 2_000,
      found: {
        orderId: 7,
        outOrderNo: 'COU1-261207-0007',
        amountKobo: 400_000,
        truth: 'paid-after-closing',
        providerStatus: 'SUCCESS',
        askedAt: 1_900,
      },
    });
    expect([a.caseNo, b.caseNo]).toEqual(['COU1-C0001', 'COU1-C0002']);
    expect(a).toMatchObject({
      outOrderNo: null,
      truth: null,
      proof: null,
      search: { last4: '4321', amountKobo: 400_000 },
    });
    expect(b).toMatchObject({
      orderId: 7,
      outOrderNo: 'COU1-261207-0007',
      truth: 'paid-after-closing',
      proof: { providerStatus: 'SUCCESS', askedAt: 1_900 },
    });
    expect(store.openFor('COU1-261207-0007')?.id).toBe(b.id);
    expect(events.map((e) => [e.kind, e.payload])).toEqual([
      [
        'case.opened',
        { caseNo: 'COU1-C0001', openedBy: 'Ngozi', amountKobo: 400_000, last4: '4321', profile: 'sandbox' },
      ],
      [
        'case.opened',
        {
          caseNo: 'COU1-C0002',
          openedBy: 'Ngozi',
          reference: 'COU1-261207-0007',
          amountKobo: 400_000,
          last4: '4321',
          truth: 'paid-after-closing',
          profile: 'sandbox',
        },
      ],
    ]);
  });

  it('are resolved once, by someone named; open first in the list, then the resolved newest first', () => {
    const { events, sink } = recording();
    const { store } = storeWith(sink);
    const a = store.open(NEW);
    const b = store.open({ ...NEW, at: 2_000 });
    const c = store.open({ ...NEW, at: 3_000 });
    expect(store.countOpen()).toBe(3);
    store.resolve(a.id, { resolution: 'not-debited', by: 'Tunde', note: 'Another shop' }, 4_000);
    store.resolve(c.id, { resolution: 'tickets-given', by: 'Ngozi', note: '' }, 5_000);
    expect(() => store.resolve(a.id, { resolution: 'refund-owed', by: 'Ngozi', note: '' }, 6_000)).toThrow(
      /already resolved by Tunde/,
    );
    expect(() => store.resolve(99, { resolution: 'refund-owed', by: 'Ngozi', note: '' }, 6_000)).toThrow(/no case 99/);
    expect(store.countOpen()).toBe(1);
    expect(store.list().map((x) => [x.caseNo, x.resolution])).toEqual([
      [b.caseNo, null],
      [c.caseNo, 'tickets-given'],
      [a.caseNo, 'not-debited'],
    ]);
    expect(store.get(a.id)).toMatchObject({ resolvedBy: 'Tunde', resolvedAt: 4_000, note: 'Another shop' });
    expect(events.filter((e) => e.kind === 'case.resolved').map((e) => e.payload)).toEqual([
      { caseNo: a.caseNo, resolution: 'not-debited', by: 'Tunde', note: 'Another shop' },
      { caseNo: c.caseNo, resolution: 'tickets-given', by: 'Ngozi' },
    ]);
  });

  it('commit with their sync event or not at all', () => {
    let fail = false;
    const { store, db } = storeWith({
      append: () => {
        if (fail) throw new Error('outbox full');
      },
    });
    const a = store.open(NEW);
    fail = true;
    expect(() => store.open(NEW)).toThrow('outbox full');
    expect(() => store.resolve(a.id, { resolution: 'tickets-given', by: 'Ngozi', note: '' }, 2_000)).toThrow(
      'outbox full',
    );
    expect((db.prepare('SELECT COUNT(*) AS n FROM cases').get() as { n: number }).n).toBe(1);
    expect(store.get(a.id)?.resolution).toBeNull();
    fail = false;
    expect(store.open(NEW).caseNo).toBe('COU1-C0002');
  });
});
