// The concessions catalogue: its rules, the CSV and JSON files (checked whole, errors by line and
// column, money exact in kobo), and the Demo profile's catalogue.
import { describe, expect, it } from 'vitest';
import { CatalogueSchema, DEMO_CATALOGUE, isSoldOut } from '../../../shared/catalogue';
import { CATALOGUE_COLUMNS, catalogueCsv, checkCatalogueCsv } from '../../../shared/catalogue-csv';
import { checkCatalogueJson } from '../../../shared/catalogue-json';
import { koboToNairaString } from '../../../shared/money';
import { createRng } from '../../helpers/chaos-random';

const HEADER = CATALOGUE_COLUMNS.join(',');
const csv = (...rows: string[]) => [HEADER, ...rows].join('\r\n');

describe('the catalogue model', () => {
  it('accepts the Demo catalogue as it is', () => {
    expect(CatalogueSchema.parse(DEMO_CATALOGUE)).toEqual(DEMO_CATALOGUE);
  });

  it('refuses a code used twice, a combo offering an unknown item, a component or option twice', () => {
    const r = CatalogueSchema.safeParse({
      items: [
        { code: 'popl', name: 'Popcorn large', category: 'Popcorn', priceKobo: 250_000 },
        { code: 'COKE', name: 'Coke', category: 'Drinks', priceKobo: 70_000 },
      ],
      combos: [
        {
          code: 'POPL',
          name: 'Combo',
          category: 'Combos',
          priceKobo: 300_000,
          components: [
            { name: 'Drink', options: ['COKE', 'COKE', 'SPRITE'] },
            { name: 'drink', options: ['POPL'] },
          ],
        },
      ],
    });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual([
      'combos.0.code: The code POPL is used twice (an item and a combo)',
      'combos.0.components.0.options.1: COKE is offered twice as Drink',
      'combos.0.components.0.options.2: The combo Combo offers SPRITE as Drink, which is not an item of the catalogue',
      'combos.0.components.1.name: The combo Combo has two components named drink',
    ]);
  });

  it('reads an item as sold out when marked or counted down to 0', () => {
    expect(isSoldOut({ soldOut: true })).toBe(true);
    expect(isSoldOut({ soldOut: false, stock: 0 })).toBe(true);
    expect(isSoldOut({ soldOut: false, stock: 1 })).toBe(false);
    expect(isSoldOut({ soldOut: false })).toBe(false);
  });
});

