// The cashier's checkout through the whole stack in real Chromium, on the Demo profile's embedded
// sandbox terminal (DEMO-POS-0001): sell, charge, play the customer on the demo terminal, see the outcome.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, test } from './fixtures';

const SN = 'DEMO-POS-0001';

async function openSell(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('terminal-sn')).toContainText(SN);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
}

async function fillSale(
  page: Page,
  sale: { film: string; title: string; seats: string; price: string; fee: string },
): Promise<void> {
  await page.getByLabel('Film name', { exact: true }).fill(sale.film);
  await page.getByLabel('Film title (on the ticket)').fill(sale.title);
  await page.getByLabel('Seats', { exact: true }).fill(sale.seats);
  await page.getByLabel('Price per ticket (₦)').fill(sale.price);
  await page.getByLabel('Booking fee per ticket (₦)').fill(sale.fee);
}

// The booking fee is per ticket: 2 × (₦2,500 + ₦100) = ₦5,200.
const AVENGERS = { film: 'AVENGERS-2D', title: 'Avengers: Doomsday', seats: 'f7, F8', price: '2,500', fee: '100' };

async function outOrderNo(page: Page): Promise<string> {
  const text = (await page.getByTestId('out-order-no').textContent()) ?? '';
  expect(text).toMatch(/^[A-Z0-9]{1,6}-\d{6}-\d{4,}$/);
  return text;
}

/** Presses Tab until the focused element matches, as a keyboard user would (at most `max` presses). */
async function tabUntil(page: Page, matches: () => boolean | Promise<boolean>, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await matches()) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`focus did not reach the target after ${max} Tab presses`);
}

test('sell two tickets, pay on the demo terminal, see Paid and the receipt; the film is remembered', async ({
  page,
  shell,
}) => {
  await openSell(page, shell.url);

  // Errors show next to their field, before anything is sent.
  await page.getByLabel('Film name', { exact: true }).fill(AVENGERS.film);
  await page.getByRole('button', { name: /^Charge\b.*on terminal DEMO-POS-0001/ }).click();
  await expect(page.getByText('Enter the seats, for example F7,F8')).toBeVisible();
  await expect(page.getByText('Enter the ticket price')).toBeVisible();
  // The first field to fix gets the focus.
  await expect(page.getByLabel('Film title (on the ticket)')).toBeFocused();

  await fillSale(page, AVENGERS);
  await expect(page.getByLabel('Number of tickets')).toHaveValue('2');
  await expect(page.getByTestId('total-amount')).toHaveText('₦5,200.00');
  await page.getByRole('button', { name: /^Charge ₦5,200\.00 on terminal DEMO-POS-0001/ }).click();

  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('payment-amount')).toHaveText('₦5,200.00');
  await expect(page.getByTestId('customer-line')).toContainText('tap, insert or swipe your card');
  await expect(page.getByTestId('countdown')).toHaveText(/\d\d:\d\d/);
  const no = await outOrderNo(page);
  await expect(page.getByTestId('demo-amount')).toHaveText('₦5,200.00');
  await expect(page.getByTestId('demo-terminal')).toContainText(no);

  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  const receipt = page.getByTestId('receipt-preview');
  await expect(receipt).toContainText('Avengers: Doomsday');
  await expect(receipt).toContainText('F7, F8');
  await expect(receipt).toContainText('₦5,200.00');
  // One vocabulary: our number is the sale number, the fee is per ticket (its line is for both tickets).
  await expect(receipt).toContainText('Sale no.');
  await expect(receipt).toContainText('Booking fee 2 × ₦100.00');
  await expect(receipt).toContainText('₦200.00');
  await expect(receipt).toContainText('Provider order no.');
  await expect(receipt).toContainText(no);
  await expect(page.getByRole('button', { name: 'Print receipt' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'New sale' })).toBeFocused();

  // New sale: the film sold before fills its title, price and fee.
  await page.getByRole('button', { name: 'New sale' }).click();
  await expect(page.getByLabel('Seats', { exact: true })).toHaveValue('');
  await page.getByLabel('Film name', { exact: true }).fill('AVENGERS-2D');
  await expect(page.getByLabel('Film title (on the ticket)')).toHaveValue('Avengers: Doomsday');
  await expect(page.getByLabel('Price per ticket (₦)')).toHaveValue('2500');
  await expect(page.getByLabel('Booking fee per ticket (₦)')).toHaveValue('100');

  // The Orders screen lists it as paid, with its history.
  await page.keyboard.press('Alt+3');
  const row = page.getByRole('row').filter({ hasText: no });
  await expect(row).toContainText('Paid');
  await expect(row).toContainText('₦5,200.00');
  await row.getByRole('button', { name: `Open order ${no}` }).click();
  await expect(page.getByTestId('order-detail-title')).toContainText(no);
  await expect(page.getByTestId('order-history')).toContainText('Waiting for payment → Paid');
});

