// The counter at 10 pm, second round (issue 27), in real Chromium on the Demo profile: the Orders
// screen never hides sales behind a filter chosen earlier, and finds a sale by the last digits of
// its number, however few.
// Screenshots at 1024×768 and 1366×768, light and dark.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, test } from './fixtures';

async function shots(page: Page, name: string): Promise<void> {
  for (const size of [{ width: 1024, height: 768 }, { width: 1366, height: 768 }]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function sellAndPay(page: Page, seat: string): Promise<string> {
  await page.keyboard.press('Alt+1');
  const newSale = page.getByRole('button', { name: 'New sale' });
  if (await newSale.isVisible()) await newSale.click();
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill(seat);
  await page.getByLabel('Price per ticket (₦)').fill('2500');
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByRole('button', { name: /^Charge ₦/ }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  return no;
}

async function shown(page: Page): Promise<string[]> {
  return page.locator('.orders-table tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('.link-button')?.textContent?.trim() ?? ''));
}

test('Orders: a time window set earlier does not outlive the visit; Today and Clear reset it; the result line names the filters; "1" finds …-0001', async ({ page, shell }) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  const sale = await sellAndPay(page, 'F7');
  expect(sale).toMatch(/-0001$/);

  await page.keyboard.press('Alt+3');
  const summary = page.getByTestId('orders-summary');
  await expect(summary).toContainText('1 order');
  const find = page.getByLabel(/^Find an order: /);
  const today = page.getByRole('group', { name: 'Days' }).getByRole('button', { name: 'Today' });

  // The last digits of the sale number, however few.
  for (const digits of ['1', '01', '0001']) {
    await find.fill(digits);
    await expect.poll(() => shown(page)).toEqual([sale]);
  }
  await find.fill('');
  await expect(summary).toContainText('1 order');

  // A time window that ends before the sale: named in the result line and in the empty list; Today is not lit.
  const to = page.getByRole('group', { name: 'To' });
  const early = '00:00'; // today's first minute: before the sale (unless sold in it)
  await to.getByLabel(/time \(HH:mm, 24-hour\)/).fill(early);
  await expect(summary).toContainText('0 orders');
  await expect(page.getByTestId('orders-filters')).toHaveText(`Filters on: today until ${early}`);
  await expect(page.getByText(`No order matches. Filters on: today until ${early}. Press Clear to remove the filters`)).toBeVisible();
  await expect(today).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('group', { name: 'States' }).getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(page.getByTestId('orders-filters')).toHaveText(`Filters on: today until ${early} · Paid`);
  await shots(page, 'orders-filters-named');

  // Today: the whole of today again (the states chosen stay, and say so).
  await today.click();
  await expect(today).toHaveAttribute('aria-pressed', 'true');
  await expect(to.getByLabel(/time \(HH:mm, 24-hour\)/)).toHaveValue('');
  await expect.poll(() => shown(page)).toEqual([sale]);
  await expect(page.getByTestId('orders-filters')).toHaveText('Filters on: Paid');

  // Clear: every filter goes, not only the words.
  await to.getByLabel(/time \(HH:mm, 24-hour\)/).fill(early);
  await page.getByLabel('Only paid after closing').check();
  await expect(summary).toContainText('0 orders');
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(summary).toContainText('1 order');
  await expect(page.getByTestId('orders-filters')).toHaveCount(0);
  await expect(to.getByLabel(/time \(HH:mm, 24-hour\)/)).toHaveValue('');
  await expect(page.getByLabel('Only paid after closing')).not.toBeChecked();
  await expect(page.getByRole('group', { name: 'States' }).getByRole('button', { name: 'All states' })).toHaveAttribute('aria-pressed', 'true');

  // A window set on one visit is gone on the next.
  await to.getByLabel(/time \(HH:mm, 24-hour\)/).fill(early);
  await expect(summary).toContainText('0 orders');
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('Alt+3');
  await expect(summary).toContainText('1 order');
  await expect(to.getByLabel(/time \(HH:mm, 24-hour\)/)).toHaveValue('');
  await expect(today).toHaveAttribute('aria-pressed', 'true');
});
