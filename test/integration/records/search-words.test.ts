// The order search's word index costs a sale nothing (issue 37): a sale and its payment write no
// words on their path; the search that asks for them brings the index up to date first, so it
// finds the sale by its provider's numbers all the same.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OrderPage } from '../../../shared/records';
import { openJournalDb } from '../../../core/schema';
import { call, perTest, sell } from './records-harness';

const t = perTest();

describe('order search words', () => {
  it('a paid sale is not indexed on its path, and a search by its numbers finds it', async () => {
    const { core, dir } = await t.boot();
    const paid = await sell(core, 'SUCCESS');
    expect(paid.payNo).toBeTruthy();
    const db = openJournalDb(join(dir, 'counterpay.db'));
    const indexed = () => db.prepare('SELECT COUNT(*) AS n FROM records_order_text WHERE rowid = ?').get(paid.id);
    try {
      expect(indexed()).toEqual({ n: 0 });
      const byPay = await call<OrderPage>(core, 'orders.search', { text: paid.payNo!.slice(-6) });
      expect(byPay.rows.map((r) => r.id)).toEqual([paid.id]);
      expect(indexed()).toEqual({ n: 1 });
      const byOrderNo = await call<OrderPage>(core, 'orders.search', { text: paid.orderNo!.slice(-6) });
      expect(byOrderNo.rows.map((r) => r.id)).toEqual([paid.id]);
    } finally {
      db.close();
    }
  });
});
