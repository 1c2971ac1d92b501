// The provider's webhook delivery, asked from an order's detail and from Settings, the Demo
// receipt's banner, and Orders leaving Demo sales out in a real profile, through the whole stack in
// real Chromium (the embedded sandbox answers the delivery question truthfully over loopback HTTP).
// Screenshots in light and dark go to test/artifacts/screens/.
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { ShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, expect, test } from './fixtures';

async function api<T>(request: APIRequestContext, shell: ShellProcess, name: string, args: unknown): Promise<T> {
  const res = await request.post(`${shell.origin}/api/call/${name}`, {
    headers: { 'x-counterpay-token': shell.token },
    data: { args },
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value as T;
}

async function setReceiver(request: APIRequestContext, shell: ShellProcess, enabled: boolean): Promise<void> {
  const view = await api<{ settings: Record<string, unknown> }>(request, shell, 'settings.getProfile', {
    profile: 'demo',
  });
  await api(request, shell, 'settings.saveProfile', {
    profile: 'demo',
    settings: { ...view.settings, webhook: { enabled, host: '127.0.0.1', port: 0, callbackBaseUrl: '' } },
    secrets: {},
  });
}

async function sellPaid(page: Page, seats: string): Promise<string> {
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('AVENGERS-2D');
  await page.getByLabel('Film title (on the ticket)').fill('Avengers: Doomsday');
  await page.getByLabel('Seats', { exact: true }).fill(seats);
  await page.getByLabel('Price per ticket (₦)').fill('2,500');
  await page.getByLabel('Booking fee per ticket (₦)').fill('100');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const no = (await page.getByTestId('out-order-no').textContent()) ?? '';
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await page.getByRole('button', { name: 'New sale' }).click();
  return no;
}

async function openOrder(page: Page, no: string): Promise<void> {
  await page.keyboard.press('Alt+3');
  // Orders remembers the order opened last: back to the list first.
  const back = page.getByRole('button', { name: /All orders/ });
  if (await back.isVisible()) await back.click();
  await page.getByRole('button', { name: `Open order ${no}` }).click();
  await expect(page.getByTestId('order-detail-title')).toContainText(no);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`webhook delivery from the order and from Settings, and the Demo receipt banner, in ${scheme}`, async ({
    page,
    request,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await api(request, shell, 'settings.setPin', { newPin: '2468' });
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();

    // No receiver yet: the provider has no address to send to, and the order detail says so.
    const first = await sellPaid(page, 'F7,F8');
    await openOrder(page, first);
    await expect(page.getByTestId('order-demo')).toContainText('Demo sale: play money, not a payment');
    const onOrder = page.getByTestId('order-delivery');
    await onOrder.getByRole('button', { name: 'Check webhook delivery' }).click();
    await expect(onOrder.getByRole('status')).toContainText(
      'Provider’s webhook delivery: Not registered: the provider has no webhook address for this merchant',
    );
    await expect(onOrder.getByRole('status')).toHaveAttribute('data-outcome', 'not-registered');

    // The Demo receipt: the banner in large type, first and last.
    await page.getByTestId('receipt-panel').scrollIntoViewIfNeeded();
    const preview = page.getByTestId('receipt-preview');
    await expect(preview.locator('.rp-banner')).toHaveCount(2);
    await expect(preview.locator('.rp-banner').first()).toHaveText('DEMO — NOT A PAYMENT');
    const bannerSize = await preview
      .locator('.rp-banner')
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const lineSize = await preview
      .locator('.rp-pair')
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(bannerSize).toBeGreaterThanOrEqual(lineSize * 1.9);
    await preview.locator('.rp-banner').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `demo-receipt-banner-${scheme}.png`) });

    // With the receiver on, the provider delivers the next payment's notification: HTTP 200.
    await setReceiver(request, shell, true);
    const second = await sellPaid(page, 'G1,G2');
    const orders = await api<{ rows: { id: number; outOrderNo: string }[] }>(request, shell, 'orders.search', {
      text: second,
    });
    const id = orders.rows[0]!.id;
    // The notification is sent as the payment settles; wait until the provider has recorded our answer.
    await expect
      .poll(async () => (await api<{ outcome: string }>(request, shell, 'delivery.check', { orderId: id })).outcome)
      .toBe('delivered');
    await openOrder(page, second);
    await onOrder.getByRole('button', { name: 'Check webhook delivery' }).click();
    await expect(onOrder.getByRole('status')).toContainText(
      'Provider’s webhook delivery: HTTP 200: our receiver accepted the notification',
    );
    await expect(onOrder.getByRole('status')).toContainText('Our receiver recorded it at');
    await onOrder.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `delivery-order-detail-${scheme}.png`) });

    // Settings → Webhook receiver: the last paid order, the same answer.
    await page.keyboard.press('Alt+5');
    const inSettings = page.getByTestId('settings-delivery');
    await inSettings.getByRole('button', { name: 'Check delivery of the last paid order' }).click();
    await expect(inSettings.getByRole('status')).toContainText(
      `Provider’s webhook delivery (order ${second}): HTTP 200: our receiver accepted the notification`,
    );
    await inSettings.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `delivery-settings-${scheme}.png`) });

    // An answer the provider did not sign (the sandbox's control API tampers with the next one): a clear message.
    const demo = await api<{ settings: { posBaseUrl: string } }>(request, shell, 'settings.getProfile', {
      profile: 'demo',
    });
    const fault = await request.post(`${demo.settings.posBaseUrl}/_sandbox/faults`, {
      data: {
        faults: [{ path: '/openApi/order/checkout/depositStatisticAccountCallBack', kind: 'tamperSign', times: 1 }],
      },
    });
    expect(fault.ok()).toBe(true);
    await inSettings.getByRole('button', { name: 'Check delivery of the last paid order' }).click();
    await expect(inSettings.getByRole('alert')).toContainText(
      'The provider’s answer about the webhook delivery was not signed with its key, so it was not trusted.',
    );
    await expect(inSettings.getByRole('alert')).toContainText('Nothing was changed.');
  });
}

test('after switching to a real profile, Orders leaves the Demo sale out until “Include Demo sales” is ticked', async ({
  page,
  request,
  shell,
}) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  const no = await sellPaid(page, 'F7,F8');
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('orders-summary')).toHaveText('1 order · 1 paid · card total ₦5,200.00');
  await expect(page.getByLabel('Include Demo sales')).toHaveCount(0); // the Demo profile shows its own sales

  await api(request, shell, 'settings.setPin', { newPin: '2468' });
  await api(request, shell, 'settings.setActiveProfile', { profile: 'sandbox' });
  await page.reload();
  await expect(page.getByText(/^Sandbox · /)).toBeVisible();
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('orders-summary')).toHaveText('0 orders · 0 paid · card total ₦0.00');
  await page.getByLabel('Include Demo sales').check();
  await expect(page.getByTestId('orders-summary')).toHaveText('1 order · 1 paid · card total ₦5,200.00');
  await page.getByRole('button', { name: `Open order ${no}` }).click();
  await expect(page.getByTestId('order-demo')).toBeVisible();
});
