// The cashier keeps the counter, end to end in real Chromium against the real browser shell (Demo
// profile): one box-office charge is on the terminal and two more wait; the Sell screen lists the
// waiting ones beside the terminal (who asked, the amount, how long) without opening them over the
// cashier's form, a fourth is refused QUEUE_FULL, and the cashier cancels one — its box office reads
// it cancelled at the counter. Screenshots light and dark at 1024×768.
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { ChargeView } from '../../shared/integration';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, callShell, expect, test as base } from './fixtures';

const test = base.extend<{ shell: ShellProcess }>({
  shell: async ({}, use) => {
    const shell = await startShellProcess({ openShift: true, env: { COUNTERPAY_INTEGRATION_PORT: '0' } });
    await use(shell);
    await shell.stop();
  },
});

const SALE = {
  filmName: 'Lagos Nights',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-12-24',
  showTime: '19:30',
  priceKobo: 250_000,
  bookingFeeKobo: 0,
};

async function ask(request: APIRequestContext, base: string, key: string, reference: string, seat: string) {
  return request.post(`${base}/v1/charges`, {
    headers: { authorization: `Bearer ${key}` },
    data: { reference, amountKobo: 250_000, sale: { ...SALE, seats: seat, tickets: 1 } },
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the Sell screen lists the box office's waiting charges and the cashier cancels one (${scheme})`, async ({
    page,
    request,
    shell,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.emulateMedia({ colorScheme: scheme });
    await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
    const paired = await callShell<{ id: string; key: string }>(request, shell, 'integrations.pair', {
      name: 'Box office',
      callbackUrl: '',
    });
    const base = (await callShell<{ api: { url: string | null } }>(request, shell, 'integrations.list', {})).api.url!;
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();

    // The first goes to the terminal; the next three wait (the cap is 3 per system); a fifth is refused.
    expect((await ask(request, base, paired.key, 'Q-1', 'A1')).status()).toBe(201);
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    await page.keyboard.press('Escape');
    for (const [ref, seat] of [
      ['Q-2', 'A2'],
      ['Q-3', 'A3'],
      ['Q-4', 'A4'],
    ] as const)
      expect(((await (await ask(request, base, paired.key, ref, seat)).json()) as ChargeView).state).toBe('queued');
    const full = await ask(request, base, paired.key, 'Q-5', 'A5');
    expect(full.status()).toBe(429);
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe('QUEUE_FULL');

    const queue = page.getByTestId('charge-queue');
    await expect(queue.getByTestId('queued-charge')).toHaveCount(3);
    await expect(queue).toContainText('Box-office charges waiting');
    await expect(queue.getByTestId('queued-charge').first()).toContainText('₦2,500.00');
    await expect(queue.getByTestId('queued-charge').first()).toContainText('Q-2');
    // The waiting charges are not opened over the cashier's form, nor listed again above it.
    await expect(page.getByTestId('still-open')).not.toContainText('Waiting for the terminal');
    await page.screenshot({ path: join(ARTIFACTS, `charge-queue-${scheme}.png`) });

    await queue.getByRole('button', { name: /Cancel ₦2,500\.00 from Box office, booking Q-3/ }).click();
    await expect(queue.getByTestId('queued-charge')).toHaveCount(2);
    await expect(queue).not.toContainText('Q-3');
    const cancelled = await request.get(`${base}/v1/charges/Q-3`, {
      headers: { authorization: `Bearer ${paired.key}` },
    });
    expect((await cancelled.json()) as ChargeView).toMatchObject({
      state: 'cancelled',
      final: true,
      endCode: 'CANCELLED_AT_COUNTER',
    });
    await page.screenshot({ path: join(ARTIFACTS, `charge-queue-cancelled-${scheme}.png`) });
  });
}
