// The counter at 10 pm, second round (issue 27), in real Chromium on the Demo profile: the Orders
// screen never hides sales behind a filter chosen earlier, and finds a sale by the last digits of
// its number, however few.
// Screenshots at 1024×768 and 1366×768, light and dark.
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { formatLagosDateTime, lagosDate, lagosHm } from '../../shared/time';
import { startShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, callShell, expect, test } from './fixtures';

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
  return page
    .locator('.orders-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('.link-button')?.textContent?.trim() ?? ''));
}

test('Orders: a time window set earlier does not outlive the visit; Today and Clear reset it; the result line names the filters; "1" finds …-0001', async ({
  page,
  shell,
}) => {
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
  await expect(
    page.getByText(`No order matches. Filters on: today until ${early}. Press Clear to remove the filters`),
  ).toBeVisible();
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
  await expect(page.getByRole('group', { name: 'States' }).getByRole('button', { name: 'All states' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // A window set on one visit is gone on the next.
  await to.getByLabel(/time \(HH:mm, 24-hour\)/).fill(early);
  await expect(summary).toContainText('0 orders');
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('Alt+3');
  await expect(summary).toContainText('1 order');
  await expect(to.getByLabel(/time \(HH:mm, 24-hour\)/)).toHaveValue('');
  await expect(today).toHaveAttribute('aria-pressed', 'true');
});

test('keyboard: Alt+1 back to a picked show puts the cursor in the seats', async ({ page, shell, request }) => {
  const later = Date.now() + 40 * 60_000;
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${lagosDate(later)},${lagosHm(later)},Adult,4500,200`,
  ].join('\r\n');
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv, fileName: 'tonight.csv', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await expect(page.getByRole('combobox')).toBeFocused();
  await page.keyboard.press('Enter');
  const seats = page.getByLabel('Seats', { exact: true });
  await expect(seats).toBeFocused();
  await page.keyboard.type('F7');
  await page.keyboard.press('Alt+3');
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('heading', { name: 'DUNE: PART TWO' })).toBeVisible();
  await expect(seats).toBeFocused();
  await page.keyboard.type(',F8');
  await expect(seats).toHaveValue('F7,F8');
});

test('keyboard: Enter on Check customer moves to the amount, so the amount typed next is not added to the customer id', async ({
  page,
  shell,
}) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.keyboard.press('Alt+2');
  await page.getByRole('button', { name: 'Betting wallet' }).click();
  await page.getByRole('radio', { name: /BET9JA/ }).click();
  const id = page.getByLabel('Customer id at the betting site');
  await id.fill('20001');
  await id.press('Enter');
  // The cashier types straight on, as a tired cashier does.
  await page.keyboard.type('1000');
  await expect(page.locator('.tu-customer strong')).toHaveText('Chinedu Okafor');
  await expect(id).toHaveValue('20001');
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('1000');
  await expect(page.getByLabel('Amount (₦)')).toBeFocused();
  await expect(page.getByRole('button', { name: /Pay ₦1,000\.00 to Chinedu Okafor at BET9JA/ })).toBeVisible();
  await shots(page, 'topups-betting-after-check');
});

/** Seen by the cashier: inside the window, and nothing (the Charge bar) drawn over its middle or its corners. */
async function inPlainView(page: Page, what: ReturnType<Page['getByTestId']>, name: string): Promise<void> {
  const seen = await what.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const mid = r.top + r.height / 2;
    const pts = [
      [r.left + r.width / 2, mid],
      [r.left + 8, mid],
      [r.right - 8, mid],
      [r.left + r.width / 2, r.top + 3],
      [r.left + r.width / 2, r.bottom - 3],
    ] as const;
    return (
      r.top >= 0 &&
      r.bottom <= window.innerHeight &&
      pts.every(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !!hit && (hit === el || el.contains(hit));
      })
    );
  });
  expect(seen, `${name} is in plain view`).toBe(true);
}

test('typed Sell form at 1024×768 and 1366×768, a customer-left order waiting: the box being typed in and the total stay in view above the Charge bar', async ({
  page,
  shell,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  const fill = async (film: string, seats: string, price: string, fee: string) => {
    await page.getByLabel('Film name', { exact: true }).fill(film);
    await page.getByLabel('Film title (on the ticket)').fill(film.toUpperCase());
    await page.getByLabel('Seats', { exact: true }).fill(seats);
    await page.getByLabel('Price per ticket (₦)').fill(price);
    await page.getByLabel('Booking fee per ticket (₦)').fill(fee);
  };
  await fill('Gladiator II', 'F7,F8', '6750', '100');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await page.getByRole('button', { name: 'Customer left (keep checking)' }).click();
  await expect(page.getByTestId('still-open')).toBeVisible();

  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 768 },
  ]) {
    await page.setViewportSize(size);
    await page.keyboard.press('Escape');
    await page.getByLabel('Film name', { exact: true }).focus();
    // The cashier types and moves on with Tab, box by box, as at the counter.
    for (const [label, value] of [
      ['Film name', 'Wicked'],
      ['Film title (on the ticket)', 'WICKED'],
      ['Show date', ''],
      ['Show time', ''],
      ['Seats', 'G1'],
      ['Number of tickets', ''],
      ['Price per ticket (₦)', '4500'],
      ['Booking fee per ticket (₦)', '200'],
    ] as const) {
      const box = page.getByLabel(label, { exact: true });
      await expect(box).toBeFocused();
      if (value) await page.keyboard.type(value);
      await inPlainView(page, box as ReturnType<Page['getByTestId']>, `${label} at ${size.width}`);
      await inPlainView(page, page.getByTestId('total-amount'), `the total while typing in ${label} at ${size.width}`);
      if (label !== 'Booking fee per ticket (₦)') await page.keyboard.press('Tab');
    }
    await expect(page.getByTestId('total-amount')).toHaveText('₦4,700.00');
    await shots(page, `sell-typed-fee-focused-${size.width}`);
  }
});

test('"Paid at" on the receipt and the order is when the payment was taken, not the sale\'s start; a sale nobody paid shows no "Card used at"', async ({
  page,
  shell,
  request,
}) => {
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('Wicked');
  await page.getByLabel('Film title (on the ticket)').fill('WICKED');
  await page.getByLabel('Seats', { exact: true }).fill('G1');
  await page.getByLabel('Price per ticket (₦)').fill('4500');
  await page.getByLabel('Booking fee per ticket (₦)').fill('200');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  // The customer takes a moment: the countdown moves on (a second at least) before the card.
  const countdown = page.getByTestId('countdown');
  const first = (await countdown.textContent()) ?? '';
  await expect(countdown).not.toHaveText(first);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  const no = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  const found = await callShell<{ rows: { id: number; transactionTime?: number; completedTime?: number }[] }>(
    request,
    shell,
    'orders.search',
    { text: no },
  );
  const { transactionTime, completedTime } = found.rows[0]!;
  expect(completedTime! - transactionTime!).toBeGreaterThanOrEqual(1000);
  const receipt = page.getByTestId('receipt-preview');
  await expect(receipt).toContainText('Paid at');
  await expect(receipt).toContainText(formatLagosDateTime(completedTime!));
  await expect(receipt).not.toContainText(formatLagosDateTime(transactionTime!));

  // A sale cancelled on the terminal: nobody's card, so no "Card used at" on its detail.
  await page.getByRole('button', { name: 'New sale' }).click();
  await page.getByLabel('Seats', { exact: true }).fill('G2');
  await page.getByLabel('Film name', { exact: true }).fill('Wicked');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const cancelled = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');
  await page.keyboard.press('Alt+3');
  await page.getByRole('button', { name: `Open order ${cancelled}` }).click();
  await expect(page.locator('.detail-facts')).toContainText('Ended at');
  await expect(page.locator('.detail-facts')).not.toContainText('Card used at');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: `Open order ${no}` }).click();
  // "Started" is the sale's start; "Paid at" is the payment's own time.
  await expect(
    page.locator('.detail-facts dt', { hasText: /^Paid at$/ }).locator('xpath=following-sibling::dd[1]'),
  ).toHaveText(formatLagosDateTime(completedTime!));
});

test('after Tickets given in the paid-after-closing alert, the cursor is back in the next sale', async ({
  page,
  shell,
  request,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  const demo = (
    await callShell<{ settings: { posBaseUrl: string } }>(request, shell, 'settings.getProfile', { profile: 'demo' })
  ).settings;
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('Wicked');
  await page.getByLabel('Film title (on the ticket)').fill('WICKED');
  await page.getByLabel('Seats', { exact: true }).fill('G1');
  await page.getByLabel('Price per ticket (₦)').fill('4500');
  await page.getByLabel('Booking fee per ticket (₦)').fill('200');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');
  await page.getByRole('button', { name: 'New sale' }).click();
  const found = await callShell<{ rows: { orderNo: string }[] }>(request, shell, 'orders.search', { text: no });
  expect(
    (
      await request.post(`${demo.posBaseUrl}/_sandbox/orders/${found.rows[0]!.orderNo}/late`, {
        data: { status: 'SUCCESS', cardPan: '5399831234564321' },
      })
    ).status(),
  ).toBe(200);
  await callShell(request, shell, 'orders.sweep');
  const alert = page.getByTestId('late-alert');
  await expect(alert).toContainText(no);
  await alert.getByLabel('Your name').fill('Ngozi');
  await alert.getByRole('button', { name: 'Tickets given' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByLabel('Film name', { exact: true })).toBeFocused();
});

test("a programme sale's receipt names the screen and the ticket type, for the usher at the door", async ({
  page,
  shell,
  request,
}) => {
  const later = Date.now() + 40 * 60_000;
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 3,${lagosDate(later)},${lagosHm(later)},Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 3,${lagosDate(later)},${lagosHm(later)},Student,2500,200`,
  ].join('\r\n');
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv, fileName: 'tonight.csv', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'DUNE: PART TWO' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /Student/ })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.type('F7 F8');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  const receipt = page.getByTestId('receipt-preview');
  await expect(receipt).toContainText('Screen 3');
  await expect(receipt).toContainText('2 × Student ₦2,500.00');
  await expect(receipt).toContainText('₦5,000.00');
  await receipt.scrollIntoViewIfNeeded();
  await shots(page, 'receipt-programme-sale');
});

