// README.md's five-minute tour, followed as written on a fresh Demo counter in real Chromium: the
// steps, their order, the keys, the names and numbers to type and what the screen says are read
// from README.md itself, so the tour cannot drift from what the counter does. A step this test
// has no driver for fails it (write the driver when adding a step).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { lagosDate, lagosHm } from '../../shared/time';
import { ARTIFACTS, expect, test } from './fixtures';

interface Step {
  n: number;
  title: string;
  text: string;
  codes: string[];
  bolds: string[];
  key: string | null;
}

/** The numbered steps under "## A five-minute tour", each with its `code` and **bold** words, and its Alt key. */
function tourSteps(): Step[] {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const start = readme.indexOf('## A five-minute tour');
  expect(start, 'README.md has a "## A five-minute tour" section').toBeGreaterThan(-1);
  const section = readme.slice(
    start,
    readme.indexOf('\n## ', start + 5) === -1 ? undefined : readme.indexOf('\n## ', start + 5),
  );
  const steps: Step[] = [];
  for (const m of section.matchAll(/^(\d+)\. ([\s\S]*?)(?=^\d+\. |^\S|(?![\s\S]))/gm)) {
    const text = m[2]!.replace(/\s*\n\s*/g, ' ').trim();
    const title = /^\*\*(.+?)\*\*/.exec(text)?.[1] ?? '';
    steps.push({
      n: Number(m[1]),
      title,
      text,
      codes: [...text.matchAll(/`([^`]+)`/g)].map((c) => c[1]!),
      bolds: [...text.matchAll(/\*\*(.+?)\*\*/g)].map((c) => c[1]!).slice(1),
      key: /\((Alt\+\d)\)/.exec(text)?.[1] ?? null,
    });
  }
  return steps;
}

/** A README example with "…" in it as a pattern: the parts in order, anything between. */
function elided(s: string): RegExp {
  return new RegExp(
    s
      .split('…')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  );
}

function code(step: Step, i: number): string {
  const c = step.codes[i];
  expect(c, `step ${step.n} ("${step.title}") names its value number ${i + 1} in backticks`).toBeDefined();
  return c!;
}

type Driver = (page: Page, step: Step) => Promise<void>;

const DRIVERS: Record<string, Driver> = {
  'The status bar': async (page, step) => {
    const bar = page.getByRole('contentinfo', { name: 'Status' });
    for (const b of step.bolds) await expect(bar, `the status bar says "${b}"`).toContainText(b);
  },
  'Open a shift': async (page, step) => {
    await page.getByLabel('Cashier’s name').fill(code(step, 0));
    await page.getByRole('button', { name: step.bolds[0], exact: true }).click();
    await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText(step.bolds[1]!);
  },
  'Sell a ticket': async (page, step) => {
    const [film, seats, price, fee, total] = [0, 1, 2, 3, 4].map((i) => code(step, i));
    await page.getByLabel('Film name', { exact: true }).fill(film!);
    await page.getByLabel('Film title (on the ticket)').fill(film!);
    await page.getByLabel('Seats', { exact: true }).fill(seats!);
    await page.getByLabel('Price per ticket (₦)').fill(price!);
    await page.getByLabel('Booking fee per ticket (₦)').fill(fee!);
    await expect(page.getByTestId('sale-total')).toContainText(elided(total!));
    await expect(page.getByTestId('total-amount')).toHaveText(step.bolds[0]!);
    expect(step.bolds[1]).toBe('Enter');
    await page.getByLabel('Booking fee per ticket (₦)').press('Enter');
  },
  'Pay on the Demo terminal': async (page, step) => {
    await expect(page.getByTestId('out-order-no')).toHaveText(elided(code(step, 0)));
    await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
    await page.getByTestId('demo-terminal').getByRole('button', { name: step.bolds[0], exact: true }).click();
    await expect(page.getByTestId('payment-state')).toHaveText(step.bolds[3]!);
    await expect(page.getByTestId('receipt-preview')).toContainText(/Sale no\./);
  },
  Orders: async (page, step) => {
    const [digits, finds] = [code(step, 0), code(step, 1)];
    await page.getByLabel(/^Find an order: /).fill(digits);
    const rows = page.locator('.orders-table tbody tr .link-button');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveText(elided(finds));
  },
  'Top-ups': async (page, step) => {
    const [amount, phone] = [code(step, 0), code(step, 1)];
    await page.getByLabel("Customer's phone number").fill(phone);
    await expect(page.getByRole('radio', { name: 'MTN' })).toHaveAttribute('aria-checked', 'true');
    await page.getByLabel('Amount (₦)').fill(amount);
    await page.getByLabel('Amount (₦)').press('Enter');
    await expect(page.getByRole('heading', { name: 'Successful' })).toBeVisible({ timeout: 20_000 });
  },
  'Close the shift': async (page, step) => {
    await page.getByRole('button', { name: step.bolds[0], exact: true }).click();
    await page.getByTestId('close-shift').getByRole('button', { name: step.bolds[1], exact: true }).click();
    await expect(page.getByTestId('shift-message')).toContainText('Z report #1 is kept');
  },
  Settings: async (page, step) => {
    expect(step.text).toContain('choose an admin PIN the first time');
    await expect(page.getByRole('heading', { name: 'Choose an admin PIN' })).toBeVisible();
    await page.getByLabel('New admin PIN (4 to 12 digits)').fill('2468');
    await page.getByLabel('Type the PIN again').fill('2468');
    await page.getByRole('button', { name: 'Save PIN and open Settings' }).click();
    const named = /Settings → (\w+)/.exec(step.text)?.[1];
    if (named) await expect(page.getByRole('heading', { name: named, exact: true })).toBeVisible();
  },
  'A seat map': async (page, step) => {
    const [screen, file, best] = [0, 1, 2].map((i) => code(step, i));
    // A programme with a show on that screen in 30 minutes (step 8's template, filled in).
    const t = Math.floor((Date.now() + 30 * 60_000) / 60_000) * 60_000;
    const csv = [
      'film,title,rating,screen,date,time,ticketType,price,bookingFee',
      `Dune 2,DUNE: PART TWO,12A,${screen},${lagosDate(t)},${lagosHm(t)},Adult,4500,200`,
      `Dune 2,DUNE: PART TWO,12A,${screen},${lagosDate(t)},${lagosHm(t)},VIP,8000,200`,
    ].join('\r\n');
    await page.getByLabel('Imported by', { exact: true }).fill('Ada (manager)');
    await page
      .getByLabel('Programme CSV file')
      .setInputFiles({ name: 'tonight.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('programme-message')).toContainText('tonight.csv imported');
    await page.getByLabel(step.bolds[1]!).fill('Ada (manager)');
    await page.getByLabel('Layout file').setInputFiles(resolve(__dirname, '../..', file!));
    await expect(page.getByTestId('layout-message')).toContainText(`imported: ${screen}, `);
    await page.keyboard.press('Alt+1');
    await page.getByRole('button', { name: step.bolds[4], exact: true }).click();
    await page.getByRole('combobox').press('Enter');
    await expect(page.getByTestId('seat-map')).toBeVisible();
    await page.keyboard.type(best!);
    await page.keyboard.press(step.bolds[5]!);
    await expect(page.getByLabel('Seats', { exact: true })).toHaveValue(/^([A-Z]+\d+,){3}[A-Z]+\d+$/);
    await expect(page.getByRole('button', { name: /, free$/, pressed: true })).toHaveCount(4);
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: join(ARTIFACTS, 'readme-tour-seat-map.png') });
  },
};

test.describe('a fresh Demo counter', () => {
  test.use({ shiftOpen: false });

  test("README.md's five-minute tour, step by step as written", async ({ page, shell }) => {
    test.setTimeout(120_000);
    const steps = tourSteps();
    expect(steps.length, 'the tour has its steps').toBeGreaterThanOrEqual(5);
    expect(steps.map((s) => s.n)).toEqual(steps.map((_, i) => i + 1));
    for (const s of steps)
      expect(Object.keys(DRIVERS), `a driver for README tour step ${s.n} "${s.title}"`).toContain(s.title);

    await page.goto(shell.url);
    await expect(page.getByTestId('demo-terminal')).toContainText('Ready');
    for (const step of steps) {
      await test.step(`${step.n}. ${step.title}`, async () => {
        if (step.key) await page.keyboard.press(step.key);
        await DRIVERS[step.title]!(page, step);
      });
    }
    await page.screenshot({ path: join(ARTIFACTS, 'readme-tour-end.png') });
  });
});
