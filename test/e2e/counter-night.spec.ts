// The counter at 10 pm, in real Chromium on the Demo profile: a reload while the customer has the
// terminal, a customer who walks away, a second charge on a terminal that still holds an unpaid
// order. Nothing a tired cashier does may charge the wrong sale or hide one.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, callShell, expect, test } from './fixtures';

const SN = 'DEMO-POS-0001';

async function handSale(page: Page, sale: { film: string; seats: string; price: string; fee: string }): Promise<void> {
  await page.getByLabel('Film name', { exact: true }).fill(sale.film);
  await page.getByLabel('Film title (on the ticket)').fill(sale.film.toUpperCase());
  await page.getByLabel('Seats', { exact: true }).fill(sale.seats);
  await page.getByLabel('Price per ticket (₦)').fill(sale.price);
  await page.getByLabel('Booking fee per ticket (₦)').fill(sale.fee);
}

async function shots(page: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 768 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a reload brings the payment on the terminal back; customer left frees the screen; a second charge names the waiting order', async ({
  page,
  shell,
}) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('terminal-sn')).toContainText(SN);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');

  // ₦13,700.00 goes to the terminal; the panel says how to end it from the terminal.
  await handSale(page, { film: 'Gladiator II', seats: 'F7,F8', price: '6,750', fee: '100' });
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('payment-amount')).toHaveText('₦13,700.00');
  const first = (await page.getByTestId('out-order-no').textContent()) ?? '';
  await expect(page.getByTestId('cancel-hint')).toContainText('Cancel on the terminal');

  // F5: the same payment comes back on the screen, not an empty form.
  await page.reload();
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('out-order-no')).toHaveText(first);
  await expect(page.getByTestId('payment-amount')).toHaveText('₦13,700.00');
  await shots(page, 'sell-restored-payment');

  // The customer walked away: the screen is free, the order still named as on the terminal.
  await page.getByRole('button', { name: 'Customer left (keep checking)' }).click();
  await expect(page.getByTestId('payment')).toHaveCount(0);
  const still = page.getByTestId('still-open');
  await expect(still).toContainText(`₦13,700.00 ${first}`);
  await expect(still).toContainText('press Cancel on the terminal');

  // The next customer: ₦4,700.00 cannot go to the same terminal while ₦13,700.00 waits on it; Enter does nothing.
  await handSale(page, { film: 'Wicked', seats: 'G1', price: '4,500', fee: '200' });
  await expect(page.getByTestId('total-amount')).toHaveText('₦4,700.00');
  const charge = page.getByRole('button', { name: /^Charge ₦4,700\.00 on terminal/ });
  await expect(charge).toBeDisabled();
  await expect(page.locator('#charge-reason')).toHaveText(
    `₦13,700.00 ${first} is still on the terminal: ask the customer to cancel it there, or wait.`,
  );
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment')).toHaveCount(0);
  await expect(
    page.getByRole('button', { name: `Charge anyway: ₦13,700.00 ${first} stays on the terminal` }),
  ).toBeVisible();
  await shots(page, 'sell-terminal-busy');

  // After another reload the block is still there (restored from the core, not from the page's memory).
  await page.reload();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await page.getByRole('button', { name: 'Hide (payment continues)' }).click();
  await expect(page.getByTestId('still-open')).toContainText(first);

  // Cancel on the terminal ends it: the block goes, and the next sale charges.
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('still-open')).toHaveCount(0);
  await handSale(page, { film: 'Wicked', seats: 'G1', price: '4,500', fee: '200' });
  await page.getByRole('button', { name: /^Charge ₦4,700\.00 on terminal/ }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('payment-amount')).toHaveText('₦4,700.00');
  expect(await page.getByTestId('out-order-no').textContent()).not.toBe(first);
});

