// Settings through the whole stack in real Chromium: choose the admin PIN, save a profile with a
// key, see it after a reload (write-only key shown as set + fingerprint), errors per field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, expect, test } from './fixtures';

test('admin PIN, save a profile, see it after a reload; keys never reach the page', async ({ page, shell }) => {
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await page.getByRole('button', { name: /^Settings/ }).click();
  await expect(page.getByRole('heading', { name: 'Choose an admin PIN' })).toBeVisible();

  await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
  await page.getByLabel('Type the PIN again').fill('2468');
  await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();
  await expect(page.getByRole('tab', { name: 'Edit Sandbox' })).toBeVisible();

  await page.getByRole('tab', { name: 'Edit Sandbox' }).click();
  await page.getByLabel('Counter name').fill('Counter 7');
  await page.getByLabel('Branch id (merchantId)').fill('256621000000002');
  await page.getByLabel('Bills secret key').fill('OPAYPRV-live-1234567890');
  await page.getByRole('button', { name: /Save profile/ }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
  await expect(page.getByTestId('secret-status-billsSecretKey')).toHaveText(/^Set · [0-9a-f]{4}…[0-9a-f]{4}$/);

  await page.reload();
  await page.getByRole('button', { name: /^Settings/ }).click();
  // The unlock lasts a few minutes; after a reload the profile is still there.
  await page.getByRole('tab', { name: 'Edit Sandbox' }).click();
  await expect(page.getByLabel('Counter name')).toHaveValue('Counter 7');
  await expect(page.getByLabel('Branch id (merchantId)')).toHaveValue('256621000000002');
  await expect(page.getByTestId('secret-status-billsSecretKey')).toHaveText(/^Set · /);
  await expect(page.getByLabel('Bills secret key')).toHaveValue('');
  expect(await page.content()).not.toContain('OPAYPRV-live-1234567890');

  // The key is on disk in the browser shell's secrets file, not in the settings file.
  expect(readFileSync(join(shell.dataDir, 'settings.json'), 'utf8')).not.toContain('OPAYPRV-live');
  expect(readFileSync(join(shell.dataDir, 'secrets.json'), 'utf8')).toContain('OPAYPRV-live');
});

test('a bad save shows errors next to the fields and changes nothing', async ({ page, shell }) => {
  await page.goto(shell.url);
  await page.keyboard.press('Alt+5');
  await page.getByLabel('New admin PIN (4 to 12 digits)').fill('1357');
  await page.getByLabel('Type the PIN again').fill('1357');
  await page.keyboard.press('Enter');
  await page.getByRole('tab', { name: 'Edit Demo' }).click();
  await page.getByLabel('POS payment API address').fill('not a url');
  await page.getByLabel('Counter name').fill('Counter 9');
  await page
    .getByLabel('Merchant RSA private key (PEM)')
    .fill('-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----');
  await page.getByRole('button', { name: /Save profile/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was saved' })).toBeVisible();
  await expect(page.getByText('Enter a full http:// or https:// address')).toBeVisible();
  await expect(page.getByText(/Paste the whole RSA private key/)).toBeVisible();
  // The first field in error has the focus, so the admin lands on what to fix.
  await expect(page.getByLabel('POS payment API address')).toBeFocused();
  await page.screenshot({ path: join(ARTIFACTS, 'settings-errors-light.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Edit Sandbox' }).click();
  await page.getByRole('tab', { name: 'Edit Demo' }).click();
  await expect(page.getByLabel('Counter name')).toHaveValue('Counter 1');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`screens render in ${scheme}`, async ({ page, shell }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    await page.screenshot({ path: join(ARTIFACTS, `sell-${scheme}.png`) });
    await page.keyboard.press('Alt+5');
    await page.getByLabel('New admin PIN (4 to 12 digits)').fill('1111');
    await page.screenshot({ path: join(ARTIFACTS, `settings-pin-${scheme}.png`) });
    await page.getByLabel('Type the PIN again').fill('1111');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tab', { name: 'Edit Demo' })).toBeVisible();
    await page.screenshot({ path: join(ARTIFACTS, `settings-${scheme}.png`), fullPage: true });
    // The form scrolls inside the window: its keys and the provider's conventions, each on its own.
    const keys = page.getByRole('group', { name: 'Keys' });
    await expect(keys.getByTestId('secret-status-merchantPrivateKey')).toContainText('Set · ');
    await keys.screenshot({ path: join(ARTIFACTS, `settings-keys-${scheme}.png`) });
    await page.getByText('Provider conventions (advanced').click();
    const conventions = page.locator('details.card');
    await expect(conventions.getByLabel('POS signature hash')).toHaveValue('SHA256');
    await conventions.screenshot({ path: join(ARTIFACTS, `settings-conventions-${scheme}.png`) });
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`profile tabs: arrow keys, the panel they control, and the tab on show kept as typed (${scheme})`, async ({
    page,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(shell.url);
    await page.keyboard.press('Alt+5');
    await page.getByLabel('New admin PIN (4 to 12 digits)').fill('8642');
    await page.getByLabel('Type the PIN again').fill('8642');
    await page.keyboard.press('Enter');

    const demo = page.getByRole('tab', { name: 'Edit Demo' });
    const sandbox = page.getByRole('tab', { name: 'Edit Sandbox' });
    await expect(demo).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Edit Demo' })).toHaveAttribute(
      'id',
      (await demo.getAttribute('aria-controls'))!,
    );
    await expect(page.getByLabel('Counter name')).toHaveValue('Counter 1');

    // One tab in the Tab order; the arrow keys move the choice and the focus.
    await expect(sandbox).toHaveAttribute('tabindex', '-1');
    await demo.focus();
    await page.keyboard.press('ArrowRight');
    await expect(sandbox).toBeFocused();
    await expect(sandbox).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Edit Sandbox' })).toBeVisible();
    await page.keyboard.press('Home');
    await expect(demo).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: 'Edit Demo' })).toBeVisible();
    await expect(page.getByLabel('Counter name')).toHaveValue('Counter 1');

    // Clicking the tab already on show does not read the profile again over what was typed.
    await page.getByLabel('Counter name').fill('Counter 4');
    await demo.click();
    await demo.click();
    await expect(page.getByLabel('Counter name')).toHaveValue('Counter 4');
    await page.getByRole('button', { name: /Save profile/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(page.getByLabel('Counter name')).toHaveValue('Counter 4');
    await page.screenshot({ path: join(ARTIFACTS, `settings-tabs-banner-${scheme}.png`) });
  });
}
