// The catalogue module on a real SQLite journal: a catalogue replaced all or nothing (a bad file,
// or a write that fails half way, keeps the one before), sold out marked by the cashier, and the
// stock left: each counted item's stock less what this counter's paid sales took since the
// catalogue came in — read from the real journal (orders inserted and paid through OrderJournal),
// each sale counted once, a sale created before the import or never paid not at all.
import { afterEach, describe, expect, it } from 'vitest';
import { basketAmounts, type BasketLine } from '../../../shared/basket';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import { catalogueCsv } from '../../../shared/catalogue-csv';
import type { CatalogueImportResult, CatalogueView } from '../../../shared/contract-catalogue';
import type { SoldBasket } from '../../../shared/basket-sale';
import type { OrderView } from '../../../shared/orders';
import { memoryLogger } from '../../../shared/logger';
import { createEventBus } from '../../../core/events';
import { createCatalogueModule, catalogueFormat, type PaidBasketsRead } from '../../../core/catalogue';
import { OrderJournal, paidBasketsAfter } from '../../../core/orders';
import { openTempDb, sale } from '../../helpers/orders-db';

const CALL = { trusted: true, sender: 'test' } as never;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function item(code: string, quantity: number): BasketLine {
  const it = DEMO_CATALOGUE.items.find((i) => i.code === code)!;
  return {
    kind: 'item',
    code,
    name: it.name,
    category: it.category,
    quantity,
    unitKobo: it.priceKobo,
    amountKobo: quantity * it.priceKobo,
    chosen: [],
  };
}
function combo(quantity: number, drink: string): BasketLine {
  return {
    kind: 'combo',
    code: 'CMB1',
    name: 'Popcorn combo',
    category: 'Combos',
    quantity,
    unitKobo: 300_000,
    amountKobo: quantity * 300_000,
    chosen: [
      { component: 'Popcorn', code: 'POPL', name: 'Popcorn large', choice: false },
      { component: 'Drink', code: drink, name: drink, choice: true },
    ],
  };
}
const basket = (...lines: BasketLine[]): SoldBasket => ({
  lines,
  tender: { kind: 'card' },
  amounts: basketAmounts(lines, { kind: 'card' }),
});

/**
 * A counter's journal and its catalogue. Orders are inserted and paid through the real journal and
 * read back by the orders module's real read; each order's basket is the one the test sold with it
 * (the engine writes it with the order).
 */
function setup(opts: { demo?: boolean } = {}) {
  const t = openTempDb();
  cleanups.push(t.cleanup);
  let now = Date.UTC(2026, 11, 7, 18, 0);
  const clock = { now: () => now };
  const journal = new OrderJournal(t.db, clock.now);
  const baskets = new Map<number, SoldBasket>();
  const reads: number[] = [];
  const read: PaidBasketsRead = (q) =>
    paidBasketsAfter(t.db, q).map((b) => {
      reads.push(b.orderId);
      return { ...b, basket: baskets.get(b.orderId) ?? b.basket };
    });
  const events = createEventBus();
  const heard: CatalogueView[] = [];
  events.subscribe((name, payload) => {
    if (name === 'catalogue.changed') heard.push(payload as CatalogueView);
  });
  const module = createCatalogueModule(
    { db: t.db, clock, events, logger: memoryLogger() },
    { demo: () => opts.demo ?? false, paidBaskets: read },
  );
  let n = 0;
  /** A sale of this basket, created now; paid (or failed) a minute later. */
  const sell = (b: SoldBasket | null, outcome: 'paid' | 'failed' | 'open' = 'paid') => {
    const rec = journal.insert({
      sale: sale({ seats: `A${++n}`, tickets: 1 }),
      amountKobo: 1000,
      counterCode: 'C1',
      businessDay: '261207',
      createdAt: now,
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      note: 'sold',
    });
    if (b) baskets.set(rec.id, b);
    if (outcome !== 'open') {
      journal.transition(rec.id, 'waiting', 'created');
      journal.transition(rec.id, outcome, outcome);
    }
    return rec.id;
  };
  const importText = async (text: string, fileName = 'menu.csv'): Promise<CatalogueImportResult> =>
    module.handlers['catalogue.import']({ text, fileName }, CALL);
  return {
    db: t.db,
    journal,
    module,
    heard,
    reads,
    sell,
    importText,
    tick: (ms: number) => (now += ms),
  };
}

