// Finding a customer's payment on the Orders screen, in real Chromium on the Demo profile, with the
// browser set to a US locale (its date pickers write 11/25/2026): the paid-after-closing filter,
// the card's last four digits, the payment number, and an amount inside a time window. Every date
// input has the day beside it as people read it in Lagos ("Wed, 25 Nov 2026"), the Sell form's too,
// and an order's detail gives its show's day the same way.
// Screenshots at 1024×768 and 1366×768, light and dark.
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { ShellProcess } from '../helpers/browser-shell-process';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, callShell, expect, test } from './fixtures';

test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const SN = 'DEMO-POS-0001';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-25" as people read it in CounterPay: "Wed, 25 Nov 2026" (worked out here, not by the app's formatter). */
function peopleDay(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${DAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]}, ${String(d).padStart(2, '0')} ${MONTHS[m - 1]} ${y}`;
}

interface Order {
  id: number;
  outOrderNo: string;
  orderNo: string | null;
  payNo: string | null;
  createdAt: number;
  amountKobo: number;
  sale: { showDate: string; showTime: string };
}

async function sell(
  page: Page,
  request: APIRequestContext,
  shell: ShellProcess,
  provider: string,
  seat: string,
  price: string,
  outcome: 'SUCCESS' | 'CANCEL',
  cardPan?: string,
): Promise<Order> {
  await page.keyboard.press('Alt+1');
  const newSale = page.getByRole('button', { name: 'New sale' });
  if (await newSale.isVisible()) await newSale.click();
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill(seat);
  await page.getByLabel('Price per ticket (₦)').fill(price);
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByRole('button', { name: /^Charge ₦/ }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  const r = await request.post(`${provider}/_sandbox/terminals/${SN}/present`, {
    data: { outcome, ...(cardPan ? { cardPan } : {}) },
  });
  expect(r.status()).toBe(200);
  await expect(page.getByTestId('payment-state')).toHaveText(
    outcome === 'SUCCESS' ? 'Paid' : 'Cancelled on the terminal',
  );
  const found = await callShell<{ rows: Order[] }>(request, shell, 'orders.search', { text: outOrderNo });
  return found.rows[0]!;
}

async function shown(page: Page): Promise<string[]> {
  return page
    .locator('.orders-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('.link-button')?.textContent?.trim() ?? ''));
}

test('Orders finds a payment by paid after closing, card last four, payment number, and amount in a time window; dates read the Lagos way', async ({
  page,
  shell,
  request,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  const demo = (
    await callShell<{ settings: { posBaseUrl: string } }>(request, shell, 'settings.getProfile', { profile: 'demo' })
  ).settings;
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');

  // The Sell form's date is typed as 2026-11-25 whatever the browser's locale, and read back beside it the Lagos way.
  const today = lagosDate(Date.now());
  await expect(page.getByLabel('Show date', { exact: true })).toHaveAccessibleDescription(
    new RegExp(`${peopleDay(today)}`),
  );

  // Three sales: one paid by card 8765, one cancelled that the provider then took with card 4321, one paid for another amount.
  const paid = await sell(page, request, shell, demo.posBaseUrl, 'F7', '2,500', 'SUCCESS', '5399831234568765');
  const closed = await sell(page, request, shell, demo.posBaseUrl, 'F8', '4,000', 'CANCEL');
  const other = await sell(page, request, shell, demo.posBaseUrl, 'F9', '3,000', 'SUCCESS', '5399831234561111');
  expect(
    (
      await request.post(`${demo.posBaseUrl}/_sandbox/orders/${closed.orderNo}/late`, {
        data: { status: 'SUCCESS', cardPan: '5399831234564321' },
      })
    ).status(),
  ).toBe(200);
  expect(await callShell(request, shell, 'orders.sweep')).toMatchObject({ paidAfterClosing: 1 });
  await expect(page.getByTestId('late-pill')).toHaveText('Paid after closing: 1');

  await page.keyboard.press('Alt+3');
  const summary = page.getByTestId('orders-summary');
  await expect(summary).toHaveText(
    '3 orders · 3 paid · card total ₦9,500.00 (of which 1 paid after closing: ₦4,000.00)',
  );
  // The days beside the browser's date pickers, the Lagos way.
  await expect(page.getByTestId('from-day-text')).toHaveText(peopleDay(today));
  await expect(page.getByTestId('to-day-text')).toHaveText(peopleDay(today));

  // Paid after closing: only that sale.
  const onlyLate = page.getByLabel('Only paid after closing');
  await onlyLate.check();
  // The money taken after closing is in what was taken, as on the Z (the sale's state stays Cancelled).
  await expect(summary).toHaveText(
    '1 order · 1 paid · card total ₦4,000.00 (of which 1 paid after closing: ₦4,000.00)',
  );
  expect(await shown(page)).toEqual([closed.outOrderNo]);
  // The row says it beside its closed state: the money was taken.
  await expect(page.locator('.orders-table tbody tr').first().locator('[data-state="paid-after-closing"]')).toHaveText(
    '₦Paid after closing',
  );
  for (const [width, height] of [
    [1024, 768],
    [1366, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `no horizontal scrolling at ${width}`,
    ).toBe(true);
    // The filters and what they found, in view together.
    await onlyLate.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await page.screenshot({ path: join(ARTIFACTS, `orders-find-paid-after-closing-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await onlyLate.uncheck();
  await expect(summary).toContainText('3 orders');

  // The card's last four digits: the customer's card of the payment taken after closing, and of a paid sale.
  const find = page.getByLabel(/^Find an order: .*the card's last four digits/);
  await find.fill('4321');
  await expect.poll(() => shown(page)).toEqual([closed.outOrderNo]);
  await find.fill('8765');
  await expect.poll(() => shown(page)).toEqual([paid.outOrderNo]);
  // The payment number.
  const { payNo } = await callShell<Order>(request, shell, 'orders.get', { id: other.id });
  expect(payNo).toBeTruthy();
  await find.fill(payNo!);
  await expect.poll(() => shown(page)).toEqual([other.outOrderNo]);
  // Its detail gives the show's day the same way, not as 2026-11-25.
  await page.getByRole('button', { name: `Open order ${other.outOrderNo}` }).click();
  await expect(page.locator('.detail-facts')).toContainText(`${peopleDay(other.sale.showDate)} ${other.sale.showTime}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('orders-summary')).toBeVisible();

  // An amount inside a time window: a window that ends the minute before the sale finds nothing; one that holds its minute finds it.
  await find.fill('2,500');
  await expect.poll(() => shown(page)).toEqual([paid.outOrderNo]);
  const from = page.getByRole('group', { name: 'From' });
  const to = page.getByRole('group', { name: 'To' });
  const setBound = async (g: typeof from, ms: number) => {
    await g.locator('input[type=date]').fill(lagosDate(ms));
    await g.getByLabel(/time \(HH:mm, 24-hour\)/).fill(lagosHm(ms));
  };
  await setBound(from, paid.createdAt - 10 * 60_000);
  await setBound(to, paid.createdAt - 60_000);
  await expect(page.getByText('No order matches.', { exact: false })).toBeVisible();
  await expect(page.getByTestId('to-day-text')).toHaveText(
    `${peopleDay(lagosDate(paid.createdAt - 60_000))}, ${lagosHm(paid.createdAt - 60_000)}`,
  );
  await setBound(to, paid.createdAt);
  await expect.poll(() => shown(page)).toEqual([paid.outOrderNo]);
  await to.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(ARTIFACTS, 'orders-find-time-window-1366-light.png') });
  // A time that is not one is said next to it.
  await to.getByLabel(/time \(HH:mm, 24-hour\)/).fill('7.30');
  await to.getByLabel(/time \(HH:mm, 24-hour\)/).blur();
  await expect(to.getByRole('alert')).toHaveText('Write the time as HH:mm (24-hour), for example 19:30');
});
