// The webhook relay end to end, in real Chromium: a provider sandbox whose POS webhook goes to a
// real Hub process's /provider/pos-webhook (the Hub knows the merchant's clientAuthKey and the
// provider's public key, never its private key), a counter in the browser shell on that sandbox
// merchant with its own webhook receiver OFF, enrolled on the Hub through Settings → Hub. A ticket
// is sold from the Sell screen, the customer pays on the sandbox's terminal, and Paid appears
// through the relay. The relay earns the counter's trust: the first sale is checked on the fast
// schedule (the relay has delivered nothing for this counter yet); once the Hub relayed one of its
// notifications, the next sale waits with polling held off (the sandbox's own record of the order's
// status queries shows none while it waited, and at most the one follow-up for the payment number).
// A Hub started without the merchant file cannot verify the provider's webhooks: the counter says
// so in amber ("Hub: not passing on payments") and keeps checking, so Paid still shows at once.
// Screenshots of the Paid panel with the Hub pill, light and dark (and the amber pill at the
// counter's two screen sizes).
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

/** A sale typed on the Sell screen, charged on the sandbox's terminal; resolves once it waits there, with its sale number. */
async function sellWaiting(page: Page, sn: string, seats: string): Promise<string> {
  await page.keyboard.press('Alt+1');
  const newSale = page.getByRole('button', { name: 'New sale' });
  if (await newSale.isVisible()) await newSale.click();
  await expect(page.getByTestId('terminal-sn')).toContainText(sn);
  await page.getByLabel('Film name', { exact: true }).fill('SINNERS-2D');
  await page.getByLabel('Film title (on the ticket)').fill('Sinners');
  await page.getByLabel('Seats', { exact: true }).fill(seats);
  await page.getByLabel('Price per ticket (₦)').fill('3,000');
  await page.getByLabel('Booking fee per ticket (₦)').fill('75');
  await page.getByRole('button', { name: new RegExp(`^Charge ₦6,150\\.00 on terminal ${sn}`) }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  return ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
}

/** The sandbox's own record of one order (its status queries, when it settled, its webhook). */
function sandboxOrder(outOrderNo: string): SandboxPosOrder {
  const o = sandbox!.listPosOrders().find((x) => x.outOrderNo === outOrderNo);
  if (!o) throw new Error(`the sandbox has no order ${outOrderNo}`);
  return o;
}

/** mm:ss on the payment panel, in seconds. */
async function countdownSeconds(page: Page): Promise<number> {
  const m = /^(\d\d):(\d\d)$/.exec(
    ((await page.getByTestId('countdown').locator('.pay-timer-big').textContent()) ?? '').trim(),
  );
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

test('the Hub relays Paid; once it delivered one notification, the next sale waits with polling held off', async ({
  page,
  shell,
}) => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-relay-'));
  const { config, merchant } = generateDemoConfig();
  sandbox = await startSandbox(config, { port: 0 });
  // The Hub holds what it needs to check a notification, not to read it.
  const merchantFile = join(dir, 'hub-merchant.json');
  writeFileSync(
    merchantFile,
    JSON.stringify({ clientAuthKey: merchant.clientAuthKey, providerPublicKey: merchant.providerPublicKeyPem }),
    { mode: 0o600 },
  );
  const hub = await spawnHub([
    '--data-dir',
    join(dir, 'hub-data'),
    '--merchant-config',
    merchantFile,
    '--heartbeat-ms',
    '500',
  ]);
  // The one address the merchant registers with the provider.
  sandbox.setWebhookUrl(merchant.headMerchantId, `${hub.url}/provider/pos-webhook`);
  const { code } = await hubAdmin<{ code: string }>(hub, 'POST', '/enroll-codes', { anyBranch: true });

  await counterOnSandbox(shell, sandbox, merchant);
  await page.goto(shell.url);
  await expect(page.getByText('Sandbox · Counter 1')).toBeVisible();
  await expect(page.getByTestId('hub-pill')).toHaveText('Hub: not set up');
  await joinHub(page, hub, code);

  // The first sale: the relay has not delivered anything for this counter yet, so the counter does
  // not lean on it: it checks the order with the provider itself while it waits.
  const first = await sellWaiting(page, merchant.terminalSn, 'G4, G5');
  expect(sandboxOrder(first)).toMatchObject({ status: 'PENDING', amountKobo: 615_000, sn: merchant.terminalSn });
  await expect
    .poll(() => sandboxOrder(first).queriedAt.length, {
      message: 'the first sale is checked with the provider while it waits',
    })
    .toBeGreaterThanOrEqual(1);
  const paidFirst = sandbox.present(merchant.terminalSn, 'SUCCESS', {
    senderName: 'ADA OBI',
    cardPan: '5399831234567890',
  });
  expect(paidFirst.status).toBe('SUCCESS');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  // The Hub took the provider's notification, relayed it to this counter, and the counter acknowledged it.
  expect(sandboxOrder(first).webhook).toMatchObject({ delivered: true, attempts: 1, httpCode: '200' });
  const steps = async (orderNo: string) => {
    const { notifications } = await hubAdmin<{ notifications: { id: string }[] }>(
      hub,
      'GET',
      `/notifications?orderNo=${encodeURIComponent(orderNo)}`,
    );
    if (notifications.length !== 1) return [`${notifications.length} notifications`];
    return (
      await hubAdmin<{ steps: { step: string }[] }>(hub, 'GET', `/notifications/${notifications[0]!.id}/log`)
    ).steps.map((s) => s.step);
  };
  await expect
    .poll(() => steps(paidFirst.orderNo))
    .toEqual(['received', 'verified', 'routed', 'relayed', 'acknowledged']);

  // The relay delivered one of this counter's notifications: the next sale waits on the terminal
  // while the countdown runs down 4 s with no status query (the fast schedule, one a second, would
  // have asked 3 or 4 times by then).
  const second = await sellWaiting(page, merchant.terminalSn, 'G6, G7');
  const shownAtStart = await countdownSeconds(page);
  await expect.poll(() => countdownSeconds(page), { timeout: 15_000 }).toBeLessThanOrEqual(shownAtStart - 4);
  expect(sandboxOrder(second).queriedAt, 'status queries while the order waited with the relay trusted').toEqual([]);

  // The customer pays; the provider's webhook goes to the Hub only.
  const paid = sandbox.present(merchant.terminalSn, 'SUCCESS', { senderName: 'ADA OBI', cardPan: '5399831234567890' });
  expect(paid.status).toBe('SUCCESS');
  await expect(page.getByTestId('payment-state')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-preview')).toContainText('Sinners');
  await expect(page.getByTestId('receipt-preview')).toContainText('₦6,150.00');
  await expect(page.getByTestId('hub-pill')).toHaveText('Hub: connected');
  expect(sandboxOrder(second).webhook).toMatchObject({ delivered: true, attempts: 1, httpCode: '200' });
  await expect.poll(() => steps(paid.orderNo)).toEqual(['received', 'verified', 'routed', 'relayed', 'acknowledged']);

  // Polling held off: no query while it waited; at most the one follow-up for the payment number.
  const o = sandboxOrder(second);
  expect(
    o.queriedAt.filter((t) => t < o.settledAt!),
    'queries before the payment',
  ).toEqual([]);
  expect(o.queriedAt.length, `status queries for ${second}`).toBeLessThanOrEqual(1);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await page.screenshot({ path: join(ARTIFACTS, `hub-relay-paid-${scheme}.png`) });
  }
});

test('a Hub without its merchant file: the amber pill says it passes on no payments, and Paid still shows at once by status checks', async ({
  page,
  shell,
}) => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-relay-nokeys-'));
  const { config, merchant } = generateDemoConfig();
  sandbox = await startSandbox(config, { port: 0 });
  // Started without --merchant-config: it cannot verify the provider's webhooks, so it relays none.
  const hub = await spawnHub(['--data-dir', join(dir, 'hub-data'), '--heartbeat-ms', '500']);
  sandbox.setWebhookUrl(merchant.headMerchantId, `${hub.url}/provider/pos-webhook`);
  const { code } = await hubAdmin<{ code: string }>(hub, 'POST', '/enroll-codes', { anyBranch: true });

  await counterOnSandbox(shell, sandbox, merchant);
  await page.goto(shell.url);
  await expect(page.getByText('Sandbox · Counter 1')).toBeVisible();
  await joinHub(page, hub, code, 'Hub: not passing on payments', 'relay connected, but the Hub passes on no payments');
  const pill = page.getByTestId('hub-pill');
  await expect(pill).toHaveAttribute('data-tone', 'warn');
  await expect(pill).toHaveAttribute(
    'title',
    /The Hub is not passing on payment notifications: give it the merchant file\./,
  );
  const panel = page.getByRole('region', { name: 'Hub' });
  await expect(panel.getByTestId('hub-detail')).toContainText('give it the merchant file');
  await panel.scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await panel.screenshot({ path: join(ARTIFACTS, `hub-not-relaying-settings-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A sale: the counter checks it with the provider itself on the fast schedule.
  const no = await sellWaiting(page, merchant.terminalSn, 'H1, H2');
  await expect
    .poll(() => sandboxOrder(no).queriedAt.length, { message: 'the sale is checked with the provider while it waits' })
    .toBeGreaterThanOrEqual(2);
  const paid = sandbox.present(merchant.terminalSn, 'SUCCESS', { senderName: 'ADA OBI', cardPan: '5399831234567890' });
  expect(paid.status).toBe('SUCCESS');
  // Within seconds, not the ~20 s of a counter that trusted a relay which passes nothing on (the
  // relay schedule's first check, ~17 s after this point): found by the counter's own checks.
  await expect(page.getByTestId('payment-state')).toHaveText('Paid', { timeout: 10_000 });
  const o = sandboxOrder(no);
  expect(
    o.queriedAt.some((t) => t >= o.settledAt!),
    'Paid was found by a status query',
  ).toBe(true);
  await expect(pill).toHaveText('Hub: not passing on payments');

  for (const [width, height] of [
    [1024, 768],
    [1366, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    // The amber pill is in view, and nothing runs off the right edge.
    await expect(pill).toBeInViewport();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `no horizontal scrolling at ${width}`,
    ).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await page.screenshot({ path: join(ARTIFACTS, `hub-not-relaying-paid-${width}-${scheme}.png`) });
    }
  }
});
