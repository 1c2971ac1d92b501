// The browser shell's address in real Chromium: its one-time token is spent at the first load for
// an HttpOnly, SameSite=Strict cookie and leaves the address bar; a reload goes on with the
// cookie; the same address opened in another browser profile (as from the first one's history)
// gets a clear page saying how to get a new address, and no way into the counter.
import { join } from 'node:path';
import { ARTIFACTS, expect, test } from './fixtures';

for (const scheme of ['light', 'dark'] as const) {
  test(`the address opens CounterPay once; another browser with the same address is told how to get a new one (${scheme})`, async ({
    browser,
    page,
    shell,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const token = /#token=(.+)$/.exec(shell.url)![1]!;
    await page.goto(shell.url);
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
    expect(page.url()).not.toContain(token);
    // The session is a cookie the page's scripts cannot read; nothing of the token is kept in the page.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(
      await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })),
    ).not.toContain(token);
    const cookies = await page.context().cookies(shell.origin);
    expect(cookies).toEqual([
      expect.objectContaining({
        name: `counterpay_session_${new URL(shell.origin).port}`,
        httpOnly: true,
        sameSite: 'Strict',
      }),
    ]);
    await page.reload();
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();

    const other = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 860 } });
    try {
      const stranger = await other.newPage();
      await stranger.goto(shell.url);
      const alert = stranger.getByRole('alert');
      await expect(alert).toContainText('CounterPay cannot start this page');
      await expect(alert).toContainText('This CounterPay address was used already');
      await expect(alert).toContainText(
        'restart CounterPay (npm run start:browser) and open the new address it prints',
      );
      await expect(stranger.getByText('Demo · Counter 1')).toHaveCount(0);
      await stranger.screenshot({ path: join(ARTIFACTS, `shell-address-spent-${scheme}.png`) });
    } finally {
      await other.close();
    }
    // The first browser is still in.
    await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  });
}
