// "Debited, but the screen said failed", in real Chromium: the provider takes the payment after the
// counter closed the sale, and the counter says so on every screen with the status bar count until
// someone marks it handled (who, how).
// - With the webhook: a Demo sale expires (the provider's clock passes the sale's expiry), the
//   sandbox takes the payment after it, and its new notification brings the alert within 2 s.
// - Without it: a sale on a provider sandbox of its own is cancelled on the terminal, the counter is
//   switched off, the provider takes the payment meanwhile (no webhook address is registered); when
//   the counter starts again, the reconciliation sweep's own first pass finds it (no call asks it to).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { generateDemoConfig, startSandbox, type DemoMerchantValues, type Sandbox } from '../../sandbox';
import { defaultProfile } from '../../shared/settings';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, expect, test } from './fixtures';

const PIN = '2468';
/** The two counter sizes every counter screen is looked at in. */
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;

/** Full-page screenshots at both counter sizes, light and dark (then back to 1366 light). */
async function shots(page: Page, name: string, focus?: Locator): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      if (focus) await focus.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function api<T>(
  request: APIRequestContext,
  shell: { origin: string; token: string },
  name: string,
  args: unknown,
): Promise<T> {
  const res = await request.post(`${shell.origin}/api/call/${name}`, {
    headers: { 'content-type': 'application/json', 'x-counterpay-token': shell.token },
    data: { args },
  });
  const body = (await res.json()) as { ok: boolean; value: T; error?: unknown };
  if (!body.ok) throw new Error(`${name}: ${JSON.stringify(body.error)}`);
  return body.value;
}

/** The sale's history notes, by its sale number. */
async function historyOf(request: APIRequestContext, shell: ShellProcess, outOrderNo: string): Promise<string[]> {
  const found = await api<{ rows: { id: number }[] }>(request, shell, 'orders.search', {
    text: outOrderNo,
    includeDemo: true,
  });
  return (await api<{ note: string }[]>(request, shell, 'orders.history', { id: found.rows[0]!.id })).map(
    (e) => e.note,
  );
}

