// The Sell screen's basket through the whole stack in real Chromium, Demo profile (its demo
// catalogue), keyboard only: "2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water;
// ₦5,000 cash, the rest by card", from Enter on the show to Paid (the customer pays on the demo
// terminal), at 1024×768 and 1366×768, light and dark, with the seat map, the basket and Charge in
// view. The keys the cashier pressed from Enter on the show to Paid are counted and printed
// (`basket.keysToPaid=N`, for the bench).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, callShell, expect, test } from './fixtures';
import { layoutJson } from './seat-layouts';

const MIN = 60_000;

function programmeCsv(): string {
  const t = Math.floor((Date.now() + 30 * MIN) / MIN) * MIN;
  const date = lagosDate(t);
  const time = lagosHm(t);
  return [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${date},${time},Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${date},${time},Child,3000,200`,
  ].join('\r\n');
}

async function setUp(page: Page, request: Parameters<typeof callShell>[0], shell: Parameters<typeof callShell>[1]) {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv: programmeCsv(), fileName: 'week.csv', by: 'Ada' });
  await callShell(request, shell, 'seats.importLayout', { text: layoutJson(), fileName: 'screen-1.json', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
}

/** The cashier's keys, counted: one per key pressed, one per character typed. */
function keyboard(page: Page) {
  let n = 0;
  return {
    press: async (key: string) => {
      n += 1;
      await page.keyboard.press(key);
    },
    type: async (text: string) => {
      n += text.length;
      await page.keyboard.type(text);
    },
    count: () => n,
  };
}

/** Wholly in view between the top of the content and the status bar: the seat map, the basket, Charge. */
async function inView(page: Page) {
  return page.evaluate(() => {
    const r = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
    const top = r('.content').top;
    const status = r('.statusbar').top;
    const fits = (sel: string) => r(sel).top >= top && r(sel).bottom <= status;
    return {
      map: fits('.seat-map'),
      basket: fits('[data-testid="basket"]'),
      charge: fits('.charge-button'),
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

for (const [width, height] of [
  [1024, 768],
  [1366, 768],
] as const) {
  test(`keyboard only at ${width}×${height}: 2 Adult + 1 Child, a combo with a Fanta, 2 water; ₦5,000 cash, the rest by card, to Paid`, async ({
    page,
    shell,
    request,
  }) => {
    await page.setViewportSize({ width, height });
    await setUp(page, request, shell);
    const keys = keyboard(page);

    await page.getByRole('combobox').focus();
    await keys.press('Enter');
    await expect(page.getByRole('heading', { name: 'DUNE: PART TWO' })).toBeVisible();
    await expect(page.getByLabel('Seats', { exact: true })).toBeFocused();
    await keys.type('f7-f9');
    await keys.press('F3');
    await keys.type('2a1c');
    const chips = page.getByRole('group', { name: "Each seat's ticket type" });
    await expect(chips).toHaveText(/F7\s*Adult\s*F8\s*Adult\s*F9\s*Child/);

    // The pad: the combo by its number (7), its drink by key (1 Fanta), the water by its number, + makes 2.
    await keys.press('F4');
    await expect(page.getByTestId('concessions-pad')).toContainText('Popcorn combo');
    await keys.type('7');
    await keys.press('Enter');
    await expect(page.getByTestId('pad-ask')).toContainText('Choose the Drink');
    await keys.type('1');
    await expect(page.getByTestId('pad-ask')).toHaveCount(0);
    await keys.type('5');
    await keys.press('Enter');
    await keys.press('+');

    const basket = page.getByTestId('basket');
    await expect(basket).toContainText('2 × Adult');
    await expect(basket).toContainText('1 × Child');
    await expect(basket).toContainText('1 × Popcorn combo (Fanta 50cl)');
    await expect(basket).toContainText('2 × Water 75cl');
    // 2 × 4,500 + 3,000 + 3 × 200 fee + 3,000 combo + 2 × 400 water: the engine's figures.
    await expect(page.getByTestId('total-amount')).toHaveText('₦16,400.00');

    // Split: ₦5,000 cash, the rest (₦11,400) by card on the terminal.
    await keys.press('F8');
    await expect(page.getByLabel('Cash part (the rest by card)')).toBeFocused();
    await keys.type('5000');
    await expect(page.getByTestId('sale-total')).toContainText('₦5,000.00 cash₦11,400.00 by card');
    await expect(page.getByRole('button', { name: /Charge ₦11,400\.00 by card/ })).toBeEnabled();

    expect(await inView(page)).toEqual({ map: true, basket: true, charge: true, overflow: 0 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `sell-basket-${width}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await keys.press('Enter');
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    await expect(page.getByTestId('payment-amount')).toHaveText('₦11,400.00');
    // The customer pays on the (demo) terminal: not a cashier's key.
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Paid');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `sell-basket-paid-${width}-${scheme}.png`) });
    }
    console.log(`basket.keysToPaid=${keys.count()}`);
    expect(keys.count()).toBe(24);
  });
}

