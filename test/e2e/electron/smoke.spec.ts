// Smoke test of the real Electron app, where its runtime exists; skipped, saying why, where not.
import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { electronBinary } from '../../helpers/electron-binary';

const bin = electronBinary();
const reason = 'missing' in bin ? `Electron smoke test skipped: ${bin.missing}.` : '';
if (reason) console.log(reason);

test('the desktop app opens its window with the contract and no Node in the page', async () => {
  test.skip('missing' in bin, reason);
  if (!('path' in bin)) return;
  const app = await electron.launch({
    executablePath: bin.path,
    args: [
      resolve(__dirname, '../../../out/main/index.js'),
      `--user-data-dir=${mkdtempSync(join(tmpdir(), 'counterpay-electron-'))}`,
    ],
  });
  const page = await app.firstWindow();
  await expect(page.getByText('CounterPay').first()).toBeVisible();
  expect(
    await page.evaluate(() => typeof (window as unknown as { counterpay?: { invoke?: unknown } }).counterpay?.invoke),
  ).toBe('function');
  expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
  const status = await page.evaluate(() =>
    (window as unknown as { counterpay: { invoke(n: string, a: unknown): Promise<unknown> } }).counterpay.invoke(
      'status.get',
      {},
    ),
  );
  expect(status).toMatchObject({ ok: true });
  await app.close();
});
