// The favicon in real Chromium: the page's icon link loads through the browser shell, as an icon,
// and the page's CSP lets it (no violation reported).
import { expect, test } from './fixtures';

test('the favicon loads under the CSP', async ({ page, shell }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    // A violation reads "Refused to load … because it violates … Content Security Policy".
    if (/^Refused to /.test(m.text())) violations.push(m.text());
  });
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();

  const icon = await page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return null;
    const r = await fetch(link.href);
    const bytes = new Uint8Array(await r.arrayBuffer());
    return {
      href: link.href,
      status: r.status,
      type: r.headers.get('content-type'),
      head: Array.from(bytes.slice(0, 4)),
    };
  });
  expect(icon).toEqual({ href: `${shell.origin}/favicon.ico`, status: 200, type: 'image/x-icon', head: [0, 0, 1, 0] });
  expect(violations).toEqual([]);
});