describe('checkCatalogueCsv', () => {
  it('reads items and combos (a row per component), money exact in kobo, codes in capitals', () => {
    const r = checkCatalogueCsv(
      csv(
        'cmb1,Popcorn combo,Combos,"3,000.50",,,Popcorn,POPL',
        'CMB1,Popcorn combo,Combos,3000.5,,,Drink,fanta | WATER',
        'popl,Popcorn large,Popcorn,2500,,,,',
        'FANTA,Fanta 50cl,Drinks,700,yes,,,',
        'WATER,Water 75cl,Drinks,0.01,,12,,',
      ),
    );
    expect(r.errors).toEqual([]);
    expect(r.totalRows).toBe(5);
    expect(r.catalogue).toEqual({
      items: [
        { code: 'POPL', name: 'Popcorn large', category: 'Popcorn', priceKobo: 250_000, soldOut: false },
        { code: 'FANTA', name: 'Fanta 50cl', category: 'Drinks', priceKobo: 70_000, soldOut: true },
        { code: 'WATER', name: 'Water 75cl', category: 'Drinks', priceKobo: 1, soldOut: false, stock: 12 },
      ],
      combos: [
        {
          code: 'CMB1',
          name: 'Popcorn combo',
          category: 'Combos',
          priceKobo: 300_050,
          soldOut: false,
          components: [
            { name: 'Popcorn', options: ['POPL'] },
            { name: 'Drink', options: ['FANTA', 'WATER'] },
          ],
        },
      ],
    });
  });

  it('names the line and the column of every error, not again for a row already wrong, and keeps nothing', () => {
    const r = checkCatalogueCsv(
      csv(
        'POPL,Popcorn large,Popcorn,25.001,,,,',
        'P OP,,Popcorn,0,maybe,-1,,',
        'COKE,Coke,Drinks,700,,,,',
        'coke,Coke again,Drinks,700,,,,',
        'CMB1,Combo,Combos,3000,,,Drink,COKE',
        'CMB1,Combo,Combos,3000,,4,Popcorn,POPL',
        'CMB1,Combo,Combos,3100,,,Popcorn,POPL',
        'CMB2,Combo two,Combos,3000,,,Drink,POPL|SPRITE',
        'WATER,Water,Drinks,400,,,,COKE',
      ),
    );
    expect(r.catalogue).toBeNull();
    expect(r.errors.map((e) => `${e.line} ${e.column}: ${e.message}`)).toEqual([
      '2 price: "25.001" is not a price in naira: write it like 1500 or 1500.50 (at most two decimals, no other signs)',
      '3 code: "P OP" is not a code: a code is 1 to 12 letters, digits or dashes (not first or last), for example POPL or CMB-1',
      '3 name: Enter the name',
      '3 price: The price must be more than ₦0.00',
      '3 soldOut: "maybe" is not yes or no: leave it empty, or write yes when the item is sold out',
      '3 stock: "-1" is not a count: write a whole number (0 or more), or leave it empty',
      '5 code: Line 4 already uses the code COKE: one code per item or combo',
      '7 stock: A combo is not counted: count its items (leave stock empty on a combo row)',
      '8 price: Line 6 gives the combo CMB1 another price: every row of a combo repeats the same',
      '9 options: The combo Combo two offers SPRITE as Drink, which is not an item of the catalogue',
      '10 component: Name the component these options are for (Drink, Popcorn…)',
    ]);
  });

  it('refuses a file without the required columns, naming the layout', () => {
    const r = checkCatalogueCsv('code,name,price\r\nPOPL,Popcorn,2500\r\n');
    expect(r.catalogue).toBeNull();
    expect(r.errors).toEqual([
      {
        line: 1,
        column: 'category',
        message: `The first line must name the columns ${HEADER} (soldOut, stock, component and options may be left out); missing: category`,
      },
    ]);
  });

  it('gives back any random catalogue written as CSV exactly (prices to the kobo)', () => {
    const rng = createRng(3801);
    for (let round = 0; round < 200; round++) {
      const items = Array.from({ length: rng.int(1, 8) }, (_, i) => ({
        code: `I${i}`,
        name: `Item ${i}`,
        category: `Cat ${rng.int(1, 3)}`,
        priceKobo: rng.int(1, 100_000_000),
        soldOut: rng.chance(0.2),
        ...(rng.chance(0.3) ? { stock: rng.int(0, 500) } : {}),
      }));
      const combos = Array.from({ length: rng.int(0, 3) }, (_, i) => ({
        code: `C-${i}`,
        name: `Combo ${i}`,
        category: 'Combos',
        priceKobo: rng.int(1, 100_000_000),
        soldOut: rng.chance(0.2),
        components: Array.from({ length: rng.int(1, 3) }, (_, j) => ({
          name: `Part ${j}`,
          options: [...new Set(Array.from({ length: rng.int(1, 3) }, () => `I${rng.int(0, items.length - 1)}`))],
        })),
      }));
      const rows = [
        ...items.map(
          (it) =>
            `${it.code},${it.name},${it.category},${koboToNairaString(it.priceKobo)},${it.soldOut ? 'yes' : ''},${it.stock ?? ''},,`,
        ),
        ...combos.flatMap((co) =>
          co.components.map(
            (c) =>
              `${co.code},${co.name},${co.category},${koboToNairaString(co.priceKobo)},${co.soldOut ? 'y' : 'no'},,${c.name},${c.options.join('|')}`,
          ),
        ),
      ];
      const r = checkCatalogueCsv(csv(...rows));
      expect(r.errors).toEqual([]);
      expect(r.catalogue).toEqual({ items, combos });
      expect(checkCatalogueCsv(catalogueCsv({ items, combos })).catalogue).toEqual({ items, combos });
    }
  });

  it('writes the Demo catalogue as the template, which reads back the same', () => {
    const template = catalogueCsv(DEMO_CATALOGUE);
    expect(template.split('\r\n')[0]).toBe(HEADER);
    expect(template).toContain('CMB1,Popcorn combo,Combos,3000.00,,,Drink,FANTA|COKE|WATER\r\n');
    expect(checkCatalogueCsv(template)).toEqual({ catalogue: DEMO_CATALOGUE, totalRows: 8, errors: [] });
  });
});