const left = (v: CatalogueView, code: string) => v.items.find((i) => i.code === code)?.left;

describe('the catalogue on the counter (real journal)', () => {
  it('replaces the whole catalogue only when the file is right: a bad file keeps the one in use', async () => {
    const c = setup();
    expect(c.module.view()).toEqual({ source: null, items: [], combos: [] });
    expect(c.module.current()).toBeUndefined();

    const first = await c.importText(catalogueCsv(DEMO_CATALOGUE), 'menu.csv');
    expect(first.imported).toBe(true);
    expect(first.catalogue.source).toMatchObject({ kind: 'file', fileName: 'menu.csv' });
    expect(c.module.current()).toEqual(DEMO_CATALOGUE);

    // JSON by its extension: one bad price and one unknown field, by line and column; nothing kept.
    const bad = await c.importText(
      [
        '{',
        '  "items": [',
        '    { "code": "POPS", "name": "Popcorn", "category": "Popcorn", "price": "15.001" },',
        '    { "code": "X", "name": "X", "category": "X", "price": 1, "priceKobo": 100 }',
        '  ]',
        '}',
      ].join('\n'),
      'menu.json',
    );
    expect(bad.imported).toBe(false);
    expect(bad.errors.map((e) => [e.line, e.column])).toEqual([
      [3, 'items.0.price'],
      [4, 'items.1'],
    ]);
    expect(c.module.current()).toEqual(DEMO_CATALOGUE);
    expect(c.module.view().source).toMatchObject({ kind: 'file', fileName: 'menu.csv' });

    // A write that fails half way (two entries with one code, past the checks) leaves the old catalogue whole.
    const broken: Catalogue = { items: [DEMO_CATALOGUE.items[0]!, DEMO_CATALOGUE.items[0]!], combos: [] };
    expect(() => c.module.store.replace({ kind: 'file', importedAt: 1, fileName: 'broken.csv' }, broken)).toThrow();
    expect(c.module.current()).toEqual(DEMO_CATALOGUE);
    expect(c.module.view().source).toMatchObject({ fileName: 'menu.csv' });

    // A good JSON file replaces all of it.
    const next = await c.importText(
      JSON.stringify({ items: [{ code: 'tea', name: 'Tea', category: 'Drinks', price: '500', stock: 3 }] }),
      'tea.json',
    );
    expect(next.imported).toBe(true);
    expect(c.module.current()).toEqual({
      items: [{ code: 'TEA', name: 'Tea', category: 'Drinks', priceKobo: 50_000, soldOut: false, stock: 3 }],
      combos: [],
    });
    expect(c.heard.map((v) => v.source?.fileName)).toEqual(['menu.csv', 'tea.json']);
  });

  it('reads CSV or JSON by the extension, else by the first character', () => {
    expect(catalogueFormat('a.JSON', 'code,name')).toBe('json');
    expect(catalogueFormat('a.csv', '{')).toBe('csv');
    expect(catalogueFormat('menu', '\uFEFF  {"items": []}')).toBe('json');
    expect(catalogueFormat('menu.txt', 'code,name,category,price')).toBe('csv');
  });

  it('counts the stock left from the sales paid after the import, each once', async () => {
    const c = setup();
    // Paid before the catalogue came in: not counted.
    c.sell(basket(item('WATER', 5)));
    c.tick(60_000);
    await c.importText(catalogueCsv(DEMO_CATALOGUE));
    expect(left(c.module.view(), 'WATER')).toBe(48);
    expect(left(c.module.view(), 'POPL')).toBeNull();

    c.tick(60_000);
    c.sell(basket(item('WATER', 2), combo(3, 'WATER'))); // 2 + 3 waters
    c.sell(basket(item('WATER', 10)), 'failed'); // not paid: not taken
    c.sell(basket(item('WATER', 7)), 'open'); // no outcome yet: not taken
    c.sell(null); // a sale of tickets only
    const v = c.module.view();
    expect(left(v, 'WATER')).toBe(43);
    expect(v.items.find((i) => i.code === 'WATER')).toMatchObject({ stock: 48, left: 43, available: true });
    expect(c.module.current()!.items.find((i) => i.code === 'WATER')!.stock).toBe(43);
    // Items not counted keep no stock; the catalogue otherwise as imported.
    expect(c.module.current()!.items.find((i) => i.code === 'POPL')).toEqual(DEMO_CATALOGUE.items[1]);

    // Asked again, only what is new is read; a paid order's later event does not count it twice.
    const before = c.reads.length;
    expect(left(c.module.view(), 'WATER')).toBe(43);
    expect(c.reads.length).toBe(before);
    c.db
      .prepare(
        "INSERT INTO order_events (order_id, at, from_state, to_state, note) VALUES (2, 0, 'paid', 'paid', 'details')",
      )
      .run();
    expect(left(c.module.view(), 'WATER')).toBe(43);

    // More sold than counted (sales made offline): the view says below 0, the engine reads 0 and sold out.
    c.sell(basket(item('WATER', 45)));
    const over = c.module.view();
    expect(over.items.find((i) => i.code === 'WATER')).toMatchObject({ left: -2, available: false });
    expect(c.module.current()!.items.find((i) => i.code === 'WATER')!.stock).toBe(0);

    // A new catalogue counts from its own import.
    c.tick(60_000);
    await c.importText(catalogueCsv(DEMO_CATALOGUE));
    expect(left(c.module.view(), 'WATER')).toBe(48);
  });

  it('marks an item or combo sold out and back on sale; a combo whose only popcorn is sold out cannot be sold', async () => {
    const c = setup();
    await c.importText(catalogueCsv(DEMO_CATALOGUE));
    const mark = (code: string, soldOut: boolean) =>
      c.module.handlers['catalogue.setSoldOut']({ code, soldOut }, {
        trusted: true,
        sender: 'test',
      } as never) as CatalogueView;
    const v = mark('popl', true);
    expect(v.items.find((i) => i.code === 'POPL')).toMatchObject({ soldOut: true, available: false });
    expect(v.combos[0]).toMatchObject({ code: 'CMB1', soldOut: false, available: false });
    expect(c.module.current()!.items.find((i) => i.code === 'POPL')!.soldOut).toBe(true);
    expect(mark('POPL', false).combos[0]!.available).toBe(true);
    expect(mark('CMB1', true).combos[0]).toMatchObject({ soldOut: true, available: false });
    expect(() => mark('NOPE', true)).toThrow(/NOPE is not an item or combo/);
    expect(c.heard.at(-1)!.combos[0]!.soldOut).toBe(true);
  });

  it('says the catalogue changed when a sale with concessions is paid, not for tickets alone or unpaid', async () => {
    const c = setup();
    await c.importText(catalogueCsv(DEMO_CATALOGUE));
    const n = c.heard.length;
    const view = (state: OrderView['state'], b?: SoldBasket) => ({ state, ...(b ? { basket: b } : {}) }) as OrderView;
    c.module.orderChanged(view('waiting', basket(item('WATER', 1))));
    c.module.orderChanged(view('paid'));
    expect(c.heard.length).toBe(n);
    c.module.orderChanged(view('paid', basket(item('WATER', 1))));
    expect(c.heard.length).toBe(n + 1);
  });

  it('in the Demo profile holds the Demo catalogue without an import; outside it, the Demo catalogue is not used', async () => {
    let demo = true;
    const t = setup({ demo: true });
    // setup's flag is fixed; a module of its own follows `demo`.
    const m = createCatalogueModule(
      { db: t.db, clock: { now: () => 5 }, events: createEventBus(), logger: memoryLogger() },
      { demo: () => demo },
    );
    expect(t.module.current()).toEqual(DEMO_CATALOGUE);
    expect(m.view().source).toMatchObject({ kind: 'demo', fileName: null });
    demo = false;
    expect(m.current()).toBeUndefined();
    expect(m.view().items).toEqual([]);
    demo = true;
    expect(m.current()).toEqual(DEMO_CATALOGUE);
  });
});
