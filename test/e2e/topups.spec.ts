// Top-ups through the whole stack in real Chromium, Demo profile (the embedded sandbox): one
// airtime top-up, one betting top-up with the customer check, a small batch with one bad row,
// in light and dark, with screenshots of each state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, expect, test } from './fixtures';

const BATCH = [
  'type,provider,customerId,amount,reference',
  'airtime,MTN,0803 123 4567,200,',
  'airtime,GLO,0805 123 45,100,',
  'betting,BET9JA,20001,1500,',
  'airtime,Airtel,+2348000000404,300,',
].join('\r\n');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`top-ups (${scheme})`, () => {
    test.beforeEach(async ({ page, shell }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(shell.url);
      await expect(page.getByText('Demo · Counter 1')).toBeVisible();
      await page.keyboard.press('Alt+2');
      await expect(page.getByRole('heading', { name: 'Top-ups', level: 1 })).toBeVisible();
    });

    test('one airtime top-up, keyboard first, to Successful', async ({ page }) => {
      await page.getByRole('radio', { name: 'MTN' }).click();
      const phone = page.getByLabel("Customer's phone number");
      await phone.fill('0803 123 456');
      await phone.blur();
      await expect(page.getByText(/Too short: a Nigerian mobile number has 11 digits/)).toBeVisible();
      await phone.fill('0803 123 4567');
      await expect(page.getByText('✓ +234 803 123 4567')).toBeVisible();
      await page.getByLabel('Amount (₦)').fill('20');
      await page.getByLabel('Amount (₦)').press('Enter');
      await expect(page.getByText('MTN airtime: the smallest amount is ₦50.00')).toBeVisible();
      await page.screenshot({ path: join(ARTIFACTS, `topups-airtime-errors-${scheme}.png`), fullPage: true });
      await page.getByLabel('Amount (₦)').fill('500');
      await expect(page.getByRole('button', { name: /Top up ₦500\.00 MTN airtime to 0803 123 4567/ })).toBeVisible();
      await page.screenshot({ path: join(ARTIFACTS, `topups-airtime-form-${scheme}.png`), fullPage: true });
      await page.getByLabel('Amount (₦)').press('Enter');

      const status = page.getByRole('status').filter({ has: page.getByRole('heading', { level: 2 }) });
      // The provider takes a moment (Demo: 1.5 s) and the screen follows it; on a slow machine the
      // top-up may already be final by the time the screen is looked at.
      const first = status.getByRole('heading', { name: /^(In progress|Successful)$/ });
      await expect(first).toBeVisible();
      if ((await first.textContent()) === 'In progress')
        await page.screenshot({ path: join(ARTIFACTS, `topups-airtime-pending-${scheme}.png`), fullPage: true });
      await expect(status.getByRole('heading', { name: 'Successful' })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText('₦500.00 MTN airtime sent to 0803 123 4567.')).toBeVisible();
      await expect(page.locator('.tu-fact-ref dd')).toHaveText(/^COU1-T\d{6}-0001$/);
      await page.screenshot({ path: join(ARTIFACTS, `topups-airtime-success-${scheme}.png`), fullPage: true });
      await expect(page.locator('.tu-recent-item')).toHaveCount(1);

      await page.keyboard.press('Escape');
      await expect(page.getByLabel("Customer's phone number")).toHaveValue('');
      await expect(page.getByRole('radio', { name: 'MTN' })).toHaveAttribute('aria-checked', 'true');
    });

    test('one betting top-up with the customer check', async ({ page }) => {
      await page.getByRole('button', { name: 'Betting wallet' }).click();
      await expect(page.getByRole('radio', { name: /BET9JA/ })).toBeVisible();
      await page.getByRole('radio', { name: /BET9JA/ }).click();
      await page.getByLabel('Customer id at the betting site').fill('99999');
      await page.getByRole('button', { name: 'Check customer' }).click();
      await expect(page.getByText(/BET9JA does not know this customer id/)).toBeVisible();
      await page.getByLabel('Customer id at the betting site').fill('20001');
      await page.getByLabel('Customer id at the betting site').press('Enter');
      await expect(page.getByText('Ask the customer: is this you?')).toBeVisible();
      await expect(page.locator('.tu-customer strong')).toHaveText('Chinedu Okafor');
      await page.getByLabel('Amount (₦)').fill('50');
      await page.getByLabel('Amount (₦)').press('Enter');
      await expect(page.getByText('BET9JA: the smallest amount is ₦100.00')).toBeVisible();
      await page.getByLabel('Amount (₦)').fill('1,000');
      await page.screenshot({ path: join(ARTIFACTS, `topups-betting-checked-${scheme}.png`), fullPage: true });
      await page.getByRole('button', { name: /Pay ₦1,000\.00 to Chinedu Okafor at BET9JA/ }).click();
      await expect(page.getByRole('heading', { name: 'Successful' })).toBeVisible({ timeout: 20_000 });
      await expect(page.locator('.tu-facts')).toContainText('BET9JA 20001 · Chinedu Okafor (chinedu01)');
      await page.screenshot({ path: join(ARTIFACTS, `topups-betting-success-${scheme}.png`), fullPage: true });
    });

    test('a small batch with one bad row: refused before sending, the rest to the end, results exported', async ({
      page,
    }) => {
      await page.getByRole('tab', { name: 'Batch' }).click();
      await expect(page.getByRole('heading', { name: 'Import a batch file' })).toBeVisible();
      await page.screenshot({ path: join(ARTIFACTS, `topups-batch-empty-${scheme}.png`), fullPage: true });
      const template = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the template' }).click();
      expect((await template).suggestedFilename()).toBe('topups-template.csv');

      await page
        .getByLabel('Batch CSV file')
        .setInputFiles({ name: 'friday.csv', mimeType: 'text/csv', buffer: Buffer.from(BATCH) });
      await expect(page.getByRole('heading', { name: 'friday.csv: checked, nothing sent yet' })).toBeVisible();
      await expect(page.getByRole('heading', { name: '1 problem to fix in the file' })).toBeVisible();
      const errorRow = page.locator('.tu-errors tbody tr');
      await expect(errorRow).toHaveCount(1);
      await expect(errorRow).toContainText('3');
      await expect(errorRow).toContainText('customerId');
      await expect(errorRow).toContainText('Too short');
      await page.getByRole('button', { name: /Check all customers/ }).click();
      await expect(page.getByText('1 of 1 customers checked')).toBeVisible();
      await page.screenshot({ path: join(ARTIFACTS, `topups-batch-draft-${scheme}.png`), fullPage: true });

      await page.getByRole('button', { name: 'Send 3 top-ups (₦2,000.00)' }).click();
      await expect(page.getByRole('heading', { name: 'friday.csv: Finished' })).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('.tu-run tbody tr')).toHaveCount(3);
      await expect(page.locator('.tu-run tbody')).toContainText('Recipient number is barred');
      await page.screenshot({ path: join(ARTIFACTS, `topups-batch-done-${scheme}.png`), fullPage: true });

      const results = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export results (CSV)' }).click();
      const file = await results;
      expect(file.suggestedFilename()).toMatch(/^friday-results-\d+\.csv$/);
      const text = readFileSync((await file.path())!, 'utf8');
      const lines = text.trim().split('\r\n');
      expect(lines[0]).toBe('row,reference,providerOrderNo,status,errorMsg');
      expect(lines.slice(1).map((l) => [l.split(',')[0], l.split(',')[3]])).toEqual([
        ['2', 'SUCCESS'],
        ['3', 'REFUSED'],
        ['4', 'SUCCESS'],
        ['5', 'FAIL'],
      ]);
    });
  });
}