test('a declined card: Payment failed, Check with the provider says not paid, then Try again sends a new order with a new number', async ({
  page,
  shell,
}) => {
  await openSell(page, shell.url);
  await fillSale(page, { film: 'LION-KING', title: 'The Lion King', seats: 'A1,A2,A3', price: '1500.50', fee: '0' });
  await expect(page.getByTestId('total-amount')).toHaveText('₦4,501.50');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const first = await outOrderNo(page);

  await page.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Payment failed');
  await expect(page.getByTestId('payment-reason')).toBeVisible();
  // A closed sale is checked with the provider first; Try again comes once it says not paid (the
  // engine records the check as the order's lastCheck).
  await expect(page.getByRole('button', { name: 'Check with the provider', exact: true })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('check-answer')).toContainText('The provider says not paid at');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeFocused();

  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('out-order-no')).not.toHaveText(first);
  const second = await outOrderNo(page);
  expect(second).not.toBe(first);
  await expect(page.getByTestId('payment-amount')).toHaveText('₦4,501.50');
  await expect(page.getByTestId('demo-terminal')).toContainText(second);

  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');

  await page.keyboard.press('Alt+3');
  await expect(page.getByRole('row').filter({ hasText: first })).toContainText('Payment failed');
  await expect(page.getByRole('row').filter({ hasText: second })).toContainText('Cancelled on the terminal');
});

test('keyboard only: fill the form, Enter charges, Tab to Pay on the demo terminal, Enter for a new sale', async ({
  page,
  shell,
}) => {
  await openSell(page, shell.url);
  const focusedName = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? '');

  await tabUntil(page, async () => (await focusedName()) === 'filmName');
  await page.keyboard.type('DUNE-3');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Dune: Part Three');
  await tabUntil(page, async () => (await focusedName()) === 'showTime');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2145');
  await page.keyboard.press('Tab');
  await page.keyboard.type('c4,c5');
  await tabUntil(page, async () => (await focusedName()) === 'price');
  await page.keyboard.type('3000');
  await page.keyboard.press('Tab');
  await page.keyboard.type('150');
  await expect(page.getByLabel('Show time')).toHaveValue('21:45');
  // The booking fee typed is per ticket, as on the programme's form: 2 × (₦3,000 + ₦150).
  await expect(page.getByTestId('sale-total')).toContainText('booking fee 2 × ₦150.00 = ₦300.00');
  await expect(page.getByTestId('total-amount')).toHaveText('₦6,300.00');
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect(pay).toBeEnabled();
  await tabUntil(page, () => pay.evaluate((el) => el === document.activeElement));
  await expect(pay).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');

  await expect(page.getByRole('button', { name: 'New sale' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Film name', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Seats', { exact: true })).toHaveValue('');

  // Esc clears the form; Undo brings it back.
  await page.keyboard.type('DUNE-3');
  await expect(page.getByLabel('Price per ticket (₦)')).toHaveValue('3000');
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Film name', { exact: true })).toHaveValue('');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByLabel('Film name', { exact: true })).toHaveValue('DUNE-3');
});

