// Every counter screen at the two counter sizes, 1024×768 and 1366×768, light and dark, measured in
// real Chromium: nothing sticks out on the right (no horizontal scrolling, nothing cut off), no
// word is broken across lines (a title running down the screen one letter per line), and on the
// Sell screen the Charge button is in view without scrolling — picking a show, typing one by hand,
// and with an order still waiting on the terminal.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, callShell, expect, test } from './fixtures';

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;
const MIN = 60_000;

function at(offsetMin: number): { date: string; time: string } {
  const t = Math.floor((Date.now() + offsetMin * MIN) / MIN) * MIN;
  return { date: lagosDate(t), time: lagosHm(t) };
}

/** A programme with long titles and three ticket types: what broke the list at 1024 wide. */
function programmeCsv(): string {
  const a = at(30);
  const b = at(95);
  const rows = ['film,title,rating,screen,date,time,ticketType,price,bookingFee'];
  for (const [type, price] of [
    ['Adult', '4500'],
    ['Child', '3000.50'],
    ['Student', '3500'],
  ] as const) {
    rows.push(
      `Rohirrim,THE LORD OF THE RINGS: THE WAR OF THE ROHIRRIM,12A,Screen 1,${a.date},${a.time},${type},${price},200`,
    );
    rows.push(`Paddington,PADDINGTON IN PERU (NIGERIAN PREMIERE),PG,Screen 2,${b.date},${b.time},${type},${price},150`);
  }
  return rows.join('\r\n');
}

interface Layout {
  overflowX: number;
  cutOff: string[];
  brokenWords: string[];
}

/** Measures the page as it stands: how far it scrolls sideways, what sticks out on the right, which words break across lines. */
async function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const scrollers = [
      document.documentElement,
      ...Array.from(document.querySelectorAll<HTMLElement>('.content, .topbar, .statusbar')),
    ];
    const overflowX = Math.max(...scrollers.map((e) => e.scrollWidth - e.clientWidth));
    const cutOff: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (el.closest('.sr-only')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.right > vw + 1)
        cutOff.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)}`);
    }
    const brokenWords: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('.sr-only, script, style, option, datalist')) continue;
      const text = n.textContent ?? '';
      const re = /\S{2,}/g;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const lines = new Set(
          Array.from(range.getClientRects())
            .filter((r) => r.width > 0)
            .map((r) => Math.round(r.top)),
        );
        if (lines.size > 1) brokenWords.push(`"${m[0]}" in ${parent.tagName.toLowerCase()}.${parent.className}`);
      }
    }
    return { overflowX, cutOff: cutOff.slice(0, 10), brokenWords: brokenWords.slice(0, 10) };
  });
}

/** The Charge button is wholly in view, above the status bar, without scrolling. */
async function chargeInView(page: Page): Promise<{ top: number; bottom: number; limit: number }> {
  return page.evaluate(() => {
    const b = document.querySelector('.charge-button')!.getBoundingClientRect();
    const bar = document.querySelector('.statusbar')!.getBoundingClientRect();
    return { top: Math.round(b.top), bottom: Math.round(b.bottom), limit: Math.round(bar.top) };
  });
}

async function check(page: Page, name: string, charge: boolean): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(ARTIFACTS, `layout-${name}-${size.width}-${scheme}.png`) });
    }
    const m = await measure(page);
    expect.soft(m.overflowX, `${name} at ${size.width}: sideways scrolling`).toBeLessThanOrEqual(0);
    expect.soft(m.cutOff, `${name} at ${size.width}: cut off on the right`).toEqual([]);
    expect.soft(m.brokenWords, `${name} at ${size.width}: words broken across lines`).toEqual([]);
    if (charge) {
      const c = await chargeInView(page);
      expect.soft(c.top, `${name} at ${size.width}: Charge below the top`).toBeGreaterThanOrEqual(0);
      expect
        .soft(c.bottom, `${name} at ${size.width}: Charge in view above the status bar`)
        .toBeLessThanOrEqual(c.limit);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('every counter screen fits 1024×768 and 1366×768: no sideways scrolling, no word broken, Charge in view', async ({
  page,
  shell,
  request,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  await callShell(request, shell, 'programme.import', { csv: programmeCsv(), fileName: 'week.csv', by: 'Ada' });
  await callShell(request, shell, 'settings.lock');
  await page.setViewportSize(SIZES[0]);
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(2);
  await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
  await check(page, 'sell-list', false);

  await page.getByRole('combobox').press('Enter');
  await page.getByLabel('Seats', { exact: true }).fill('F7 F8');
  await expect(page.getByTestId('total-amount')).toHaveText('₦9,400.00');
  await check(page, 'sell-picked', true);

  await page.keyboard.press('Escape');
  await page.keyboard.press('F2');
  await page.getByLabel('Film name', { exact: true }).fill('Rohirrim');
  await page.getByLabel('Seats', { exact: true }).fill('F7,F8');
  await check(page, 'sell-hand', true);

  // An order waiting on the terminal, hidden: the block above the form, and Charge still in view.
  await page.getByLabel('Price per ticket (₦)').fill('4,500');
  await page.getByLabel('Film title (on the ticket)').fill('THE LORD OF THE RINGS');
  await page.getByLabel('Seats', { exact: true }).press('Enter');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await check(page, 'sell-payment', false);
  await page.getByRole('button', { name: 'Hide (payment continues)' }).click();
  await expect(page.getByTestId('still-open')).toBeVisible();
  await check(page, 'sell-still-open', true);

  for (const [key, name] of [
    ['Alt+2', 'topups'],
    ['Alt+3', 'orders'],
    ['Alt+4', 'shift'],
    ['Alt+5', 'settings'],
    ['Alt+6', 'desk'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.locator('main h1')).toBeVisible();
    await check(page, name, false);
  }
});
