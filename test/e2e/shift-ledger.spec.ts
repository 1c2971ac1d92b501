// One ledger, in real Chromium: the Shift screen's figures equal the printed X report, line for line,
// with a sale paid, one declined, one that expired and was then paid after closing (the webhook
// brings it; listed at the alert's time), and a successful top-up (apart from the card total). Before the one ledger the screen
// added up sales itself and left the late payment out (issue 25: ₦2,000 on screen, ₦5,456.50 on the
// printed X). Screenshots of the Shift screen in light and dark go to test/artifacts/screens/.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { escposText, startLoopbackPrinter, type LoopbackPrinter } from '../helpers/loopback-printer';
import { ARTIFACTS, callShell, expect, test } from './fixtures';

test.use({ shiftOpen: false });

let printer: LoopbackPrinter;
test.beforeAll(async () => {
  printer = await startLoopbackPrinter();
});
test.afterAll(async () => printer?.stop());

async function sell(page: Page, price: string, outcome: 'Pay' | 'Decline' | null): Promise<string> {
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill('F8');
  await page.getByLabel('Price per ticket (₦)').fill(price);
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  if (outcome) {
    await page.getByRole('button', { name: outcome, exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText(outcome === 'Pay' ? 'Paid' : 'Payment failed');
  }
  return no;
}

/** The amount and count a figure of the Shift screen shows. */
async function figure(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId('shift-open').getByTestId(testId).locator('dd').textContent()) ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

test('the Shift screen shows the figures the printed X report prints, the payment taken after closing included', async ({
  page,
  shell,
  request,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  const view = await callShell<{ settings: Record<string, unknown> & { posBaseUrl: string } }>(
    request,
    shell,
    'settings.getProfile',
    { profile: 'demo' },
  );
  await callShell(request, shell, 'settings.saveProfile', {
    profile: 'demo',
    settings: {
      ...view.settings,
      orderExpireSeconds: 30,
      webhook: { enabled: true, host: '127.0.0.1', port: 0, callbackBaseUrl: '' },
    },
    secrets: {},
  });
  await callShell(request, shell, 'receipts.saveSettings', {
    printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80', autoPrint: false, copies: 1 },
    cinema: { name: 'Filmhouse Lekki', branch: 'Admiralty Way, Lekki', footer: 'Thank you.' },
  });
  const provider = view.settings.posBaseUrl;
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.keyboard.press('Alt+4');
  await page.getByLabel('Cashier’s name').fill('Ngozi Eze');
  await page.getByRole('button', { name: 'Open shift' }).click();
  await expect(page.getByTestId('shift-open')).toContainText('Ngozi Eze’s shift');

  await sell(page, '2,000', 'Pay');
  await page.getByRole('button', { name: 'New sale' }).click();
  await sell(page, '1,500', 'Decline');
  await page.getByRole('button', { name: 'New sale' }).click();
  // A sale the provider closes (its clock passes the expiry), then takes the money for after all.
  const lateNo = await sell(page, '3,456.50', null);
  expect((await request.post(`${provider}/_sandbox/clock`, { data: { offsetMs: 35_000 } })).status()).toBe(200);
  await expect(page.getByTestId('payment-state')).toHaveText('Expired');
  expect((await request.post(`${provider}/_sandbox/clock`, { data: { offsetMs: 0 } })).status()).toBe(200);
  const orders = (await (await request.get(`${provider}/_sandbox/orders`)).json()) as {
    data: { posOrders: { outOrderNo: string; orderNo: string }[] };
  };
  const order = orders.data.posOrders.find((o) => o.outOrderNo === lateNo)!;
  expect(
    (
      await request.post(`${provider}/_sandbox/orders/${order.orderNo}/late`, {
        data: { status: 'SUCCESS', cardPan: '5399831234564321' },
      })
    ).status(),
  ).toBe(200);
  await expect(page.getByTestId('late-alert')).toBeVisible();
  const alertTime = /at (\d\d:\d\d)/.exec((await page.getByTestId('late-alert').textContent()) ?? '')![1]!;
  // A top-up, successful: its own total, not in the card total.
  const topup = await callShell<{ id: number }>(request, shell, 'topups.submit', {
    serviceType: 'airtime',
    provider: 'MTN',
    customerId: '0803 123 4567',
    amount: '500',
  });
  await expect
    .poll(async () => (await callShell<{ state: string }>(request, shell, 'topups.get', { id: topup.id })).state)
    .toBe('success');

  await page.keyboard.press('Alt+4');
  const card = page.getByTestId('shift-open').getByTestId('figure-taken');
  await expect(card).toContainText('₦5,456.50');
  await expect(card).toContainText('Card totalwhat the terminal took: cash, top-ups and refunds to arrange apart');
  await expect(page.getByTestId('figure-topups-successful')).toContainText('₦500.00 (1)');
  await expect(card).toContainText('2 orders');
  const failed = await figure(page, 'figure-failed');
  const late = await figure(page, 'figure-paid-after-closing');
  const topups = await figure(page, 'figure-topups-successful');

  // The printed X report: the same figures, line for line; the late payment with its payment number.
  await page.getByRole('button', { name: 'Print X report' }).click();
  const x = escposText(await printer.job(0)).map((l) => l.trim());
  const amount = (s: string) => /₦[\d,]+\.\d\d/.exec(s)![0].replace('₦', 'N');
  const printed = (start: string) => x.find((l) => l.startsWith(start)) ?? `(no line "${start}" in ${x.join(' | ')})`;
  expect(printed('CARD TOTAL (2)')).toMatch(new RegExp(`${amount('₦5,456.50').replace('.', '\\.')}$`));
  expect(printed('Failed (1)').endsWith(amount(failed))).toBe(true);
  expect(failed).toContain('1 order');
  expect(printed('Paid after closing (1)').endsWith(amount(late))).toBe(true);
  expect(late).toBe('₦3,456.50 (1)');
  // Listed at the one time of a late payment (lateAt: when the provider took it), the alert's time. Its
  // payment number is printed when the counter has it (the webhook of the spec does not carry one).
  // (Since the counter asks the provider for a late payment's details, it usually has it by now.)
  // It is on the next line, whole, so the paper does not split "payment" from its number.
  const at = x.indexOf(`${lateNo} N3,456.50 ${alertTime}`);
  expect(at, x.join(' | ')).toBeGreaterThan(-1);
  if (x[at + 1]?.startsWith('payment')) expect(x[at + 1]).toMatch(/^payment \S+$/);
  expect(x.join(' ')).toContain(`(1) ${amount(topups)}`.replace('(1) ', ''));
  expect(printed('Top-ups total (not in card total) (1)')).toBeTruthy();

  const shiftCard = page.getByTestId('shift-open');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shiftCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `shift-ledger-${scheme}.png`), fullPage: true });
  }
});