test('terminal picker: a typed SN is checked, then sales go to it (the Demo terminal that approves by itself)', async ({
  page,
  shell,
}) => {
  await openSell(page, shell.url);
  await page.getByText('Change terminal').click();
  await page.getByRole('button', { name: 'Type the SN' }).click();
  const snBox = page.getByLabel('Terminal serial number (SN)');
  await snBox.fill('AB 1');
  await page.getByRole('button', { name: 'Use this SN' }).click();
  await expect(page.getByText('Type the serial number without spaces (letters, digits and - only)')).toBeVisible();
  await snBox.fill('AB1');
  await snBox.press('Enter');
  await expect(page.getByText(/^Too short: a serial number has at least 6 characters/)).toBeVisible();
  await expect(page.getByTestId('terminal-sn')).toContainText(SN);

  await snBox.fill('DEMO-POS-0002');
  await snBox.press('Enter');
  await expect(page.getByTestId('terminal-sn')).toContainText('DEMO-POS-0002');
  await expect(page.getByTestId('terminal-status')).toHaveText('SN typed by hand');

  await fillSale(page, { film: 'DUNE-3', title: 'Dune: Part Three', seats: 'B2', price: '3000', fee: '0' });
  await page.getByRole('button', { name: /^Charge ₦3,000\.00 on terminal DEMO-POS-0002/ }).click();
  await expect(page.getByTestId('payment-sn')).toHaveText('DEMO-POS-0002');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
});

test('without a terminal, Charge is disabled and says why', async ({ page, shell }) => {
  await openSell(page, shell.url);
  await page.getByText('Change terminal').click();
  await page.getByRole('button', { name: 'Serial cable' }).click();
  await page.getByRole('button', { name: 'Connect' }).click();
  // One state, one colour, one next step: a red "No terminal" and what to do, never a green pill above it.
  await expect(page.getByTestId('terminal-status')).toHaveText('No terminal');
  await expect(page.getByTestId('terminal-status')).toHaveAttribute('data-tone', 'bad');
  await expect(page.getByTestId('terminal-sn')).toHaveText(
    'No terminal yet: choose its serial port, or type the SN from its label.',
  );
  await expect(page.getByTestId('terminal-pill')).toHaveAttribute('data-tone', 'bad');
  await fillSale(page, AVENGERS);
  const charge = page.getByRole('button', { name: /^Charge ₦5,200\.00 \(no terminal yet\)/ });
  await expect(charge).toBeDisabled();
  await expect(
    page.getByText('No terminal yet: choose the serial port or type the terminal SN in the Terminal box.'),
  ).toBeVisible();
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment')).toHaveCount(0);
  await page.screenshot({ path: join(ARTIFACTS, 'checkout-no-terminal-light.png') });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`checkout screens in ${scheme}`, async ({ page, shell }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openSell(page, shell.url);
    await fillSale(page, AVENGERS);
    await expect(page.getByTestId('total-amount')).toHaveText('₦5,200.00');
    await page.screenshot({ path: join(ARTIFACTS, `checkout-sell-${scheme}.png`) });

    await page.keyboard.press('Enter');
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    await expect(page.getByTestId('demo-amount')).toHaveText('₦5,200.00');
    await page.screenshot({ path: join(ARTIFACTS, `checkout-payment-waiting-${scheme}.png`) });

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Paid');
    await page.screenshot({ path: join(ARTIFACTS, `checkout-payment-paid-${scheme}.png`) });
    await page.getByTestId('receipt-preview').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `checkout-receipt-${scheme}.png`) });

    await page.getByRole('button', { name: 'New sale' }).click();
    await fillSale(page, { film: 'LION-KING', title: 'The Lion King', seats: 'A1', price: '1500', fee: '0' });
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Payment failed');
    await page.screenshot({ path: join(ARTIFACTS, `checkout-payment-failed-${scheme}.png`) });

    await page.keyboard.press('Alt+3');
    await expect(page.getByTestId('orders-summary')).toHaveText('2 orders · 1 paid · card total ₦5,200.00');
    await page.screenshot({ path: join(ARTIFACTS, `checkout-orders-${scheme}.png`) });
    await page
      .getByRole('button', { name: /^Open order / })
      .first()
      .click();
    await expect(page.getByTestId('order-history')).toContainText('Payment failed');
    await page.screenshot({ path: join(ARTIFACTS, `checkout-order-detail-${scheme}.png`) });
    await page.getByTestId('order-history').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `checkout-order-history-${scheme}.png`) });
  });
}
