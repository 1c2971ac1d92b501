// The catalogue's calls through the composed core (Demo profile, the journal on a real SQLite file):
// the Demo catalogue without an import, the template, an import behind the PIN (a bad file: errors
// by line and column and the catalogue in use kept; a good one replaces it and says so by event),
// sold out marked and back, and what the checkout will price baskets against (`catalogue.current`).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confStore } from '../../../browser-shell/boot';
import { createCore, type Core } from '../../../core/app-core';
import { fileVault } from '../../../core/settings/secret-vault';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import { catalogueCsv } from '../../../shared/catalogue-csv';
import { systemClock } from '../../../shared/clock';
import type { CatalogueImportResult, CatalogueView } from '../../../shared/contract-catalogue';
import { memoryLogger } from '../../../shared/logger';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

async function boot(): Promise<Core> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-catalogue-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
  });
  cores.push(core);
  return core;
}
async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok)
    throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), {
      code: r.error.code,
      details: r.error.details,
    });
  return r.value as T;
}

const GOOD_CSV = [
  'code,name,category,price,soldOut,stock,component,options',
  'SHAWA,Shawarma,Snacks,"3,500",,10,,',
  'ZOBO,Zobo 50cl,Drinks,800,,,,',
  'CMB9,Shawarma and zobo,Combos,4000,,,Snack,SHAWA',
  'CMB9,Shawarma and zobo,Combos,4000,,,Drink,ZOBO',
].join('\n');
const BAD_CSV = [
  'code,name,category,price,soldOut,stock,component,options',
  'SHAWA,Shawarma,Snacks,35.001,,10,,',
  'ZOBO,,Drinks,800,,,,',
  'CMB9,Shawarma and zobo,Combos,4000,,,Drink,FANTA',
].join('\n');

describe('the catalogue through the core', () => {
  it('the Demo profile has the Demo catalogue without an import; the template is it as CSV', async () => {
    const core = await boot();
    const v = await call<CatalogueView>(core, 'catalogue.get', {});
    expect(v.source).toMatchObject({ kind: 'demo', fileName: null });
    expect(v.items.map((i) => i.code)).toEqual(DEMO_CATALOGUE.items.map((i) => i.code));
    expect(v.items.find((i) => i.code === 'WATER')).toMatchObject({ stock: 48, left: 48, available: true });
    expect(v.combos.map((c) => c.code)).toEqual(['CMB1']);
    expect(core.catalogue.current()).toEqual(DEMO_CATALOGUE);
    expect(await call(core, 'catalogue.template', {})).toEqual({
      fileName: 'catalogue-template.csv',
      csv: catalogueCsv(DEMO_CATALOGUE),
    });
  });

  it('imports behind the PIN, all or nothing, errors by line and column; marks sold out; says each change', async () => {
    const core = await boot();
    const heard: CatalogueView[] = [];
    core.events.subscribe((name, payload) => {
      if (name === 'catalogue.changed') heard.push(payload as CatalogueView);
    });
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'settings.lock', {});
    await expect(call(core, 'catalogue.import', { text: GOOD_CSV, fileName: 'menu.csv' })).rejects.toMatchObject({
      code: 'PIN_REQUIRED',
    });
    await call(core, 'settings.unlock', { pin: '2468' });

    const bad = await call<CatalogueImportResult>(core, 'catalogue.import', { text: BAD_CSV, fileName: 'bad.csv' });
    expect(bad.imported).toBe(false);
    expect(bad.errorCount).toBe(bad.errors.length);
    expect(bad.errors.map((e) => `${e.line} ${e.column}`)).toEqual(['2 price', '3 name', '4 options']);
    expect(bad.catalogue.source?.kind).toBe('demo');
    expect(core.catalogue.current()).toEqual(DEMO_CATALOGUE);
    expect(heard).toEqual([]);

    const good = await call<CatalogueImportResult>(core, 'catalogue.import', { text: GOOD_CSV, fileName: 'menu.csv' });
    expect(good).toMatchObject({ imported: true, totalRows: 4, errors: [], errorCount: 0 });
    expect(good.catalogue.source).toMatchObject({ kind: 'file', fileName: 'menu.csv' });
    expect(good.catalogue.items).toEqual([
      {
        code: 'SHAWA',
        name: 'Shawarma',
        category: 'Snacks',
        priceKobo: 350_000,
        soldOut: false,
        stock: 10,
        left: 10,
        available: true,
      },
      {
        code: 'ZOBO',
        name: 'Zobo 50cl',
        category: 'Drinks',
        priceKobo: 80_000,
        soldOut: false,
        stock: null,
        left: null,
        available: true,
      },
    ]);
    expect(await call(core, 'catalogue.get', {})).toEqual(good.catalogue);
    expect(core.catalogue.current()?.combos.map((c) => c.code)).toEqual(['CMB9']);

    // Marked sold out by the cashier (no PIN needed), and back on sale.
    await call(core, 'settings.lock', {});
    const out = await call<CatalogueView>(core, 'catalogue.setSoldOut', { code: 'zobo', soldOut: true });
    expect(out.items[1]).toMatchObject({ code: 'ZOBO', soldOut: true, available: false });
    expect(out.combos[0]).toMatchObject({ code: 'CMB9', soldOut: false, available: false });
    expect(core.catalogue.current()?.items[1]?.soldOut).toBe(true);
    const back = await call<CatalogueView>(core, 'catalogue.setSoldOut', { code: 'ZOBO', soldOut: false });
    expect(back.combos[0]?.available).toBe(true);
    await expect(call(core, 'catalogue.setSoldOut', { code: 'FANTA', soldOut: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(call(core, 'catalogue.setSoldOut', { code: 'ZOBO' })).rejects.toMatchObject({
      code: 'BAD_ARGUMENTS',
    });
    expect(heard.map((v) => [v.source?.fileName, v.items[1]?.soldOut])).toEqual([
      ['menu.csv', false],
      ['menu.csv', true],
      ['menu.csv', false],
    ]);
  });

  it('a JSON file by its content too (no extension), and one that is not JSON is named at its line', async () => {
    const core = await boot();
    await call(core, 'settings.setPin', { newPin: '2468' });
    const json = JSON.stringify(
      { items: [{ code: 'PIE', name: 'Meat pie', category: 'Snacks', price: 1200 }] },
      null,
      2,
    );
    const ok = await call<CatalogueImportResult>(core, 'catalogue.import', { text: json, fileName: 'menu' });
    expect(ok.imported).toBe(true);
    expect(ok.catalogue.items.map((i) => [i.code, i.priceKobo])).toEqual([['PIE', 120_000]]);
    const broken = await call<CatalogueImportResult>(core, 'catalogue.import', {
      text: '{\n  "items": [\n    { "code": "PIE", }\n  ]\n}',
      fileName: 'menu.json',
    });
    expect(broken.imported).toBe(false);
    expect(broken.errors[0]).toMatchObject({ line: 3, column: '' });
    expect(broken.errors[0]!.message).toMatch(/^The file is not JSON/);
    expect(core.catalogue.current()?.items.map((i) => i.code)).toEqual(['PIE']);
  });
});
