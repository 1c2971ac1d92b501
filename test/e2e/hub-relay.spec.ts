// The webhook relay end to end, in real Chromium: a provider sandbox whose POS webhook goes to a
// real Hub process's /provider/pos-webhook (the Hub knows the merchant's clientAuthKey and the
// provider's public key, never its private key), a counter in the browser shell on that sandbox
// merchant with its own webhook receiver OFF, enrolled on the Hub through Settings → Hub. A ticket
// is sold from the Sell screen, the customer pays on the sandbox's terminal, and Paid appears
// through the relay while polling is held off: the sandbox's own record of the order's status
// queries shows none while the order waited, and at most the one follow-up for the payment number.
// Screenshots of the Paid panel with the Hub pill, light and dark.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { generateDemoConfig, startSandbox, type Sandbox, type SandboxPosOrder } from '../../sandbox';
import { killAllHubs, spawnHub } from '../hub/helpers/hub-process';
import { ARTIFACTS, expect, test } from './fixtures';
import { counterOnSandbox, hubAdmin, joinHub } from './hub-counter';

// A Hub process starts in seconds on an idle machine but may take half a minute on a busy one (tsx
// compiles it, PGlite opens its folder): these tests get room for that, not sleeps.
test.describe.configure({ timeout: 180_000 });

/** mm:ss on the payment panel, in seconds. */
async function countdownSeconds(page: Page): Promise<number> {
  const m = /^(\d\d):(\d\d)$/.exec(((await page.getByTestId('countdown').locator('.pay-timer-big').textContent()) ?? '').trim());
  if (!m) throw new Error('the payment panel shows no countdown');
  return Number(m[1]) * 60 + Number(m[2]);
}

let sandbox: Sandbox | null = null;
let dir: string | null = null;
test.afterEach(async () => {
  killAllHubs();
  await sandbox?.close();
  sandbox = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

test('the sandbox webhooks the Hub, the Hub relays to the enrolled counter: Paid with polling held off', async ({ page, shell }) => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-relay-'));
  const { config, merchant } = generateDemoConfig();
  sandbox = await startSandbox(config, { port: 0 });
  // The Hub holds what it needs to check a notification, not to read it.
  const merchantFile = join(dir, 'hub-merchant.json');
  writeFileSync(merchantFile, JSON.stringify({ clientAuthKey: merchant.clientAuthKey, providerPublicKey: merchant.providerPublicKeyPem }), { mode: 0o600 });
  const hub = await spawnHub(['--data-dir', join(dir, 'hub-data'), '--merchant-config', merchantFile, '--heartbeat-ms', '500']);
  // The one address the merchant registers with the provider.
  sandbox.setWebhookUrl(merchant.headMerchantId, `${hub.url}/provider/pos-webhook`);
  const { code } = await hubAdmin<{ code: string }>(hub, 'POST', '/enroll-codes', {});

  await counterOnSandbox(shell, sandbox, merchant);
  await page.goto(shell.url);
  await expect(page.getByText('Sandbox · Counter 1')).toBeVisible();
  await expect(page.getByTestId('hub-pill')).toHaveText('Hub: not set up');
  await joinHub(page, hub, code);

  // Sell from the Sell screen, on the sandbox's terminal.
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('terminal-sn')).toContainText(merchant.terminalSn);
  await page.getByLabel('Film name', { exact: true }).fill('SINNERS-2D');
  await page.getByLabel('Film title (on the ticket)').fill('Sinners');
  await page.getByLabel('Seats', { exact: true }).fill('G4, G5');
  await page.getByLabel('Price per ticket (₦)').fill('3,000');
  await page.getByLabel('Booking fee per ticket (₦)').fill('75');
  await page.getByRole('button', { name: new RegExp(`^Charge ₦6,150\\.00 on terminal ${merchant.terminalSn}`) }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
  const order = (): SandboxPosOrder => {
    const o = sandbox!.listPosOrders().find((x) => x.outOrderNo === outOrderNo);
    if (!o) throw new Error(`the sandbox has no order ${outOrderNo}`);
    return o;
  };
  expect(order()).toMatchObject({ status: 'PENDING', amountKobo: 615_000, sn: merchant.terminalSn });

  // The order waits on the terminal while the countdown runs down 4 s: without the relay, the fast
  // schedule (one query a second) would have asked the provider about it 3 or 4 times by then.
  const shownAtStart = await countdownSeconds(page);
  await expect.poll(() => countdownSeconds(page), { timeout: 15_000 }).toBeLessThanOrEqual(shownAtStart - 4);
  expect(order().queriedAt, 'status queries while the order waited with the relay healthy').toEqual([]);

  // The customer pays on the sandbox's terminal; the provider's webhook goes to the Hub only.
  const paid = sandbox.present(merchant.terminalSn, 'SUCCESS', { senderName: 'ADA OBI', cardPan: '5399831234567890' });
  expect(paid.status).toBe('SUCCESS');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-preview')).toContainText('Sinners');
  await expect(page.getByTestId('receipt-preview')).toContainText('₦6,150.00');
  await expect(page.getByTestId('hub-pill')).toHaveText('Hub: connected');

  // The Hub took the provider's notification, relayed it to this counter, and the counter acknowledged it.
  expect(order().webhook).toMatchObject({ delivered: true, attempts: 1, httpCode: '200' });
  const { notifications } = await hubAdmin<{ notifications: { id: string }[] }>(hub, 'GET', `/notifications?orderNo=${encodeURIComponent(paid.orderNo)}`);
  expect(notifications).toHaveLength(1);
  const steps = async () => (await hubAdmin<{ steps: { step: string }[] }>(hub, 'GET', `/notifications/${notifications[0]!.id}/log`)).steps.map((s) => s.step);
  await expect.poll(steps).toEqual(['received', 'verified', 'routed', 'relayed', 'acknowledged']);

  // Polling held off: no query while it waited; at most the one follow-up for the payment number.
  const o = order();
  expect(o.queriedAt.filter((t) => t < o.settledAt!), 'queries before the payment').toEqual([]);
  expect(o.queriedAt.length, `status queries for ${outOrderNo}`).toBeLessThanOrEqual(1);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await page.screenshot({ path: join(ARTIFACTS, `hub-relay-paid-${scheme}.png`) });
  }
});