test("Settings → Integrations: the API's port is a field, its address is shown, and a taken port is taken up by itself once it is free", async ({
  page,
  shell,
}) => {
  // Another program holds a port.
  const blocker = createServer();
  await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
  const taken = (blocker.address() as AddressInfo).port;
  try {
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    await page.keyboard.press('Alt+5');
    await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
    await page.getByLabel('Type the PIN again').fill('2468');
    await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();
    const panel = page.getByTestId('integrations-panel');
    await expect(panel.getByTestId('integrations-api')).toContainText('it starts when a system is paired');
    const port = panel.getByLabel('Port of the integration API');
    // A port that is not one is said beside the field.
    await port.fill('80');
    await panel.getByRole('button', { name: 'Use this port' }).click();
    await expect(panel.getByText('Enter a port from 1024 to 65535')).toBeVisible();
    await port.fill(String(taken));
    await panel.getByRole('button', { name: 'Use this port' }).click();
    await expect(panel.getByTestId('integrations-api')).toContainText(`http://127.0.0.1:${taken}`);

    // Paired: the port is taken, so it says so, with the field to change it and the address it will have.
    await panel.getByLabel('Name').fill('Box office');
    await panel.getByRole('button', { name: 'Pair' }).click();
    await expect(panel.getByTestId('integrations-list')).toContainText('Box office');
    await panel.getByRole('button', { name: 'I have copied it' }).click();
    await expect(panel.getByTestId('integrations-warning')).toContainText(`could not listen on port ${taken}`);
    await expect(panel.getByTestId('integrations-api')).toContainText(
      `The integration API is not running. Its address will be http://127.0.0.1:${taken}`,
    );
    await expect(port).toHaveValue(String(taken));
    await panel.scrollIntoViewIfNeeded();
    await shots(page, 'integrations-port-taken');

    // The other program lets go: the API starts by itself and the panel says where it answers.
    await new Promise<void>((ok) => blocker.close(() => ok()));
    await expect(panel.getByTestId('integrations-api')).toContainText(
      `The integration API answers at http://127.0.0.1:${taken}`,
      { timeout: 20_000 },
    );
    await expect(panel.getByTestId('integrations-warning')).toHaveCount(0);
    // It answers there (an unknown path, refused as such: the API, not the other program).
    const answer = await fetch(`http://127.0.0.1:${taken}/nothing-here`);
    expect((await answer.json()) as unknown).toMatchObject({ error: expect.anything() });
  } finally {
    if (blocker.listening) await new Promise<void>((ok) => blocker.close(() => ok()));
  }
});

test("the browser shell's --integration-port fixes the API's port for the run, and Settings says so", async ({
  page,
}) => {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const free = (probe.address() as AddressInfo).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
  const shell = await startShellProcess({ args: ['--integration-port', String(free)] });
  try {
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    await page.keyboard.press('Alt+5');
    await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
    await page.getByLabel('Type the PIN again').fill('2468');
    await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();
    const panel = page.getByTestId('integrations-panel');
    await expect(panel.getByTestId('integrations-port-fixed')).toContainText(
      `Port ${free} was given when CounterPay started (--integration-port)`,
    );
    await expect(panel.getByLabel('Port of the integration API')).toHaveCount(0);
    await expect(panel.getByTestId('integrations-api')).toContainText(`http://127.0.0.1:${free}`);
  } finally {
    await shell.stop();
  }
});
