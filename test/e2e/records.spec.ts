// Receipts, Orders and Shift through the whole stack in real Chromium, on the Demo profile: open a
// shift, pay on the Demo terminal, the receipt prints by itself to a loopback network printer,
// find the order in Orders, reprint it (and survive the printer being off), close the shift and
// read its totals. Screenshots in light and dark go to test/artifacts/screens/.
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { escposText, startLoopbackPrinter, type LoopbackPrinter } from '../helpers/loopback-printer';
import type { ShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, expect, test } from './fixtures';

// These tests open their shifts themselves, as the cashier does.
test.use({ shiftOpen: false });

async function api<T>(request: APIRequestContext, shell: ShellProcess, name: string, args: unknown): Promise<T> {
  const res = await request.post(`${shell.origin}/api/call/${name}`, {
    headers: { 'x-counterpay-token': shell.token },
    data: { args },
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

/** The counter's printer: the loopback network printer, through the contract calls (admin PIN first). */
async function useLoopbackPrinter(
  request: APIRequestContext,
  shell: ShellProcess,
  printer: LoopbackPrinter,
): Promise<void> {
  await api(request, shell, 'settings.setPin', { newPin: '2468' });
  await api(request, shell, 'receipts.saveSettings', {
    printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80', autoPrint: true, copies: 1 },
    cinema: { name: 'Filmhouse Lekki', branch: 'Admiralty Way, Lekki', footer: 'Thank you. Enjoy the film!' },
  });
}

async function openShift(page: Page, cashier: string): Promise<void> {
  await page.keyboard.press('Alt+4');
  await page.getByLabel('Cashier’s name').fill(cashier);
  await page.getByLabel(/Opening float/).fill('5,000');
  await page.getByRole('button', { name: 'Open shift' }).click();
  await expect(page.getByTestId('shift-open')).toContainText(`${cashier}’s shift`);
}

async function sell(
  page: Page,
  sale: { film: string; title: string; seats: string; price: string; fee: string },
  outcome: 'Pay' | null,
): Promise<string> {
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill(sale.film);
  await page.getByLabel('Film title (on the ticket)').fill(sale.title);
  await page.getByLabel('Seats', { exact: true }).fill(sale.seats);
  await page.getByLabel('Price per ticket (₦)').fill(sale.price);
  await page.getByLabel('Booking fee per ticket (₦)').fill(sale.fee);
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = (await page.getByTestId('out-order-no').textContent()) ?? '';
  if (outcome) {
    await page.getByRole('button', { name: outcome, exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Paid');
    await page.getByRole('button', { name: 'New sale' }).click();
  }
  return no;
}

// The booking fee is per ticket: 2 × (₦2,500 + ₦100) = ₦5,200.
const AVENGERS = { film: 'AVENGERS-2D', title: 'Avengers: Doomsday', seats: 'F7,F8', price: '2,500', fee: '100' };
const DUNE = { film: 'DUNE-3', title: 'Dune: Part Three', seats: 'G12', price: '3,000', fee: '150' };

let printer: LoopbackPrinter;
test.beforeEach(async () => {
  printer = await startLoopbackPrinter();
});
test.afterEach(async () => {
  await printer.stop();
});

test('pay in Demo, the receipt prints to the network printer, find it in Orders, reprint it, close the shift with the right totals', async ({
  page,
  request,
  shell,
}) => {
  await useLoopbackPrinter(request, shell, printer);
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await openShift(page, 'Ngozi Eze');

  // Pay on the Demo terminal: the receipt preview shows, and the receipt comes out of the printer by itself.
  await page.keyboard.press('Alt+1');
  await page.getByLabel('Film name', { exact: true }).fill(AVENGERS.film);
  await page.getByLabel('Film title (on the ticket)').fill(AVENGERS.title);
  await page.getByLabel('Seats', { exact: true }).fill(AVENGERS.seats);
  await page.getByLabel('Price per ticket (₦)').fill(AVENGERS.price);
  await page.getByLabel('Booking fee per ticket (₦)').fill(AVENGERS.fee);
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = (await page.getByTestId('out-order-no').textContent()) ?? '';
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-preview')).toContainText(no);
  const printed = escposText(await printer.job(0)).join('\n');
  expect(printed).toContain('Filmhouse Lekki');
  expect(printed).toContain(no);
  expect(printed).toMatch(/TOTAL PAID +N5,200\.00/);
  expect(printed).toMatch(/Cashier +Ngozi Eze/);
  expect(printed).not.toContain('REPRINT');
  await page.getByRole('button', { name: 'New sale' }).click();

  // Find it in Orders by the last digits of its number, open it: the receipt, printed once.
  await page.keyboard.press('Alt+3');
  await page.getByRole('button', { name: 'All days' }).click();
  await page.getByLabel(/Find an order/).fill(no.slice(-4));
  await expect(page.getByTestId('orders-summary')).toHaveText('1 order · 1 paid · card total ₦5,200.00');
  await page.getByRole('button', { name: `Open order ${no}` }).click();
  await expect(page.getByTestId('order-detail-title')).toContainText(no);
  const panel = page.getByTestId('receipt-panel');
  await expect(panel.getByTestId('receipt-preview')).toContainText('Avengers: Doomsday');
  await expect(panel.getByTestId('print-jobs')).toContainText(`Printed`);
  await expect(panel.getByTestId('print-jobs')).toContainText(`Network printer 127.0.0.1:${printer.port}`);

  // Reprint: marked REPRINT on paper.
  await panel.getByRole('button', { name: 'Reprint receipt' }).click();
  expect(escposText(await printer.job(1))).toContain(' REPRINT ');
  await expect(panel.getByTestId('receipt-preview')).toContainText('REPRINT');

  // The printer goes off: the reprint fails, says why, and waits with Retry; back on, Retry prints it.
  await printer.stop();
  await panel.getByRole('button', { name: 'Reprint receipt' }).click();
  const failedJob = panel.locator('[data-testid="print-jobs"] li[data-status="failed"]');
  await expect(failedJob).toContainText('Not printed');
  await expect(failedJob).toContainText('refused the connection');
  await printer.start();
  await failedJob.getByRole('button', { name: 'Retry' }).click();
  await expect(panel.locator('[data-testid="print-jobs"] li[data-status="failed"]')).toHaveCount(0);
  expect(escposText(await printer.job(2))).toContain(' REPRINT ');

  // A cash drop, by keyboard: more than the drawer holds is refused with what it holds; ₦2,000 is kept.
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('figure-taken')).toContainText('₦5,200.00');
  await page.getByRole('button', { name: 'Cash drop…' }).focus();
  await page.keyboard.press('Enter');
  const drop = page.getByTestId('drop-form');
  await expect(drop.getByTestId('drop-expected')).toHaveText('The drawer should hold ₦5,000.00 now.');
  await expect(drop.getByLabel('Amount taken to the safe (₦)')).toBeFocused();
  await page.keyboard.type('9,000');
  await page.keyboard.press('Enter');
  await expect(drop).toContainText('The drawer should hold ₦5,000.00: take at most that to the safe');
  await drop.getByLabel('Amount taken to the safe (₦)').fill('2,000');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Safe bag 14');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-message')).toContainText('Cash drop of ₦2,000.00 recorded (Ngozi Eze');
  await expect(page.getByTestId('drawer-line-expected')).toContainText('₦3,000.00');
  await expect(page.getByTestId('drawer-drops')).toContainText('₦2,000.00 by Ngozi Eze (Safe bag 14)');

  // Close the shift: the totals are the one paid sale; the drawer must be counted (₦3,000.00 expected).
  await page.getByRole('button', { name: 'Close shift…' }).click();
  const close = page.getByTestId('close-shift');
  await expect(close.getByTestId('figure-taken')).toContainText('₦5,200.00');
  await expect(close.getByTestId('figure-taken')).toContainText('1 order');
  await expect(close.getByTestId('figure-failed')).toContainText('0 orders');
  await expect(close.getByTestId('drawer-expected')).toHaveText('Expected in the drawer: ₦3,000.00');
  await close.getByRole('button', { name: 'Close shift and keep the Z report' }).click();
  await expect(close).toContainText('Count the cash in the drawer and enter it (₦3,000.00 expected)');
  await page.setViewportSize({ width: 1024, height: 768 });
  await close.getByLabel(/Cash counted in the drawer/).fill('2,900');
  await close.getByTestId('drawer-count').scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `shift-close-count-${scheme}.png`) });
  }
  await close.getByLabel(/Cash counted in the drawer/).press('Enter');
  await expect(page.getByTestId('shift-message')).toContainText('Shift closed. Z report #1 is kept');
  await expect(page.getByTestId('shift-message')).toContainText(
    'Counted ₦2,900.00, expected ₦3,000.00: short by ₦100.00.',
  );
  const report = page.getByTestId('report-view');
  await expect(report.getByTestId('figure-taken')).toContainText('₦5,200.00');
  await expect(report.getByTestId('drawer-line-over_short')).toContainText('-₦100.00');
  await expect(report.getByTestId('drawer-verdict')).toContainText('short by ₦100.00');
  await expect(report.getByTestId('report-paper')).toContainText('Z REPORT #1 - SHIFT CLOSED');
  await expect(report.getByTestId('report-paper')).toContainText('Opening float (cash)');
  await expect(report.getByTestId('report-paper')).toContainText('Drop');
  await report.getByTestId('drawer').scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `shift-z-drawer-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await report.getByRole('button', { name: 'Print the report' }).click();
  const z = escposText(await printer.job(3));
  expect(z.some((l) => /^Paid by card \(card part\) \(1\) +N5,200\.00$/.test(l))).toBe(true);
  expect(z.some((l) => /^Over\/short \(counted - expected\) +-N100\.00$/.test(l))).toBe(true);
  expect(z.some((l) => /^CARD TOTAL \(1\) +N5,200\.00$/.test(l))).toBe(true);
  await expect(page.getByTestId('z-reports')).toContainText('Ngozi Eze');
  await expect(report.getByRole('button', { name: 'Reprint the report' })).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`receipts, orders search and shift close in ${scheme}`, async ({ page, request, shell }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await useLoopbackPrinter(request, shell, printer);
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    await openShift(page, 'Tunde Bakare');
    const paidNo = await sell(page, AVENGERS, 'Pay');
    await printer.job(0);
    await sell(page, DUNE, 'Pay');
    await printer.job(1);
    const openNo = await sell(page, { ...AVENGERS, seats: 'C4', fee: '0' }, null);

    // Orders: a search by film, then the paid order with its receipt.
    await page.keyboard.press('Alt+3');
    await page.getByLabel(/Find an order/).fill('avengers');
    await expect(page.getByTestId('orders-summary')).toHaveText('2 orders · 1 paid · card total ₦5,200.00');
    await page.screenshot({ path: join(ARTIFACTS, `records-orders-search-${scheme}.png`) });
    await page.getByRole('button', { name: `Open order ${paidNo}` }).click();
    await page.getByTestId('receipt-panel').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('receipt-preview')).toContainText(paidNo);
    await page.screenshot({ path: join(ARTIFACTS, `records-receipt-preview-${scheme}.png`) });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Open order ${openNo}` }).click();
    await expect(page.getByTestId('order-detail-title')).toContainText(openNo);
    await expect(page.getByRole('button', { name: 'Check now' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Shift: running totals, then the close that lists the payment still open and asks to confirm.
    await page.keyboard.press('Alt+4');
    await expect(page.getByTestId('figure-taken')).toContainText('₦8,350.00');
    await expect(page.getByTestId('figure-open')).toContainText('1 order');
    await page.screenshot({ path: join(ARTIFACTS, `records-shift-open-${scheme}.png`) });
    await page.getByRole('button', { name: 'Close shift…' }).click();
    const close = page.getByTestId('close-shift');
    await expect(close.getByTestId('open-items')).toContainText(openNo);
    const closeButton = close.getByRole('button', { name: 'Close shift and keep the Z report' });
    await expect(closeButton).toBeDisabled();
    await page.screenshot({ path: join(ARTIFACTS, `records-shift-close-${scheme}.png`), fullPage: true });
    await close.getByLabel('I have seen these: close the shift anyway').check();
    // The drawer held the float (₦5,000) and took no cash: the count is what the close asks for.
    await close.getByLabel(/Cash counted in the drawer/).fill('5,000');
    await closeButton.click();
    await expect(page.getByTestId('report-view')).toContainText('Not finished at the close (1)');
    await page.screenshot({ path: join(ARTIFACTS, `records-z-report-${scheme}.png`), fullPage: true });

    // The printer settings, opened from the Shift screen (unlocked: the PIN was set by this test).
    await page.getByText('Receipt printer:').click();
    await expect(page.getByLabel('Printer address')).toHaveValue('127.0.0.1');
    await page.getByLabel('Printer address').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `records-printer-settings-${scheme}.png`), fullPage: true });
  });
}
