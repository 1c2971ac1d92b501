// What the dashboard's e2e specs share: a screenshot in light and dark, logging in through the
// login form, reaching an element by Tab alone, and a fresh browser page of a given size.
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { ARTIFACTS, expect } from './fixtures';

/** Screenshots `part` (or the whole page) light and dark as test/artifacts/screens/dashboard-<name>-<scheme>.png. */
export async function both(page: Page, name: string, part?: Locator): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    const path = join(ARTIFACTS, `dashboard-${name}-${scheme}.png`);
    if (part) await part.screenshot({ path });
    else await page.screenshot({ path, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Opens `path` on the Hub at `hubUrl` and logs in as `who` through the form. */
export async function login(
  page: Page,
  hubUrl: string,
  who: { name: string; password: string },
  path = '/dashboard/',
): Promise<void> {
  await page.goto(hubUrl + path);
  await page.getByLabel('Manager name').fill(who.name);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('account-button')).toContainText(who.name);
}

/** Tab until `target` has the focus (proves it is reachable by keyboard); fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached by Tab in ${max} presses`);
}

export async function newPage(browser: Browser, o: { width?: number; height?: number } = {}): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: o.width ?? 1280, height: o.height ?? 860 } });
  return ctx.newPage();
}
