// "Debited, but the screen said failed", in real Chromium on the Demo profile: the customer cancels
// on the terminal, then the provider takes the payment after all. The Demo sandbox sends no webhook,
// so the reconciliation sweep's pass finds it: the alert shows on every screen with the status bar
// count, and marking it handled (who, how) clears both.
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { ARTIFACTS, expect, test } from './fixtures';

async function api<T>(request: APIRequestContext, shell: { origin: string; token: string }, name: string, args: unknown): Promise<T> {
  const res = await request.post(`${shell.origin}/api/call/${name}`, { headers: { 'content-type': 'application/json', 'x-counterpay-token': shell.token }, data: { args } });
  const body = (await res.json()) as { ok: boolean; value: T; error?: unknown };
  if (!body.ok) throw new Error(`${name}: ${JSON.stringify(body.error)}`);
  return body.value;
}

test('a cancelled sale paid after closing: the sweep finds it, the alert and the count show, marking it handled clears both', async ({ page, shell, request }) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill('F7');
  await page.getByLabel('Price per ticket (₦)').fill('4,000');
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByRole('button', { name: /^Charge ₦4,000\.00/ }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');
  await expect(page.getByTestId('late-alert')).toHaveCount(0);

  // The provider takes the money after all (the sandbox's control call on the Demo sandbox).
  await api(request, shell, 'settings.setPin', { newPin: '2468' });
  const demo = (await api<{ settings: { posBaseUrl: string } }>(request, shell, 'settings.getProfile', { profile: 'demo' })).settings;
  const orders = (await (await request.get(`${demo.posBaseUrl}/_sandbox/orders`)).json()) as { data: { posOrders: { outOrderNo: string; orderNo: string }[] } };
  const orderNo = orders.data.posOrders.find((o) => o.outOrderNo === outOrderNo)!.orderNo;
  expect((await request.post(`${demo.posBaseUrl}/_sandbox/orders/${orderNo}/late`, { data: { status: 'SUCCESS' } })).status()).toBe(200);

  // No webhook in the Demo: the sweep's pass (hourly, and before every Z report) finds it.
  const swept = await api<{ checked: number; paidAfterClosing: number }>(request, shell, 'orders.sweep', {});
  expect(swept).toMatchObject({ paidAfterClosing: 1 });
  const alert = page.getByTestId('late-alert');
  await expect(alert).toBeVisible({ timeout: 2_000 });
  await expect(alert).toContainText(outOrderNo);
  await expect(alert).toContainText(/Paid after it was closed: ₦4,000\.00 was taken from the customer's card at \d\d:\d\d/);
  await expect(page.getByTestId('late-pill')).toHaveText('Paid after closing: 1');
  // The sale's own panel says it too, and no longer offers to charge again.
  await expect(page.getByTestId('payment-late')).toContainText('Paid after it was closed: ₦4,000.00');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
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
  const history = await api<{ note: string }[]>(request, shell, 'orders.history', { id: (await api<{ id: number }[]>(request, shell, 'orders.listToday', {}))[0]!.id });
  expect(history.map((e) => e.note)).toEqual(expect.arrayContaining([expect.stringMatching(/^Paid after closing/), 'Handled: Tickets given to the customer (by Ngozi)']));
});
