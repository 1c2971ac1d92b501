// What the cashier sees when the provider says no, in real Chromium against the Demo profile's
// embedded sandbox: the status bar's measured provider state, the provider's own code and message
// with the likely cause on the payment panel and the order detail, and recovery from a skewed clock.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { ShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, expect, test } from './fixtures';

const SN = 'DEMO-POS-0001';
const CLOCK_WORDS = 'The provider says the request is too old (code 10002 "timestamp expired")';

/** The embedded sandbox's address, from the line the shell logs when it starts it. */
function sandboxUrl(shell: ShellProcess): string {
  const m = /demo sandbox running \{"url":"(http:\/\/127\.0\.0\.1:\d+)"\}/.exec(shell.output());
  if (!m?.[1]) throw new Error(`the shell did not log the demo sandbox address:\n${shell.output()}`);
  return m[1];
}

async function sandboxClock(shell: ShellProcess, body: { offsetMs?: number; sendDate?: boolean }): Promise<void> {
  const r = await fetch(`${sandboxUrl(shell)}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
}

async function sell(page: Page): Promise<void> {
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights');
  await page.getByLabel('Seats', { exact: true }).fill('F7');
  await page.getByLabel('Price per ticket (₦)').fill('2500');
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page.getByRole('button', { name: new RegExp(`^Charge ₦2,500\\.00 on terminal ${SN}`) }).click();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`a provider that refuses our clock: the cashier is told why and what to do; the app recovers (${scheme})`, async ({
    page,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(shell.url);
    // Measured, not assumed: online only once the provider answered the probe.
    await expect(page.getByTestId('provider-pill')).toHaveText('Provider: online');
    await expect(page.getByTestId('terminal-sn')).toContainText(SN);

    // The provider's clock is 6 minutes ahead of this computer, and its answers carry no Date
    // header: the app cannot measure the offset, so it can only say what the provider said.
    await sandboxClock(shell, { offsetMs: 6 * 60_000, sendDate: false });
    await sell(page);
    await expect(page.getByTestId('payment-state')).toHaveText('Checking the payment');
    await expect(page.getByTestId('payment-reason')).toContainText(CLOCK_WORDS);
    await expect(page.getByTestId('payment-reason')).toContainText(
      "Check that this computer's date, time and time zone are right, then press Check now.",
    );
    await expect(page.getByTestId('payment-reason')).toContainText('do not start a new sale for these tickets');
    await expect(page.getByTestId('provider-pill')).toHaveText('Provider: refusing our requests');
    await expect(page.getByTestId('provider-alert')).toContainText(CLOCK_WORDS);
    await expect(page.getByTestId('provider-action')).toContainText('NTP');
    await page.screenshot({ path: join(ARTIFACTS, `provider-refusing-clock-${scheme}.png`) });

    // The order detail says the same.
    await page.keyboard.press('Alt+3');
    await page
      .getByRole('button', { name: /^Open order / })
      .first()
      .click();
    await expect(page.getByTestId('order-reason')).toContainText(CLOCK_WORDS);
    await page.screenshot({ path: join(ARTIFACTS, `provider-refusing-order-detail-${scheme}.png`) });

    // Answers are dated again: the next check measures the offset, signs with the provider's
    // time, finds no order and sends the same one once. The status bar says it is correcting.
    await sandboxClock(shell, { sendDate: true });
    await page.keyboard.press('Alt+1');
    await page.getByRole('button', { name: 'Check now' }).first().click();
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    await expect(page.getByTestId('payment-reason')).toHaveCount(0);
    await expect(page.getByTestId('provider-pill')).toHaveText('Provider: online');
    await expect(page.getByTestId('clock-pill')).toHaveText('Clock off: corrected');
    await expect(page.getByTestId('clock-alert')).toContainText(
      "This computer's clock is 6 minutes behind the provider's. CounterPay stamps its requests with the provider's time",
    );
    await expect(page.getByTestId('demo-terminal')).toContainText('₦2,500.00');
    await page.screenshot({ path: join(ARTIFACTS, `provider-clock-corrected-${scheme}.png`) });
  });
}

test('a provider that drops every connection: the status bar says unreachable, with what to do, and comes back', async ({
  page,
  shell,
}) => {
  await page.goto(shell.url);
  await expect(page.getByTestId('provider-pill')).toHaveText('Provider: online');
  const faults = (body: unknown) =>
    fetch(`${sandboxUrl(shell)}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await faults({ faults: [{ path: '*', kind: 'drop' }] })).status).toBe(200);
  // Nothing is sent until the sale: the status bar learns it from the sale's own failed call.
  await sell(page);
  await expect(page.getByTestId('provider-pill')).toHaveText('Provider: unreachable');
  await expect(page.getByTestId('provider-action')).toContainText(
    'Check the internet connection and the provider address in Settings',
  );
  await page.screenshot({ path: join(ARTIFACTS, 'provider-unreachable-light.png') });
  expect((await faults({ faults: [] })).status).toBe(200);
  // The counter may find the provider back by its own check before the cashier presses Check now:
  // the alert (and its button) then goes, which is the same outcome (a full run once caught the
  // button detached under the click).
  const alert = page.getByTestId('provider-alert');
  await Promise.race([
    alert
      .getByRole('button', { name: 'Check now' })
      .click()
      .catch(() => undefined),
    expect(alert).toHaveCount(0),
  ]);
  await expect(page.getByTestId('provider-pill')).toHaveText('Provider: online');
  await expect(page.getByTestId('provider-alert')).toHaveCount(0);
});
