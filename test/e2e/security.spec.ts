// What the security rules look like to the admin and the cashier, in real Chromium: Production
// refuses plain-http addresses and an unchecked signature next to the fields; Sandbox keeps them
// with a visible warning; switching away from Demo leaves the Demo terminal behind.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ARTIFACTS, expect, test } from './fixtures';

async function choosePin(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.keyboard.press('Alt+5');
  await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
  await page.getByLabel('Type the PIN again').fill('2468');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Edit Production' })).toBeVisible();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`Production refuses http:// and an unchecked signature; Sandbox is warned (${scheme})`, async ({
    page,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await choosePin(page, shell.url);

    await page.getByRole('tab', { name: 'Edit Production' }).click();
    await expect(page.getByTestId('profile-warnings')).toHaveCount(0);
    await page.getByLabel('POS payment API address').fill('http://payapi.example.com');
    await page.getByText('Provider conventions (advanced').click();
    await page.getByLabel('Response signature check').selectOption('off');
    await page.getByRole('button', { name: /Save profile/ }).click();
    await expect(page.getByText('Nothing was saved: 2 fields to fix (marked in red).')).toBeVisible();
    await expect(page.getByText(/^Production needs an https:\/\/ address/)).toBeVisible();
    await expect(page.getByText(/^Production must verify the provider's response signatures/)).toBeVisible();
    await expect(page.getByLabel('POS payment API address')).toBeFocused();
    await page.getByLabel('POS payment API address').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `settings-production-refused-${scheme}.png`) });

    // Nothing was written: Production still has its https address.
    await page.getByRole('tab', { name: 'Edit Sandbox' }).click();
    await page.getByRole('tab', { name: 'Edit Production' }).click();
    await expect(page.getByLabel('POS payment API address')).toHaveValue('https://payapi.opayweb.com');

    await page.getByRole('tab', { name: 'Edit Sandbox' }).click();
    await page.getByLabel('POS payment API address').fill('http://sandbox.example.com');
    await page.getByRole('button', { name: /Save profile/ }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    const warnings = page.getByTestId('profile-warnings');
    await expect(warnings).toContainText(
      'The POS payment API address uses http:// (not encrypted): http://sandbox.example.com. Fine for testing; Production refuses it.',
    );
    await warnings.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `settings-sandbox-warning-${scheme}.png`) });
  });

  test(`after switching from Demo to Sandbox the Demo terminal is gone (${scheme})`, async ({ page, shell }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await choosePin(page, shell.url);
    const bar = page.getByRole('contentinfo', { name: 'Status' });
    await expect(bar).toContainText('Terminal DEMO-POS-0001');

    await page.getByRole('group', { name: 'Profile in use' }).getByRole('button', { name: 'Sandbox' }).click();
    await expect(page.getByText('Now using the sandbox profile.')).toBeVisible();
    await expect(bar).toContainText('Sandbox · Counter 1');
    await expect(bar).not.toContainText('DEMO-POS-0001');

    await page.keyboard.press('Alt+1');
    await expect(page.getByTestId('terminal-sn')).toHaveText(
      'No terminal yet: choose its serial port, or type the SN from its label.',
    );
    await expect(page.getByTestId('terminal-status')).toHaveText('No terminal');
    await expect(page.getByTestId('terminal-pill')).toHaveAttribute('data-tone', 'bad');
    await expect(page.getByText('Choose the terminal')).toBeVisible();
    await page.screenshot({ path: join(ARTIFACTS, `terminal-after-profile-switch-${scheme}.png`) });

    // A terminal typed for Sandbox stays with Sandbox; Demo gets its own back.
    await page.getByRole('button', { name: 'Type the SN' }).click();
    await page.getByLabel('Terminal serial number (SN)').fill('P2-0012-3456');
    await page.getByRole('button', { name: 'Use this SN' }).click();
    await expect(bar).toContainText('Terminal P2-0012-3456');
    await page.keyboard.press('Alt+5');
    await page.getByRole('group', { name: 'Profile in use' }).getByRole('button', { name: 'Demo' }).click();
    await expect(bar).toContainText('Terminal DEMO-POS-0001');
  });

  test(`a serial setting change asks for the admin PIN right in the terminal box (${scheme})`, async ({
    page,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await choosePin(page, shell.url);
    await page.getByRole('button', { name: 'Lock settings' }).click();
    await page.keyboard.press('Alt+1');
    await page.getByText('Change terminal').click();
    await page.getByRole('button', { name: 'Serial cable' }).click();
    await page.getByLabel('Baud rate').selectOption('9600');
    await page.getByRole('button', { name: 'Connect' }).click();
    const pin = page.getByLabel('Admin PIN');
    await expect(pin).toBeFocused();
    await expect(
      page.getByText(
        'Serial port and speed are set by the admin: enter the admin PIN. Typing the SN by hand needs no PIN.',
      ),
    ).toBeVisible();
    await page.screenshot({ path: join(ARTIFACTS, `terminal-port-needs-pin-${scheme}.png`) });

    await pin.fill('1111');
    await page.getByRole('button', { name: 'Unlock and connect' }).click();
    await expect(page.getByText(/^That PIN is not right\. 4 tries left/)).toBeVisible();
    await pin.fill('2468');
    await page.getByRole('button', { name: 'Unlock and connect' }).click();
    await expect(page.getByLabel('Admin PIN')).toHaveCount(0);
    await expect(page.getByTestId('terminal-status')).toHaveText('No terminal');
  });
}
