// The top-up journal on a real SQLite file: references never handed out twice, moves follow the
// state machine, final items never change, a batch is written all or nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { TopupJournal } from '../../../core/topups/topup-journal';
import { formatReference, GENERATED_REFERENCE_RE } from '../../../core/topups/reference';

const owner = { profile: 'demo', billsMerchantId: 'BM-1' };
const airtime = { serviceType: 'airtime' as const, provider: 'MTN', customerId: '+2348031234567', amountKobo: 50_000 };

function fresh() {
  const file = join(mkdtempSync(join(tmpdir(), 'topups-journal-')), 'j.db');
  let t = 1_700_000_000_000;
  const db = openJournalDb(file);
  return { db, file, journal: new TopupJournal(db, () => (t += 1)) };
}

describe('TopupJournal', () => {
  it('hands out readable references, unique per counter and day, across restarts', () => {
    const { db, file, journal } = fresh();
    const a = journal.insertSingle(owner, 'COU3', '250131', airtime, 'n');
    const b = journal.insertSingle(owner, 'COU3', '250131', airtime, 'n');
    expect([a.reference, b.reference]).toEqual(['COU3-T250131-0001', 'COU3-T250131-0002']);
    expect(a.reference).toMatch(GENERATED_REFERENCE_RE);
    expect(a.state).toBe('sending');
    expect(a.attempts).toBe(1);
    db.close();
    const again = new TopupJournal(openJournalDb(file), () => Date.now());
    expect(again.insertSingle(owner, 'COU3', '250131', airtime, 'n').reference).toBe('COU3-T250131-0003');
    expect(again.insertSingle(owner, 'COU3', '250201', airtime, 'n').reference).toBe('COU3-T250201-0001');
  });

  it('skips a reference a batch file already took', () => {
    const { journal } = fresh();
    journal.createBatch(owner, 'MH2', '250131', {
      fileName: 'f.csv',
      totalRows: 1,
      badRows: 0,
      chunkSize: 10,
      items: [{ ...airtime, reference: formatReference('MH2', '250131', 1), line: 2 }],
      errors: [],
    });
    expect(journal.insertSingle(owner, 'MH2', '250131', airtime, 'n').reference).toBe('MH2-T250131-0002');
  });

  it('moves items only as the state machine allows, and never changes a final one', () => {
    const { journal } = fresh();
    const r = journal.insertSingle(owner, 'C1', '250131', airtime, 'n');
    expect(journal.move([{ id: r.id, to: 'draft', note: 'x' }])).toEqual([]);
    const [p] = journal.move([
      { id: r.id, to: 'pending', note: 'accepted', patch: { orderNo: 'O-1', providerStatus: 'INITIAL' } },
    ]);
    expect(p).toMatchObject({ state: 'pending', orderNo: 'O-1', providerStatus: 'INITIAL' });
    const [s] = journal.move([{ id: r.id, to: 'success', note: 'ok', patch: { providerStatus: 'SUCCESS' } }]);
    expect(s!.state).toBe('success');
    expect(journal.move([{ id: r.id, to: 'fail', note: 'late', patch: { errorMsg: 'no' } }])).toEqual([]);
    expect(journal.move([{ id: r.id, to: 'success', note: 'patch', patch: { errorMsg: 'changed' } }])).toEqual([]);
    expect(journal.get(r.id)).toMatchObject({ state: 'success', errorMsg: '' });
    expect(journal.history(r.id).map((h) => h.to)).toEqual(['sending', 'pending', 'success']);
  });

  it('writes a batch all or nothing', () => {
    const { journal } = fresh();
    const items = [
      { ...airtime, reference: 'SAME', line: 2 },
      { ...airtime, reference: 'SAME', line: 3 },
    ];
    expect(() =>
      journal.createBatch(owner, 'C1', '250131', {
        fileName: 'f.csv',
        totalRows: 2,
        badRows: 0,
        chunkSize: 10,
        items,
        errors: [],
      }),
    ).toThrow(/UNIQUE/);
    expect(journal.listBatches(10)).toEqual([]);
    expect(journal.referenceTaken('BM-1', 'SAME')).toBe(false);
  });

  it('gives the next chunk: one batch, one service type, in file order; singles first', () => {
    const { journal } = fresh();
    const bettingItem = {
      serviceType: 'betting' as const,
      provider: 'BET9JA',
      customerId: '20001',
      amountKobo: 10_000,
    };
    const id = journal.createBatch(owner, 'C1', '250131', {
      fileName: 'f.csv',
      totalRows: 4,
      badRows: 0,
      chunkSize: 10,
      items: [
        { ...airtime, line: 2 },
        { ...bettingItem, line: 3 },
        { ...airtime, line: 4 },
        { ...airtime, line: 5 },
      ],
      errors: [],
    });
    const all = journal.allOfBatch(id);
    journal.move(all.map((r) => ({ id: r.id, to: 'queued' as const, note: 'start' })));
    expect(journal.nextChunk(owner, () => 10)).toEqual([]); // the batch is still a draft, not running
    journal.setBatch(id, { state: 'running' });
    expect(journal.nextChunk(owner, () => 2).map((r) => r.line)).toEqual([2, 4]);
    expect(journal.nextChunk({ profile: 'sandbox', billsMerchantId: 'BM-1' }, () => 2)).toEqual([]);
  });
});