test.describe('no shift open', () => {
  test.use({ shiftOpen: false });

  test('a red "No shift open" pill, Charge refused until a shift is opened (Alt+4), then it charges', async ({
    page,
    shell,
  }) => {
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
    const pill = page.getByTestId('shift-pill');
    await expect(pill).toHaveText('No shift open · Alt+4');
    await expect(pill).toHaveAttribute('data-tone', 'bad');

    await handSale(page, { film: 'Wicked', seats: 'G1', price: '4,500', fee: '200' });
    await expect(page.getByRole('button', { name: /^Charge ₦4,700\.00 on terminal/ })).toBeDisabled();
    await expect(page.locator('#charge-reason')).toContainText('No shift open: open one under Shift (Alt+4)');
    await page.getByLabel('Seats', { exact: true }).press('Enter');
    await expect(page.getByTestId('payment')).toHaveCount(0);
    await shots(page, 'sell-no-shift');

    await page.keyboard.press('Alt+4');
    await page.getByLabel('Cashier’s name').fill('Ngozi Eze');
    await page.getByRole('button', { name: 'Open shift' }).click();
    await expect(pill).toHaveText('Shift: Ngozi Eze');
    await page.keyboard.press('Alt+1');
    await page.getByRole('button', { name: /^Charge ₦4,700\.00 on terminal/ }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  });
});

function at(offsetMin: number): { date: string; time: string } {
  const t = Math.floor((Date.now() + offsetMin * 60_000) / 60_000) * 60_000;
  return { date: lagosDate(t), time: lagosHm(t) };
}

test("the next show that has not started is preselected; a started one says so; the first ticket type; the typed form takes the programme's prices", async ({
  page,
  shell,
  request,
}) => {
  const started = at(-12);
  const next = at(25);
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Old Film,OLD FILM,PG,Screen 3,${started.date},${started.time},Adult,2000,100`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Child,3000,200`,
  ].join('\r\n');
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv, fileName: 'tonight.csv', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');

  // The started show is listed first, but the choice starts on the next one.
  const options = page.getByRole('option');
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toContainText(/started 1[23] min ago/);
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');

  // A Child sale of Dune 2, paid: the next pick still starts on Adult (the programme's first).
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'DUNE: PART TWO' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Adult/ })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('G1');
  await expect(
    page.getByRole('button', { name: /^Charge ₦3,200\.00 for 1 Child on terminal DEMO-POS-0001/ }),
  ).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await page.getByRole('button', { name: 'New sale' }).click();
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('radio', { name: /Adult/ })).toHaveAttribute('aria-checked', 'true');

  // The show that started 12 minutes ago, picked on purpose: it says so, and so does the payment.
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'OLD FILM' })).toBeVisible();
  await expect(page.getByTestId('show-started')).toHaveText(/^started 1[234] min ago$/);
  await page.keyboard.type('F1');
  await expect(page.getByRole('button', { name: /^Charge ₦2,100\.00 for 1 Adult on terminal/ })).toBeVisible();
  await shots(page, 'sell-picked-started');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('sale-show-started')).toHaveText(/started 1[234] min ago when sold/);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');
  await page.getByRole('button', { name: 'New sale' }).click();

  // Typed by hand for the same show as the programme's: its title, price and fee, not an older sale's.
  await page.keyboard.press('F2');
  await page.getByLabel('Film name', { exact: true }).fill('Dune 2');
  await page.getByLabel('Show date').fill(next.date);
  await page.getByLabel('Show time').fill(next.time.replace(':', ''));
  await page.getByLabel('Seats', { exact: true }).fill('F7,F8');
  await expect(page.getByLabel('Film title (on the ticket)')).toHaveValue('DUNE: PART TWO');
  await expect(page.getByLabel('Price per ticket (₦)')).toHaveValue('4500');
  await expect(page.getByTestId('total-amount')).toHaveText('₦9,400.00');
});

test("airtime: the number's prefix picks the network (0803 → MTN), and the cashier can change it", async ({
  page,
  shell,
}) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.keyboard.press('Alt+2');
  await expect(page.getByRole('heading', { name: 'Top-ups', level: 1 })).toBeVisible();
  const phone = page.getByLabel("Customer's phone number");
  await phone.fill('0803 123 4567');
  await expect(page.getByRole('radio', { name: 'MTN' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('network-hint')).toContainText('Picked from the number');
  await phone.fill('0805 123 4567');
  await expect(page.getByRole('radio', { name: 'Glo' })).toHaveAttribute('aria-checked', 'true');
  await shots(page, 'topups-network-from-prefix');
  // A ported number: the cashier's choice stays, whatever the prefix.
  await page.getByRole('radio', { name: 'Airtel' }).click();
  await phone.fill('0803 765 4321');
  await expect(page.getByRole('radio', { name: 'Airtel' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('network-hint')).toHaveCount(0);
  await page.getByLabel('Amount (₦)').fill('500');
  await expect(page.getByRole('button', { name: /Top up ₦500\.00 Airtel airtime to 0803 765 4321/ })).toBeVisible();
});