describe('checkCatalogueJson', () => {
  it('reads prices in naira as strings or numbers, exactly', () => {
    const r = checkCatalogueJson(
      JSON.stringify({
        items: [
          { code: 'popl', name: 'Popcorn large', category: 'Popcorn', price: '2,500.50' },
          { code: 'WATER', name: 'Water', category: 'Drinks', price: 400.1, stock: 3 },
        ],
        combos: [
          {
            code: 'CMB1',
            name: 'Combo',
            category: 'Combos',
            price: 3000,
            components: [{ name: 'Popcorn', options: ['POPL'] }],
          },
        ],
      }),
    );
    expect(r.errors).toEqual([]);
    expect(r.totalRows).toBe(3);
    expect(r.catalogue?.items.map((i) => [i.code, i.priceKobo, i.stock])).toEqual([
      ['POPL', 250_050, undefined],
      ['WATER', 40_010, 3],
    ]);
    expect(r.catalogue?.combos[0]?.priceKobo).toBe(300_000);
  });

  it('names the line where a wrong value starts and its path, and keeps nothing', () => {
    const text = [
      '{',
      '  "items": [',
      '    { "code": "POPL", "name": "Popcorn", "category": "Popcorn", "price": "25.001" },',
      '    { "code": "COKE", "name": "Coke", "category": "Drinks",',
      '      "price": 700, "priceKobo": 70000 }',
      '  ],',
      '  "combos": [',
      '    { "code": "CMB1", "name": "Combo", "category": "Combos", "price": 3000,',
      '      "components": [ { "name": "Drink", "options": ["COKE", "SPRITE"] } ] }',
      '  ]',
      '}',
    ].join('\n');
    const r = checkCatalogueJson(text);
    expect(r.catalogue).toBeNull();
    expect(r.errors.map((e) => `${e.line} ${e.column}: ${e.message}`)).toEqual([
      '3 items.0.price: "25.001" is not a price in naira: write it like 1500 or 1500.50 (at most two decimals, no other signs)',
      '4 items.1: Unrecognized key: "priceKobo"',
    ]);
    const rules = checkCatalogueJson(text.replace('"25.001"', '2500').replace(', "priceKobo": 70000', ''));
    expect(rules.errors.map((e) => `${e.line} ${e.column}: ${e.message}`)).toEqual([
      '9 combos.0.components.0.options.1: The combo Combo offers SPRITE as Drink, which is not an item of the catalogue',
    ]);
  });

  it('gives the line of a syntax error', () => {
    const r = checkCatalogueJson('{\n  "items": [\n    { "code": "POPL" ,, }\n  ]\n}');
    expect(r.catalogue).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.line).toBe(3);
    expect(r.errors[0]?.message).toMatch(/^The file is not JSON: /);
  });

  it('gives back the Demo catalogue written as a JSON file', () => {
    const file = {
      items: DEMO_CATALOGUE.items.map(({ priceKobo, ...it }) => ({ ...it, price: koboToNairaString(priceKobo) })),
      combos: DEMO_CATALOGUE.combos.map(({ priceKobo, ...co }) => ({ ...co, price: koboToNairaString(priceKobo) })),
    };
    expect(checkCatalogueJson(JSON.stringify(file, null, 2))).toEqual({
      catalogue: DEMO_CATALOGUE,
      totalRows: 7,
      errors: [],
    });
  });
});