test('a Demo sale expires, the provider takes the payment after it: the webhook brings the alert within 2 s', async ({
  page,
  shell,
  request,
}) => {
  // The Demo sandbox posts its notifications to the counter's own receiver; sales expire after 30 s.
  await api(request, shell, 'settings.setPin', { newPin: PIN });
  const view = await api<{ settings: Record<string, unknown> & { posBaseUrl: string } }>(
    request,
    shell,
    'settings.getProfile',
    { profile: 'demo' },
  );
  await api(request, shell, 'settings.saveProfile', {
    profile: 'demo',
    settings: {
      ...view.settings,
      orderExpireSeconds: 30,
      webhook: { enabled: true, host: '127.0.0.1', port: 0, callbackBaseUrl: '' },
    },
    secrets: {},
  });
  const provider = view.settings.posBaseUrl;
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill('F8');
  await page.getByLabel('Price per ticket (₦)').fill('4,000');
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByRole('button', { name: /^Charge ₦4,000\.00/ }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();

  // The provider's clock passes the sale's expiry (35 s ahead: within what it accepts of our requests): it closes the order.
  expect((await request.post(`${provider}/_sandbox/clock`, { data: { offsetMs: 35_000 } })).status()).toBe(200);
  await expect(page.getByTestId('payment-state')).toHaveText('Expired');
  await expect(page.getByTestId('customer-line')).toContainText('The payment timed out');
  expect((await request.post(`${provider}/_sandbox/clock`, { data: { offsetMs: 0 } })).status()).toBe(200);
  await expect(page.getByTestId('late-alert')).toHaveCount(0);
  const orders = (await (await request.get(`${provider}/_sandbox/orders`)).json()) as {
    data: { posOrders: { outOrderNo: string; orderNo: string; status: string }[] };
  };
  const order = orders.data.posOrders.find((o) => o.outOrderNo === outOrderNo)!;
  expect(order.status).toBe('CLOSE');

  // The provider takes the money after all; its new notification goes to the counter's receiver.
  const late = await request.post(`${provider}/_sandbox/orders/${order.orderNo}/late`, {
    data: { status: 'SUCCESS', cardPan: '5399831234564321' },
  });
  expect(late.status()).toBe(200);
  const alert = page.getByTestId('late-alert');
  await expect(alert).toBeVisible({ timeout: 2_000 });
  await expect(alert).toContainText(outOrderNo);
  await expect(alert).toContainText(
    /Paid after it was closed: ₦4,000\.00 was taken from the customer's card at \d\d:\d\d/,
  );
  await expect(page.getByTestId('late-pill')).toHaveText('Paid after closing: 1');
  // The sale's own panel says it too, and no longer offers to charge again.
  await expect(page.getByTestId('payment-late')).toContainText('Paid after it was closed: ₦4,000.00');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  // What the cashier tells the customer is no longer "we can start again".
  await expect(page.getByTestId('customer-line')).toHaveText(
    '“Your card was charged after all: the payment went through. Here are your tickets.”',
  );
  // Found by the webhook (not by a sweep or a status check).
  expect(await historyOf(request, shell, outOrderNo)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^Paid after closing: .* by webhook$/)]),
  );
  await alert.scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `late-payment-webhook-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A sale paid after closing is a paid sale. The panel says so — not "Expired … Why: nobody paid" —
  // with the payment number and the same time as the alert, and the ways to settle it.
  const taken = ((await late.json()) as { data: { payNo: string } }).data;
  const panel = page.getByTestId('payment');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid after closing');
  await expect(page.getByTestId('payment-reason')).toHaveCount(0);
  await expect(alert).toContainText(`(payment ${taken.payNo})`);
  await expect(page.getByTestId('payment-late-payno')).toHaveText(taken.payNo);
  const alertTime = /card at (\d\d:\d\d)/.exec((await alert.textContent()) ?? '')![1]!;
  await expect(page.getByTestId('payment-late-at')).toContainText(`, ${alertTime}:`);
  for (const name of ['Tickets given', 'Customer gone: refund to be arranged', 'Print receipt'])
    await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: /Check with the provider/ })).toHaveCount(0);
  // Its receipt is a paid ticket receipt marked Paid after closing, with the payment number.
  const receipt = panel.getByTestId('receipt-preview');
  for (const text of ['Ticket receipt', 'Paid after closing', 'TOTAL PAID', taken.payNo, `${alertTime}:`])
    await expect(receipt).toContainText(text);
  await expect(receipt).not.toContainText('NOT PAID');
  await expect(receipt).not.toContainText('Payment slip');
  await shots(page, 'late-paid-sell-panel', page.getByTestId('payment-state'));
  await shots(page, 'late-paid-sell-panel-actions', page.getByTestId('payment-late'));
  await shots(page, 'late-paid-receipt', receipt);

  // The order detail says the same: paid after closing, when the money was taken, the payment
  // number — never "Card used at" the sale's start nor the provider's CLOSE.
  await page.keyboard.press('Alt+3');
  await page
    .getByRole('row')
    .filter({ hasText: outOrderNo })
    .getByRole('button', { name: `Open order ${outOrderNo}` })
    .click();
  await expect(page.getByTestId('order-detail-title')).toContainText(outOrderNo);
  const detail = page.locator('.order-detail');
  await expect(detail.locator('.order-detail-head')).toContainText('Paid after closing');
  await expect(page.getByTestId('order-late-payno')).toHaveText(taken.payNo);
  await expect(page.getByTestId('order-late-at')).toContainText(`, ${alertTime}:`);
  await expect(detail).not.toContainText('Card used at');
  await expect(detail).not.toContainText('Provider status');
  await expect(detail.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(detail.getByTestId('receipt-preview')).toContainText('Paid after closing');
  await shots(page, 'late-paid-order-detail', page.getByTestId('order-detail-title'));
  await shots(page, 'late-paid-order-detail-actions', page.getByTestId('order-late'));

  // Tickets given, from the detail (the name is the shift's cashier): the alert and the count go.
  await detail.getByRole('button', { name: 'Tickets given', exact: true }).click();
  await expect(page.getByTestId('order-late')).toContainText('Handled: Tickets given to the customer (by');
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId('late-pill')).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Tickets given', exact: true })).toHaveCount(0);
});

test('a closed sale: Check with the provider first; Try again only once it says not paid', async ({ page, shell }) => {
  await page.goto(shell.url);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill('F9');
  await page.getByLabel('Price per ticket (₦)').fill('4,000');
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByRole('button', { name: /^Charge ₦4,000\.00/ }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const first = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Payment failed');
  // The main action asks the provider first; Try again is not offered yet.
  const check = page.getByRole('button', { name: 'Check with the provider', exact: true });
  await expect(check).toBeFocused();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await shots(page, 'closed-sale-check-first', page.getByTestId('payment'));

  // The order detail offers the same.
  await page.keyboard.press('Alt+3');
  await page
    .getByRole('row')
    .filter({ hasText: first })
    .getByRole('button', { name: `Open order ${first}` })
    .click();
  await expect(
    page.locator('.order-detail').getByRole('button', { name: 'Check with the provider', exact: true }),
  ).toBeVisible();
  await expect(page.locator('.order-detail').getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await shots(page, 'closed-sale-order-detail-check-first', page.getByTestId('order-detail-title'));
  await page.keyboard.press('Alt+1');

  // Needs the engine's side (orders.checkNow on a closed order records OrderView.lastCheck): the
  // answer, in Lagos time, and only then Try again, which sends a new sale.
  await page.getByTestId('payment').getByRole('button', { name: 'Check with the provider', exact: true }).click();
  await expect(page.getByTestId('check-answer')).toContainText(/^The provider says not paid at \d\d:\d\d/);
  await expect(page.getByRole('button', { name: 'Try again', exact: true })).toBeFocused();
  await shots(page, 'closed-sale-checked-not-paid', page.getByTestId('payment'));
  await page.getByRole('button', { name: 'Try again', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('out-order-no')).not.toHaveText(first);
});

/** The counter on the sandbox's merchant, its own receiver off: the provider can tell it nothing by webhook. */
async function counterOnSandbox(
  request: APIRequestContext,
  shell: ShellProcess,
  sandbox: Sandbox,
  m: DemoMerchantValues,
): Promise<void> {
  await api(request, shell, 'settings.setPin', { newPin: PIN });
  const settings = {
    ...defaultProfile('sandbox'),
    billsBaseUrl: sandbox.billsBaseUrl,
    posBaseUrl: sandbox.posBaseUrl,
    billsMerchantId: m.billsMerchantId,
    headMerchantId: m.headMerchantId,
    merchantId: m.merchantId,
    counterName: 'Counter 1',
    webhook: { enabled: false, host: '127.0.0.1', port: 0, callbackBaseUrl: '' },
  };
  const secrets = {
    billsPublicKey: m.billsPublicKey,
    billsSecretKey: m.billsSecretKey,
    posClientAuthKey: m.clientAuthKey,
    merchantPrivateKey: m.merchantPrivateKeyPem,
    providerPublicKey: m.providerPublicKeyPem,
  };
  await api(request, shell, 'settings.saveProfile', { profile: 'sandbox', settings, secrets });
  await api(request, shell, 'settings.setActiveProfile', { profile: 'sandbox' });
  await api(request, shell, 'terminal.configure', { source: 'manual', manualSn: m.terminalSn });
}

test("paid while the counter was off, no webhook: the sweep's first pass at start finds it; marking it handled clears the alert and the count", async ({
  page,
  request,
}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-late-'));
  const { config, merchant } = generateDemoConfig();
  const sandbox = await startSandbox(config, { port: 0 });
  const shells: ShellProcess[] = [];
  try {
    const first = await startShellProcess({ dataDir, openShift: true });
    shells.push(first);
    await counterOnSandbox(request, first, sandbox, merchant);
    await page.goto(first.url);
    await expect(page.getByText('Sandbox · Counter 1')).toBeVisible();
    await expect(page.getByTestId('terminal-sn')).toContainText(merchant.terminalSn);
    await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
    await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
    await page.getByLabel('Seats', { exact: true }).fill('F7');
    await page.getByLabel('Price per ticket (₦)').fill('4,000');
    await page.getByLabel('Booking fee per ticket (₦)').fill('0');
    await page.getByRole('button', { name: /^Charge ₦4,000\.00/ }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
    // The customer cancels on the terminal.
    sandbox.present(merchant.terminalSn, 'CANCEL');
    await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');

    // The counter is switched off for the night.
    await page.goto('about:blank');
    await first.stop();
    // Meanwhile the provider takes the money after all, and has no webhook address to tell anyone.
    const orderNo = sandbox.listPosOrders().find((o) => o.outOrderNo === outOrderNo)!.orderNo;
    const late = sandbox.reportLate(orderNo, 'SUCCESS', { cardPan: '5399831234564321' });
    expect(late).toMatchObject({ status: 'SUCCESS', webhook: { delivered: false } });

    // Started again: nothing asks for a sweep; its first pass runs as the counter starts.
    const again = await startShellProcess({ dataDir });
    shells.push(again);
    await page.goto(again.url);
    await expect(page.getByText('Sandbox · Counter 1')).toBeVisible();
    const alert = page.getByTestId('late-alert');
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(outOrderNo);
    await expect(alert).toContainText(
      /Paid after it was closed: ₦4,000\.00 was taken from the customer's card at \d\d:\d\d/,
    );
    await expect(page.getByTestId('late-pill')).toHaveText('Paid after closing: 1');
    expect(await historyOf(request, again, outOrderNo)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Paid after closing: .* by sweep$/)]),
    );
    await alert.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `late-payment-alert-${scheme}.png`), fullPage: true });
    }
    // Another screen: the alert is still there.
    await page.getByRole('button', { name: /^Orders/ }).click();
    await expect(alert).toBeVisible();

    // Handled: who must be given; then both the alert and the count go.
    await alert.getByRole('button', { name: 'Tickets given' }).click();
    await expect(alert.getByText('Enter your name: who handled it')).toBeVisible();
    await alert.getByLabel('Your name').fill('Ngozi');
    await alert.getByRole('button', { name: 'Tickets given' }).click();
    await expect(alert).toHaveCount(0);
    await expect(page.getByTestId('late-pill')).toHaveCount(0);
    expect(await historyOf(request, again, outOrderNo)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Paid after closing/),
        'Handled: Tickets given to the customer (by Ngozi)',
      ]),
    );
  } finally {
    for (const s of shells.reverse()) await s.stop().catch(() => undefined);
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
