// Baskets on the manager's dashboard (issue 38) in real Chromium against a real Hub process: a
// counter syncs a day of baskets (tickets of two types, a combo, water; card, cash and split); a
// branch manager uploads the concessions catalogue on the Programme page (a file with mistakes shown
// by line and column, nothing kept; then a good one with a counted item), sees Today's and the
// shift's sales by category and tender and downloads the items sold; a sale that takes more water
// than the stock left shows in Needs attention. Screenshots light and dark, desktop and phone
// (test/artifacts/screens/dashboard-sales-*.png, dashboard-catalogue-*.png, dashboard-stock-*.png).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBasket } from '../../shared/basket-check';
import type { BasketInput } from '../../shared/basket';
import { catalogueCsv } from '../../shared/catalogue-csv';
import { DEMO_CATALOGUE } from '../../shared/catalogue';
import type { SoldBasket } from '../../shared/basket-sale';
import { lagosDate } from '../../shared/time';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const BM = { name: 'Ikeja Manager', password: 'ikeja password 123' };
const IKEJA = 'B-IKEJA';
const TYPES = [
  { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
];

let hub: HubProcess;
let hubDir: string;
let day: string;
let j: CounterJournal;

function sold(input: BasketInput): SoldBasket {
  const c = checkBasket(input, { ticketTypes: TYPES, catalogue: DEMO_CATALOGUE });
  if (!c.ok) throw new Error(JSON.stringify(c.problems));
  return { lines: c.lines, tender: c.basket.tender, amounts: c.amounts };
}

function paidSale(ref: string, at: number, b: SoldBasket) {
  return [
    j.ev('order.created', at, {
      reference: ref,
      amountKobo: b.amounts.cardKobo,
      sn: 'SN-1',
      cashier: 'Ada',
      profile: 'production',
      basket: b,
    }),
    j.ev('order.status', at + 30_000, { reference: ref, status: 'paid' }),
  ];
}

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-dash-baskets-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const setup = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.req('POST', '/api/v1/dashboard/setup', { token: setup, ...HO })).status).toBe(200);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  expect((await ho.post('/managers', { ...BM, role: 'branch', branch: IKEJA })).status).toBe(200);
  day = lagosDate(Date.now());
  const c = await enroll(hub, 'Counter 1', IKEJA);
  j = new CounterJournal(hub.url, c.credential);
  const now = Date.now();
  const show = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: day, showTime: '19:30' };
  await j.sync([
    j.ev('shift.opened', now - 20 * 60_000, {
      shiftId: 'S1',
      cashier: 'Ada',
      floatKobo: 2_000_000,
      profile: 'production',
    }),
    ...paidSale(
      'COU1-1',
      now - 15 * 60_000,
      sold({
        tickets: {
          ...show,
          seats: [
            { seat: 'F7', ticketType: 'Adult' },
            { seat: 'F8', ticketType: 'Adult' },
            { seat: 'F9', ticketType: 'Child' },
          ],
        },
        concessions: [
          { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
          { code: 'WATER', quantity: 2 },
        ],
        tender: { kind: 'split', cashKobo: 500_000 },
      }),
    ),
    ...paidSale(
      'COU1-2',
      now - 12 * 60_000,
      sold({ concessions: [{ code: 'POPS', quantity: 3 }], tender: { kind: 'cash', tenderedKobo: 500_000 } }),
    ),
    ...paidSale(
      'COU1-3',
      now - 10 * 60_000,
      sold({
        tickets: { ...show, seats: [{ seat: 'G1', ticketType: 'Adult' }] },
        concessions: [{ code: 'NACHO', quantity: 1 }],
        tender: { kind: 'card' },
      }),
    ),
  ]);
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

test('Today and Shifts show the sales by category and tender; the items sold download as CSV', async ({
  page,
  browser,
}) => {
  await login(page, hub.url, BM);
  const sales = page.getByTestId('today-sales');
  await expect(sales).toBeVisible();
  const cats = page.getByTestId('today-sales-categories');
  await expect(cats.locator('tr[data-category="Tickets"]')).toContainText('4');
  await expect(cats.locator('tr[data-category="Tickets"]')).toContainText('₦16,500.00');
  await expect(cats.locator('tr[data-category="Drinks"]')).toContainText('₦800.00');
  await expect(page.getByTestId('today-sales-total')).toHaveText('₦27,600.00');
  const tenders = page.getByTestId('today-sales-tenders');
  await expect(tenders.locator('tr[data-tender="split"]')).toContainText('₦5,000.00');
  await expect(page.getByTestId('today-sales-cash')).toHaveText('₦9,500.00');
  await expect(page.getByTestId('today-sales-card')).toHaveText('₦18,100.00');
  await both(page, 'sales-today', page.locator('section.card', { has: sales }));

  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('items-csv').click()]);
  const csv = readFileSync((await dl.path())!, 'utf8').split('\r\n');
  expect(csv[0]).toBe('day_lagos,branch,kind,code,name,category,quantity,amount_naira,booking_fee_naira');
  expect(csv).toContain(`${day},${IKEJA},item,WATER,Water 75cl,Drinks,2,800.00,0.00`);

  // Orders: a cash sale shows its total, marked cash (its card part is ₦0.00).
  await page.goto(`${hub.url}/dashboard/orders`);
  const cashRow = page.locator('tr[data-reference="COU1-2"]');
  await expect(cashRow.getByTestId('order-amount')).toHaveText('₦4,500.00 cash');
  await expect(page.locator('tr[data-reference="COU1-1"]').getByTestId('order-amount')).toHaveText('₦16,400.00 split');
  await both(page, 'sales-orders', page.locator('table', { has: cashRow }));

  await page.goto(`${hub.url}/dashboard/shifts`);
  await expect(page.getByTestId('shift-sales-S1-total')).toHaveText('₦27,600.00');
  await both(page, 'sales-shift', page.locator('li.shift[data-shift="S1"]'));

  const phone = await newPage(browser, { width: 390, height: 844 });
  await login(phone, hub.url, BM);
  await expect(phone.getByTestId('today-sales')).toBeVisible();
  await both(phone, 'sales-today-phone', phone.locator('section.card', { has: phone.getByTestId('today-sales') }));
  await phone.context().close();
});

