// "I was debited": the complaint desk in real Chromium at 1024×768, keyboard first. A sale on a
// provider sandbox of its own is cancelled on the terminal; the provider takes the money after all
// and has no webhook address to tell the counter. The customer comes back: the cashier finds the
// payment on "Debited?" by the card's last four and the amount, asks the provider (Enter on the
// candidate), reads "Paid after closing: hand over the tickets", opens a case, prints its slip
// (a loopback receipt printer) and closes it with the tickets given — the payment after closing
// handled with it, its alert gone.
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { generateDemoConfig, startSandbox, type DemoMerchantValues, type Sandbox } from '../../sandbox';
import { defaultProfile } from '../../shared/settings';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';
import { escposText, startLoopbackPrinter } from '../helpers/loopback-printer';
import { ARTIFACTS, callShell, expect, test } from './fixtures';

const PIN = '2468';

/** The desk light and dark: from the top (the alert of every screen above it), then scrolled to the truth and the case. */
async function shots(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator('main').evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${scheme}.png`), fullPage: true });
    await page.locator('.desk-layout').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, `${name}-desk-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The counter on the sandbox's merchant, its own receiver off: the provider can tell it nothing by webhook. */
async function counterOnSandbox(
  request: APIRequestContext,
  shell: ShellProcess,
  sandbox: Sandbox,
  m: DemoMerchantValues,
) {
  await callShell(request, shell, 'settings.setPin', { newPin: PIN });
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
  await callShell(request, shell, 'settings.saveProfile', { profile: 'sandbox', settings, secrets });
  await callShell(request, shell, 'settings.setActiveProfile', { profile: 'sandbox' });
  await callShell(request, shell, 'terminal.configure', { source: 'manual', manualSn: m.terminalSn });
}

test('a complaint found by last four and amount, paid after closing: tickets handed over, case closed', async ({
  page,
  request,
}) => {
  const { config, merchant } = generateDemoConfig();
  const sandbox = await startSandbox(config, { port: 0 });
  const printer = await startLoopbackPrinter();
  const shell = await startShellProcess({ openShift: true });
  try {
    await counterOnSandbox(request, shell, sandbox, merchant);
    await callShell(request, shell, 'receipts.saveSettings', {
      printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80' },
      cinema: { name: 'Filmhouse Lekki', branch: 'Admiralty Way' },
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(shell.url);
    await expect(page.getByText('Sandbox · Counter 1')).toBeVisible();
    await expect(page.getByTestId('terminal-sn')).toContainText(merchant.terminalSn);

    // The sale: cancelled on the terminal, then paid after all, nobody told.
    await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
    await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
    await page.getByLabel('Seats', { exact: true }).fill('F7');
    await page.getByLabel('Price per ticket (₦)').fill('4,000');
    await page.getByLabel('Booking fee per ticket (₦)').fill('0');
    await page.getByRole('button', { name: /^Charge ₦4,000\.00/ }).click();
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();
    sandbox.present(merchant.terminalSn, 'CANCEL');
    await expect(page.getByTestId('payment-state')).toHaveText('Cancelled on the terminal');
    const orderNo = sandbox.listPosOrders().find((o) => o.outOrderNo === outOrderNo)!.orderNo;
    expect(sandbox.reportLate(orderNo, 'SUCCESS', { cardPan: '5399831234564321' })).toMatchObject({
      status: 'SUCCESS',
      webhook: { delivered: false },
    });
    await expect(page.getByTestId('late-alert')).toHaveCount(0);

    // The desk, by keys only: the last four, the amount, Enter.
    await page.keyboard.press('Alt+6');
    const last4 = page.getByLabel('Card’s last four digits');
    await expect(last4).toBeFocused();
    await page.keyboard.type('4321');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Amount (₦)')).toBeFocused();
    await page.keyboard.type('4,000');
    await page.keyboard.press('Enter');
    const candidates = page.getByTestId('desk-candidates');
    await expect(candidates).toBeFocused();
    await expect(candidates.getByRole('option')).toHaveCount(1);
    await expect(candidates.getByRole('option').first()).toContainText(outOrderNo);
    await expect(candidates.getByRole('option').first()).toContainText('₦4,000.00');
    await expect(candidates.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');

    // Enter asks the provider: the truth in big words, with its word and time as proof.
    await page.keyboard.press('Enter');
    const truth = page.getByTestId('case-truth');
    await expect(truth.locator('.desk-truth-line')).toHaveText('Paid after closing: hand over the tickets');
    await expect(truth.locator('.desk-truth-proof')).toHaveText(/^The provider says SUCCESS at \d\d:\d\d\.$/);
    await expect(truth).toBeFocused();
    // Recorded as the sweep would: the alert of a payment after closing is on every screen.
    await expect(page.getByTestId('late-alert')).toContainText(outOrderNo);

    // Open the case (Tab to the name, then to Open case), print the slip.
    await page.keyboard.press('Tab');
    await expect(page.locator('.desk-case').getByLabel('Your name')).toBeFocused();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Ngozi');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Open case' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('case-no')).toHaveText(/^Case COU1-C0001\s+Open$/);
    await page.getByRole('button', { name: 'Print slip' }).click();
    await expect(page.getByTestId('desk-message')).toHaveText('Slip for case COU1-C0001 printed.');
    const slip = escposText(await printer.job(0)).join('\n');
    for (const words of ['Filmhouse Lekki', 'Case COU1-C0001', outOrderNo, 'We will resolve this within 72 hours'])
      expect(slip).toContain(words);
    await expect(page.getByTestId('open-cases')).toContainText('Open cases: 1');
    await shots(page, 'complaint-desk-paid-after-closing');

    // The tickets are handed over: the case closes, and the payment after closing is handled with it.
    await page.getByRole('group', { name: 'Resolve the case' }).getByRole('button', { name: 'Tickets given' }).click();
    await expect(page.getByTestId('case-no')).toHaveText(/^Case COU1-C0001\s+Closed: Tickets given$/);
    await expect(page.getByTestId('open-cases')).toContainText('Open cases: 0');
    await expect(page.getByTestId('late-alert')).toHaveCount(0);
    const history = await callShell<{ note: string }[]>(request, shell, 'orders.history', {
      id: (await callShell<{ rows: { id: number }[] }>(request, shell, 'orders.search', { text: outOrderNo })).rows[0]!
        .id,
    });
    expect(history.map((e) => e.note)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Paid after closing: .* by query$/),
        expect.stringMatching(/^Handled: Tickets given to the customer \(by Ngozi\)/),
      ]),
    );
    await shots(page, 'complaint-desk-closed');
  } finally {
    await shell.stop().catch(() => undefined);
    await printer.stop();
    await sandbox.close();
  }
});