test('cash alone: the amount tendered typed, the change shown big, and the sale comes back Paid at once', async ({
  page,
  shell,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await setUp(page, request, shell);
  await page.getByRole('combobox').press('Enter');
  await expect(page.getByLabel('Seats', { exact: true })).toBeFocused();
  await page.keyboard.type('f10');
  await page.keyboard.press('F4');
  await expect(page.getByRole('textbox', { name: /Concessions/ })).toBeFocused();
  await page.keyboard.type('water');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('basket')).toContainText('1 × Water 75cl');
  await page.keyboard.press('F7');
  await expect(page.getByLabel('Cash tendered')).toBeFocused();
  await page.keyboard.type('5000');
  // 4,500 + 200 fee + 400 water = 5,100: ₦5,000 is short, and the engine says so by the tender.
  await expect(page.getByTestId('tender')).toContainText('less than the ₦5,100.00 to pay');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('6000');
  await expect(page.getByTestId('change-amount')).toHaveText('₦900.00');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `sell-basket-cash-1024-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
});

test('a split whose card is declined: the payment view says exactly what cash to hand back', async ({
  page,
  shell,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await setUp(page, request, shell);
  await page.getByRole('combobox').press('Enter');
  await expect(page.getByLabel('Seats', { exact: true })).toBeFocused();
  await page.keyboard.type('f10');
  await page.keyboard.press('F4');
  await expect(page.getByRole('textbox', { name: /Concessions/ })).toBeFocused();
  await page.keyboard.type('water');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('basket')).toContainText('1 × Water 75cl');
  await page.keyboard.press('F8');
  await expect(page.getByLabel('Cash part (the rest by card)')).toBeFocused();
  await page.keyboard.type('1000');
  await expect(page.getByTestId('sale-total')).toContainText('₦1,000.00 cash₦4,100.00 by card');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-amount')).toHaveText('₦4,100.00');
  const no = (await page.getByTestId('out-order-no').textContent())!;
  await page.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Payment failed');
  await expect(page.getByTestId('hand-back')).toHaveText(
    `Sale ${no}: the card failed. Hand back ₦1,000.00 cash, or sell the basket again (the cash counts in the new sale).`,
  );
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `sell-basket-hand-back-1024-${scheme}.png`) });
  }
});

test('concessions only, from the list of shows: F4, 2 water and a popcorn, cash with its change, Paid', async ({
  page,
  shell,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await setUp(page, request, shell);
  await page.getByRole('combobox').press('F4');
  await expect(page.getByRole('heading', { name: 'Concessions only' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Concessions/ })).toBeFocused();
  await page.keyboard.type('water');
  await page.keyboard.press('Enter');
  await page.keyboard.press('+');
  await page.keyboard.type('pops');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('basket')).toContainText('2 × Water 75cl');
  await expect(page.getByTestId('basket')).toContainText('1 × Popcorn small');
  await expect(page.getByTestId('total-amount')).toHaveText('₦2,300.00');
  await page.keyboard.press('F7');
  await page.keyboard.type('5000');
  await expect(page.getByTestId('change-amount')).toHaveText('₦2,700.00');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `sell-basket-concessions-1024-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await expect(page.getByTestId('payment-concessions')).toHaveText('2 × Water 75cl · 1 × Popcorn small');
  await expect(page.getByTestId('payment-change')).toHaveText('₦2,700.00');
  // New sale: back to the list of shows.
  await page.getByRole('button', { name: 'New sale' }).click();
  await expect(page.getByRole('combobox')).toBeVisible();
});
