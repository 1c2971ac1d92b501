// The Sell screen's seat map through the whole stack in real Chromium, Demo profile: a programme
// and a real-sized screen layout (338 seats, aisles, a VIP zone, wheelchair places and companion
// seats, blocked seats) imported, then a keyboard-only sale of `best 4` — Enter picks the show,
// `b4` Enter picks the best 4 together, Enter charges — and the map's own keys (arrows over the
// aisles, Space), a range typed, a zone seat setting its ticket type, and the map at 1024×768 light
// and dark with Charge in view.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, callShell, expect, test } from './fixtures';
import { layoutJson } from './seat-layouts';

const MIN = 60_000;

function at(offsetMin: number): { date: string; time: string } {
  const t = Math.floor((Date.now() + offsetMin * MIN) / MIN) * MIN;
  return { date: lagosDate(t), time: lagosHm(t) };
}

function programmeCsv(): string {
  const next = at(30);
  return [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},VIP,8000,200`,
  ].join('\r\n');
}

async function setUp(page: Page, request: Parameters<typeof callShell>[0], shell: Parameters<typeof callShell>[1]) {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv: programmeCsv(), fileName: 'week.csv', by: 'Ada' });
  const imported = await callShell(request, shell, 'seats.importLayout', {
    text: layoutJson(),
    fileName: 'screen-1.json',
    by: 'Ada',
  });
  expect(imported).toMatchObject({ kind: 'imported', screen: 'Screen 1', capacity: 336 });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
}

/** What is wholly in view between the top bar and the sticky Charge bar (Charge: above the status bar). */
async function inView(page: Page): Promise<{ seatsBox: boolean; map: boolean; charge: boolean }> {
  return page.evaluate(() => {
    const r = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
    const top = r('.content').top;
    const bar = r('.charge-row');
    const status = r('.statusbar');
    const box = r('input[name="seats"]');
    const map = r('.seat-map');
    return {
      seatsBox: box.top >= top && box.bottom <= bar.top,
      map: map.top >= top && map.bottom <= bar.top + 1,
      charge: r('.charge-button').bottom <= status.top,
    };
  });
}

const seat = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

test('keyboard only: pick the show, b4 Enter picks the best 4 together, Enter charges; Paid marks them sold', async ({
  page,
  shell,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await setUp(page, request, shell);
  await page.getByRole('combobox').press('Enter');
  await expect(page.getByRole('heading', { name: 'DUNE: PART TWO' })).toBeVisible();
  const map = page.getByTestId('seat-map');
  await expect(map).toBeVisible();
  await expect(page.getByTestId('seat-counts')).toHaveText('336 free · 0 held · 0 sold');
  // No Hub: the map says plainly that other counters' seats are not on it.
  await expect(page.getByTestId('seat-map-local')).toHaveText(
    'This counter has no Hub: the map shows the seats sold here only.',
  );

  const field = page.getByLabel('Seats', { exact: true });
  await expect(field).toBeFocused();
  await page.keyboard.type('b4');
  await page.keyboard.press('Enter');
  // The best 4 of the best row (about two-thirds back, of no zone), centred: I12–I15.
  await expect(field).toHaveValue('I12,I13,I14,I15');
  for (const n of [12, 13, 14, 15]) await expect(seat(page, `I${n}, free`)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('total-amount')).toHaveText('₦18,800.00');
  await expect(page.getByTestId('payment-state')).toHaveCount(0);
  // At 1024×768 the seats box, the whole map with its legend, and Charge are in view together.
  expect(await inView(page)).toEqual({ seatsBox: true, map: true, charge: true });
  await page.screenshot({ path: join(ARTIFACTS, 'seat-map-best4-1024-light.png') });

  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('payment-amount')).toHaveText('₦18,800.00');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-preview')).toContainText('Row I, seat 12');

  // The next sale of the show: those 4 are sold on the map, and best 4 goes elsewhere.
  await page.getByRole('button', { name: 'New sale' }).click();
  await page.getByRole('combobox').press('Enter');
  await expect(seat(page, 'I13, sold at this counter')).toBeVisible();
  await expect(page.getByTestId('seat-counts')).toHaveText('332 free · 0 held · 4 sold');
  await page.keyboard.type('b4');
  await page.keyboard.press('Enter');
  await expect(field).not.toHaveValue(/I1[2-5]/);
});

test('the map by keys and by mouse: arrows skip the aisles, Space picks, a range typed shows, a VIP seat sets VIP; fits 1024×768', async ({
  page,
  shell,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await setUp(page, request, shell);
  await page.getByRole('combobox').press('Enter');
  const field = page.getByLabel('Seats', { exact: true });

  // A range typed is spelt out on the map and counts 3 tickets.
  await field.fill('f7-f9');
  for (const n of [7, 8, 9]) await expect(seat(page, `F${n}, free`)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('total-amount')).toHaveText('₦14,100.00');

  // Tab from the seats field into the map; the cursor is on the first seat chosen.
  await page.keyboard.press('Tab');
  await expect(seat(page, 'F7, free')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  // F6 is across the aisle: one key press.
  await expect(seat(page, 'F6, free')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(field).toHaveValue('F7,F8,F9,F6');
  await page.keyboard.press('Space');
  await expect(field).toHaveValue('F7,F8,F9');
  await page.keyboard.press('ArrowDown');
  await expect(seat(page, 'G6, free')).toBeFocused();

  // A VIP seat by mouse: the ticket type follows the zone.
  await field.fill('');
  await seat(page, 'K10, VIP, free').click();
  await expect(field).toHaveValue('K10');
  await expect(page.getByRole('radio', { name: /VIP/ })).toHaveAttribute('aria-checked', 'true');
  // A blocked seat is not picked.
  await seat(page, 'M13, blocked').click({ force: true });
  await expect(field).toHaveValue('K10');

  // Charge in view at 1024×768, light and dark.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `seat-map-sell-1024-${scheme}.png`) });
    const c = await page.evaluate(() => {
      const b = document.querySelector('.charge-button')!.getBoundingClientRect();
      const bar = document.querySelector('.statusbar')!.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      return { bottom: b.bottom, limit: bar.top, overflow: document.documentElement.scrollWidth - vw };
    });
    expect(c.bottom).toBeLessThanOrEqual(c.limit);
    expect(c.overflow).toBeLessThanOrEqual(0);
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('Settings → Screens: a layout with a mistake is refused by row and seat, a good one imported; the Demo programme loads', async ({
  page,
  shell,
  request,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv: programmeCsv(), fileName: 'week.csv', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.keyboard.press('Alt+5');
  await page.getByLabel('Admin PIN').fill('2468');
  await page.getByLabel('Admin PIN').press('Enter');
  const panel = page.getByRole('region', { name: 'Screens', exact: true });
  await expect(panel.getByTestId('layout-screens')).toContainText('Screen 1: no layout');
  await panel.getByLabel('Layout imported by').fill('Ada (manager)');
  const bad = JSON.stringify({
    format: 'counterpay-seat-layout/1',
    screen: 'Screen 1',
    rows: [{ row: 'A', seats: '1-6 _ 7w:vp 8-12' }],
  });
  await page
    .getByLabel('Layout file')
    .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  await expect(panel.getByTestId('layout-message')).toHaveText('bad.json was not imported: fix the problem below.');
  const row = panel.getByTestId('layout-errors').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('A');
  await expect(row).toContainText('7w:vp');
  await expect(panel.getByTestId('layout-screens')).toContainText('Screen 1: no layout');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await panel.screenshot({ path: join(ARTIFACTS, `seat-layouts-refused-${scheme}.png`) });
  }
  await page.getByLabel('Layout file').setInputFiles({
    name: 'screen-1.json',
    mimeType: 'application/json',
    buffer: Buffer.from(layoutJson()),
  });
  await expect(panel.getByTestId('layout-message')).toHaveText('screen-1.json imported: Screen 1, 336 seats.');
  await expect(panel.getByTestId('layout-screens')).toContainText('Screen 1: 336 seats in 13 rows (imported here)');
  await expect(panel.getByTestId('layout-errors')).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await panel.screenshot({ path: join(ARTIFACTS, `seat-layouts-imported-${scheme}.png`) });
  }

  // Demo only: the Demo programme (Dune 2 on Screen 1 with the example layout, Inside Out 2 on
  // Screen 2 with typed seats), to try the seat map.
  await panel.getByRole('button', { name: 'Load the Demo programme' }).click();
  await expect(panel.getByTestId('layout-message')).toContainText('Demo programme loaded:');
  await expect(panel.getByTestId('layout-screens')).toContainText('Screen 2: no layout');
});
