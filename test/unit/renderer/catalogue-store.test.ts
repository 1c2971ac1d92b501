// Settings → Concessions' store against a stand-in for main: a refused file shows its count of
// problems and keeps the catalogue shown; a good one says what came in; catalogue.changed (a paid
// sale, another window's mark) updates the view; after a reconnect only a loaded view is read again.
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogueView } from '../../../shared/contract-catalogue';
import { catalogueFollower, useCatalogue } from '../../../renderer/src/stores/catalogue-store';
import { followStores, type Following } from '../../../renderer/src/stores/follow';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { fakeMain } from './fake-main';

let following: Following | null = null;
afterEach(() => {
  following?.stop();
  following = null;
  connectBridge(null);
  useCatalogue.setState(useCatalogue.getInitialState(), true);
});

function start(main: ReturnType<typeof fakeMain>): Following {
  connectBridge(main.bridge);
  return (following = followStores(main.bridge, [catalogueFollower]));
}

const view = (left: number, fileName = 'menu.csv'): CatalogueView => ({
  source: { kind: 'file', importedAt: 1_765_000_000_000, fileName },
  items: [
    {
      code: 'WATER',
      name: 'Water 75cl',
      category: 'Drinks',
      priceKobo: 40_000,
      soldOut: false,
      stock: 48,
      left,
      available: left > 0,
    },
  ],
  combos: [],
});

describe('catalogue store', () => {
  it('a refused file: its problems counted, the catalogue shown unchanged; a good one: what came in', async () => {
    const main = fakeMain({
      'catalogue.get': () => view(48),
      'catalogue.import': (a) =>
        a.fileName === 'bad.csv'
          ? {
              imported: false,
              totalRows: 2,
              errors: [
                { line: 2, column: 'price', message: 'Enter the price' },
                { line: 3, column: 'name', message: 'Enter the name' },
              ],
              errorCount: 2,
              catalogue: view(48),
            }
          : { imported: true, totalRows: 1, errors: [], errorCount: 0, catalogue: view(48, a.fileName) },
    });
    start(main);
    await useCatalogue.getState().load();
    await useCatalogue.getState().importText('code,name', 'bad.csv');
    expect(useCatalogue.getState().message).toEqual({
      kind: 'error',
      text: 'bad.csv was not imported: fix the 2 problems below and import it again. The catalogue in use has not changed.',
    });
    expect(useCatalogue.getState().result?.errors).toHaveLength(2);
    expect(useCatalogue.getState().view?.source?.fileName).toBe('menu.csv');
    await useCatalogue.getState().importText('{"items": []}', 'new.json');
    expect(useCatalogue.getState().message).toEqual({ kind: 'ok', text: 'new.json imported: 1 item and 0 combos.' });
    expect(useCatalogue.getState().view?.source?.fileName).toBe('new.json');
    expect(main.calls.at(-1)).toEqual({
      name: 'catalogue.import',
      args: { text: '{"items": []}', fileName: 'new.json' },
    });
  });

  it('follows catalogue.changed, marks sold out through main, and re-reads after a reconnect only when loaded', async () => {
    const main = fakeMain({
      'catalogue.get': () => view(40),
      'catalogue.setSoldOut': (a) => ({
        ...view(40),
        items: [{ ...view(40).items[0]!, soldOut: a.soldOut, available: !a.soldOut }],
      }),
    });
    const f = start(main);
    await f.refreshAll();
    expect(main.calls).toEqual([]);
    await useCatalogue.getState().load();
    main.emit('catalogue.changed', view(39));
    expect(useCatalogue.getState().view?.items[0]?.left).toBe(39);
    await useCatalogue.getState().setSoldOut('WATER', true);
    expect(useCatalogue.getState().view?.items[0]).toMatchObject({ soldOut: true, available: false });
    expect(useCatalogue.getState().marking).toBeNull();
    await f.refreshAll();
    expect(main.calls.map((c) => c.name)).toEqual(['catalogue.get', 'catalogue.setSoldOut', 'catalogue.get']);
  });
});
