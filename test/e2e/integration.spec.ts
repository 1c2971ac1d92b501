// A box office integrated with CounterPay, end to end in real Chromium: the administrator pairs
// the example box office (examples/box-office) in Settings → Integrations and pastes its key
// into the box office; the box office books two seats and asks for the charge; CounterPay's
// payment panel shows it with who asked; the customer pays on the Demo terminal; the box office
// shows Paid, learnt from CounterPay's signed callback.
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { startBoxOffice } from '../../examples/box-office/server';
import { startShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, expect, test as base } from './fixtures';

const test = base.extend<{ shell: Awaited<ReturnType<typeof startShellProcess>> }>({
  shell: async ({}, use) => {
    // A box office's charge needs an open shift like every sale (the engine refuses it otherwise).
    const shell = await startShellProcess({ openShift: true, env: { COUNTERPAY_INTEGRATION_PORT: '0' } });
    await use(shell);
    await shell.stop();
  },
});

/** Pairs the box office in Settings → Integrations; answers the API address and the key shown once. */
async function pair(
  page: Page,
  shellUrl: string,
  callbackUrl: string,
  theme: string,
): Promise<{ apiUrl: string; key: string }> {
  await page.emulateMedia({ colorScheme: theme as 'light' | 'dark' });
  await page.goto(shellUrl);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.getByRole('button', { name: /^Settings/ }).click();
  await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
  await page.getByLabel('Type the PIN again').fill('2468');
  await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();
  const panel = page.getByTestId('integrations-panel');
  await panel.scrollIntoViewIfNeeded();
  await panel.getByLabel('Name').fill('Box office');
  await panel.getByLabel('Callback URL (optional)').fill(callbackUrl);
  await panel.getByRole('button', { name: 'Pair' }).click();
  const key = (await panel.getByTestId('integration-key').locator('code').textContent()) ?? '';
  expect(key).toMatch(/^cpk_/);
  await expect(panel.getByTestId('integrations-list')).toContainText('Box office');
  const apiUrl =
    /http:\/\/127\.0\.0\.1:\d+/.exec((await panel.getByTestId('integrations-api').textContent()) ?? '')?.[0] ?? '';
  expect(apiUrl).not.toBe('');
  await panel.screenshot({ path: join(ARTIFACTS, `integrations-settings-${theme}.png`) });
  await panel.getByRole('button', { name: 'I have copied it' }).click();
  // Never shown again.
  await expect(panel.getByTestId('integration-key')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(key);
  return { apiUrl, key };
}

/** The box office's page, set up with CounterPay's address and key, two seats picked. */
async function boxOfficePage(
  context: BrowserContext,
  url: string,
  apiUrl: string,
  key: string,
  linkAt?: string,
): Promise<Page> {
  const bo = await context.newPage();
  await bo.goto(url);
  await bo.getByLabel('CounterPay address').fill(apiUrl);
  await bo.getByLabel('CounterPay key').fill(key);
  if (linkAt) await bo.getByLabel('Charge links open at').fill(linkAt);
  await bo.getByRole('button', { name: 'Save' }).click();
  await expect(bo.locator('#setup-state')).toHaveText('Saved');
  await bo.getByRole('button', { name: 'F7', exact: true }).click();
  await bo.getByRole('button', { name: 'F8', exact: true }).click();
  return bo;
}

/** CounterPay shows the charge with who asked; the customer pays; the box office shows Paid from the callback. */
async function payAndSeePaid(page: Page, bo: Page, theme: string | null): Promise<void> {
  const reference = (await bo.locator('#ref').textContent()) ?? '';
  await page.bringToFront();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await expect(page.getByTestId('payment-origin')).toHaveText(`Asked by Box office · booking ${reference}`);
  await expect(page.getByTestId('payment-amount')).toHaveText('₦5,200.00');
  if (theme)
    await page.getByTestId('payment').screenshot({ path: join(ARTIFACTS, `integration-payment-${theme}.png`) });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await bo.bringToFront();
  await expect(bo.locator('#status')).toHaveText('Paid');
  await expect(bo.locator('#message')).toContainText('Payment number');
}

for (const theme of ['light', 'dark'] as const) {
  test(`the example box office charges two seats and sees Paid from the callback (${theme})`, async ({
    page,
    context,
    shell,
  }) => {
    const boxOffice = await startBoxOffice(0);
    try {
      const { apiUrl, key } = await pair(page, shell.url, `${boxOffice.url}/counterpay/callback`, theme);
      const bo = await boxOfficePage(context, boxOffice.url, apiUrl, key);
      await bo.getByRole('button', { name: 'Charge at the counter' }).click();
      await expect(bo.locator('#status')).toHaveText(/Waiting for payment at the counter|Sending to the terminal/);
      await payAndSeePaid(page, bo, theme);
    } finally {
      await boxOffice.close();
    }
  });
}

test('the same through a charge link, opened as an address of the browser shell', async ({ page, context, shell }) => {
  const boxOffice = await startBoxOffice(0);
  try {
    // The link's returnUrl is the box office's callback: callbacks go only where the pairing points.
    const { apiUrl, key } = await pair(page, shell.url, `${boxOffice.url}/counterpay/callback`, 'light');
    const bo = await boxOfficePage(context, boxOffice.url, apiUrl, key, `${shell.origin}/counterpay/charge`);
    const opened = context.waitForEvent('page');
    await bo.getByRole('button', { name: 'Charge by link' }).click();
    const linkPage = await opened;
    await expect(linkPage.locator('body')).toContainText('Sent to the counter: booking BO-');
    await linkPage.close();
    await payAndSeePaid(page, bo, null);
  } finally {
    await boxOffice.close();
  }
});
