// After the sale (issue 39) through the whole stack in real Chromium at 1024×768, Demo profile,
// keyboard first: a paid card sale of 3 seats, one of them cancelled from the order's detail with the
// admin PIN (F8, Space ticks, the reason, the PIN, Enter), the card refund owed shown in big type and
// recorded as returned (how, reference, who); then the 2 seats left exchanged to a later show at a
// higher price, the difference paid in cash. Screenshots light and dark in test/artifacts/screens.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, callShell, expect, test } from './fixtures';
import { layoutJson } from './seat-layouts';

const MIN = 60_000;
const PIN = '2468';

/** A show in 30 minutes at ₦4,500 (+₦200 fee) and a later one at ₦6,000 (+₦200), both on Screen 1. */
function programmeCsv(): string {
  const at = (ms: number) => {
    const t = Math.floor((Date.now() + ms) / MIN) * MIN;
    return `${lagosDate(t)},${lagosHm(t)}`;
  };
  return [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${at(30 * MIN)},Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${at(180 * MIN)},Adult,6000,200`,
  ].join('\r\n');
}

async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-1024-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Sells F7–F9 (Adult) of the first show by card on the demo terminal; the sale number. */
async function sellThreeByCard(page: Page): Promise<string> {
  await page.getByRole('combobox').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Seats', { exact: true })).toBeFocused();
  await page.keyboard.type('f7-f9');
  await expect(page.getByTestId('total-amount')).toHaveText('₦14,100.00');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = (await page.getByTestId('out-order-no').textContent())!;
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  return no;
}

async function openOrder(page: Page, no: string) {
  await page.keyboard.press('Alt+3');
  const open = page.getByRole('button', { name: `Open order ${no}` });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-detail-title')).toContainText(no);
}

async function setUp(page: Page, request: Parameters<typeof callShell>[0], shell: Parameters<typeof callShell>[1]) {
  await page.setViewportSize({ width: 1024, height: 768 });
  await callShell(request, shell, 'settings.setPin', { newPin: PIN });
  await callShell(request, shell, 'programme.import', { csv: programmeCsv(), fileName: 'week.csv', by: 'Ada' });
  await callShell(request, shell, 'seats.importLayout', { text: layoutJson(), fileName: 'screen-1.json', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
}

test('keyboard first at 1024×768: cancel 1 of 3 seats with the admin PIN, the card refund owed, recorded returned', async ({
  page,
  shell,
  request,
}) => {
  await setUp(page, request, shell);

  const no = await sellThreeByCard(page);
  await openOrder(page, no);

  // F8: the panel, nothing ticked, the first seat focused; Tab Tab Space ticks F9.
  await page.keyboard.press('F8');
  const panel = page.getByTestId('cancel-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('cancel-seat-F7')).toBeFocused();
  for (const s of ['F7', 'F8', 'F9']) await expect(page.getByTestId(`cancel-seat-${s}`)).not.toBeChecked();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('cancel-seat-F9')).toBeChecked();

  // Enter with no reason and a wrong PIN: the engine's messages at their fields.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab'); // the note
  await page.keyboard.press('Tab'); // Admin PIN (the radio)
  await page.keyboard.press('Tab'); // the PIN
  await expect(page.getByTestId('cancel-approval')).toBeFocused();
  await page.keyboard.type('1111');
  await page.keyboard.press('Enter');
  await expect(panel.locator('.field[data-invalid="true"]').first()).toContainText('Choose a reason from the list');
  await page.getByTestId('cancel-reason').focus();
  await page.getByTestId('cancel-reason').selectOption('customer-request');
  await page.getByTestId('cancel-approval').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1111');
  await page.keyboard.press('Enter');
  // A wrong PIN is refused by the engine (and audited), shown at the PIN.
  await expect(panel.locator('.undo-approval .field-error')).toContainText('PIN is not right');
  await shots(page, 'after-sale-cancel-refused');

  await page.getByTestId('cancel-approval').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(PIN);
  await expect(page.getByTestId('cancel-cashier')).not.toHaveValue('');
  await shots(page, 'after-sale-cancel-panel');
  await page.keyboard.press('Enter');

  // The answer in big type: the card's part is owed, not paid from the drawer.
  const owed = page.getByTestId('undo-answer-card');
  await expect(owed).toHaveText(/^₦4,[57]00\.00 owed to the card: record how it was returned$/);
  await expect(page.getByTestId('sale-seats-now')).toContainText('F9');
  await expect(page.getByTestId('sale-seats-now').locator('s')).toHaveText('F9');
  await expect(page.getByTestId('refund-list').locator('li[data-owed="true"]')).toHaveCount(1);
  // The sale's receipt, read again, says which seat no longer holds.
  await expect(page.getByTestId('receipt-preview')).toContainText('No longer valid');
  await expect(page.getByTestId('receipt-preview')).toContainText('Seat F9');
  await shots(page, 'after-sale-cancel-owed');

  // A show cancelled by head office: its paid sales with tickets still valid, this one with F7 and F8.
  await page.getByTestId('show-sales-open').click();
  await expect(page.getByTestId('show-sales')).toContainText(`${no}`);
  await expect(page.getByTestId('show-sales')).toContainText('seats F7, F8');

  // Record returned: how, reference, who; Enter.
  const record = page.getByTestId('refund-list').getByRole('button', { name: 'Record returned…' });
  await record.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('returned-how')).toBeFocused();
  await page.getByTestId('returned-how').selectOption('provider-reversal');
  await page.keyboard.press('Tab');
  await page.keyboard.type('REV-20261207-01');
  await shots(page, 'after-sale-record-returned');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('refund-list').locator('li[data-owed="true"]')).toHaveCount(0);
  await expect(page.getByTestId('refund-list')).toContainText(
    'Returned: Reversed by the provider, ref. REV-20261207-01',
  );
  await shots(page, 'after-sale-returned');

  // The refund slip, through the browser's print window in this shell; it names the original sale.
  await page.evaluate(() => {
    window.print = () => {};
  });
  await page.getByRole('button', { name: 'Print refund slip' }).click();
  await expect(page.getByTestId('refund-list')).toContainText(`Refund slip R0001 (${no}): sent to`);
  const refunds = await callShell<{ items: { id: number }[] }>(request, shell, 'refunds.list');
  const slip = await callShell<{ html: string }>(request, shell, 'receipts.printRefund', {
    refundId: refunds.items[0]!.id,
    inBrowser: true,
  });
  expect(slip.html).toContain(no);
  expect(slip.html).toContain('REPRINT');
  expect(slip.html).toContain('REV-20261207-01');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('keyboard first at 1024×768: exchange a sale to a later show at a higher price, the difference paid in cash', async ({
  page,
  shell,
  request,
}) => {
  await setUp(page, request, shell);
  const no = await sellThreeByCard(page);
  await openOrder(page, no);

  // F9: none ticked (all three move), the new show first.
  await page.keyboard.press('F9');
  await expect(page.getByTestId('exchange-panel')).toBeVisible();
  await expect(page.getByTestId('exchange-show')).toBeFocused();
  // The later show: the second of the programme's next shows.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('exchange-show').locator('option:checked')).toContainText('Dune 2');
  // The show's seat map, as on the Sell screen: F7–F9 of the first show are not taken in this one.
  const map = page.getByTestId('exchange-panel').locator('.seat-map');
  await expect(map).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.type('g7-g9');
  await expect(map.locator('[aria-pressed="true"]')).toHaveCount(3);
  await page.keyboard.press('Tab'); // the ticket type: Adult
  await expect(page.getByTestId('exchange-type')).toHaveValue('Adult');
  // The engine's price before anything is pressed: the credit, the new tickets, what is to pay.
  await expect(page.getByTestId('exchange-quote')).toHaveText(
    'Credit ₦14,100.00 · New tickets ₦18,600.00 · To pay ₦4,500.00',
  );
  await page.locator('#exchange-title').evaluate((el) => {
    const scroller = el.closest('.content')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 12;
  });
  await shots(page, 'after-sale-exchange-map');
  // Past the map's keys (best seats, the seats) to the tender: Nothing to pay.
  const none = page.getByTestId('exchange-tender-none');
  for (let i = 0; i < 12 && !(await none.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(none).toBeFocused();
  await page.keyboard.press('ArrowRight'); // Cash
  await expect(page.getByTestId('exchange-tender-cash')).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('exchange-tendered')).toBeFocused();
  await page.keyboard.type('5000');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('exchange-reason')).toBeFocused();
  await page.getByTestId('exchange-reason').selectOption('wrong-show-or-seats');
  await page.keyboard.press('Tab'); // the note
  await page.keyboard.press('Tab'); // Admin PIN (the radio)
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('exchange-approval')).toBeFocused();
  await page.keyboard.type(PIN);
  await expect(page.getByTestId('exchange-confirm')).toContainText('Exchange · To pay ₦4,500.00');
  await shots(page, 'after-sale-exchange-panel');
  await page.keyboard.press('Enter');

  // 3 × (6,000 + 200) = 18,600, less the credit 3 × (4,500 + 200) = 14,100: 4,500 in cash, 500 change.
  await expect(page.getByTestId('undo-answer-new-sale')).toContainText(
    '₦18,600.00, less the credit of the old tickets ₦14,100.00',
  );
  await expect(page.getByTestId('undo-answer-paid')).toHaveText('₦4,500.00 paid in cash');
  await expect(page.getByTestId('undo-answer-change')).toHaveText('Give ₦500.00 change');
  await expect(page.getByTestId('sale-links')).toContainText('Exchanged to');
  await expect(page.getByTestId('sale-seats-now').locator('s')).toHaveText(['F7', 'F8', 'F9']);
  await expect(page.getByTestId('receipt-preview')).toContainText('Exchanged to sale');
  await page.getByTestId('undo-answer').scrollIntoViewIfNeeded();
  await shots(page, 'after-sale-exchanged');

  // The new sale names the one it replaces, on its detail and its receipt.
  const newNo = (await page.getByTestId('undo-answer-new-sale').getByRole('button').textContent())!;
  await page.getByTestId('undo-answer-new-sale').getByRole('button').click();
  await expect(page.getByTestId('order-detail-title')).toContainText(newNo);
  await expect(page.getByTestId('sale-links')).toContainText('Exchanged from');
  await expect(page.getByTestId('sale-links')).toContainText(no);
  await expect(page.getByTestId('receipt-preview')).toContainText('EXCHANGE');
  await expect(page.getByTestId('receipt-preview')).toContainText(no);
  await page.getByTestId('sale-links').scrollIntoViewIfNeeded();
  await shots(page, 'after-sale-exchange-new-sale');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