test('the catalogue: mistakes by line and column keep nothing; a good file is sent; stock below zero is in Needs attention', async ({
  page,
  browser,
}) => {
  await login(page, hub.url, BM, '/dashboard/programme');
  const card = page.getByTestId('catalogue-card');
  await expect(card).toContainText('No catalogue uploaded for this branch yet');
  const bad =
    'code,name,category,price,stock\nPOPS,Popcorn small,Popcorn,1500,\nPOPL,Popcorn large,Popcorn,two thousand,\nWATER,Water,Drinks,400,-3\n';
  await page
    .getByTestId('catalogue-file')
    .setInputFiles({ name: 'stand.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await page.getByRole('button', { name: 'Upload stand.csv' }).click();
  await expect(page.getByTestId('catalogue-message')).toContainText('Nothing changed: 2 problems in stand.csv');
  const errors = page.getByTestId('catalogue-errors').locator('tbody tr');
  await expect(errors).toHaveCount(2);
  await expect(errors.nth(0)).toHaveAttribute('data-column', 'price');
  await expect(errors.nth(1)).toHaveAttribute('data-column', 'stock');
  await both(page, 'catalogue-errors', card);

  // WATER counted: 3 left; the sales before the upload do not count against it.
  const good = catalogueCsv({
    ...DEMO_CATALOGUE,
    items: DEMO_CATALOGUE.items.map((i) => (i.code === 'WATER' ? { ...i, stock: 3 } : i)),
  });
  await page
    .getByTestId('catalogue-file')
    .setInputFiles({ name: 'stand.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
  await page.getByRole('button', { name: 'Upload stand.csv' }).click();
  await expect(page.getByTestId('catalogue-message')).toHaveText("Version 1 sent to the branch's counters: stand.csv.");
  await expect(card.locator('tr[data-code="WATER"]')).toContainText('3 of 3');

  // A counter sells four waters after the upload: −1 left, in Needs attention; nothing was stopped.
  await j.sync(
    paidSale(
      'COU1-4',
      Date.now() - 1_000,
      sold({ concessions: [{ code: 'WATER', quantity: 4 }], tender: { kind: 'cash', tenderedKobo: 200_000 } }),
    ),
  );
  await page.reload();
  await expect(card.locator('tr[data-code="WATER"]')).toContainText('-1 of 3');
  await both(page, 'catalogue', card);

  await page.goto(`${hub.url}/dashboard/attention`);
  const line = page.locator('li', { hasText: 'Water 75cl (WATER): -1 left across the counters' });
  await expect(line).toBeVisible();
  await both(page, 'stock-attention', line);

  const phone = await newPage(browser, { width: 390, height: 844 });
  await login(phone, hub.url, BM, '/dashboard/programme');
  await expect(phone.getByTestId('catalogue-card').locator('tr[data-code="WATER"]')).toContainText('-1 of 3');
  await both(phone, 'catalogue-phone', phone.getByTestId('catalogue-card'));
  await phone.context().close();
});
