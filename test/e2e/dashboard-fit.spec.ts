// The dashboard fits the desk and the phone (issue 19): at 390×844 and 1280×800 no screen scrolls
// sideways, Orders shows every sale's time, sale number, amount, state and counter (a table on a
// desk, cards on a phone), the filters beyond the number search sit behind "More filters", and
// Today's branch table shows the takings on a phone. A real Hub process, counters syncing their
// journals through the real sync API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { lagosDayOf, lagosDayStart } from '../../shared/hub-dashboard-contract';
import { formatNaira } from '../../shared/money';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const H = 3_600_000;
const SIZES = [
  { width: 390, height: 844, name: 'phone' },
  { width: 1280, height: 800, name: 'desk' },
] as const;
let hub: HubProcess;
let hubDir: string;
const sales: { ref: string; kobo: number; state: 'paid' | 'failed' }[] = [];

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-fit-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const token = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.post('/setup', { token, ...HO })).status).toBe(200);
  const c = await enroll(hub, 'Counter with a long name 1', 'B-IKEJA-LONG-MERCHANT-0001');
  const j = new CounterJournal(hub.url, c.credential);
  const now = Date.now();
  const start = Math.max(lagosDayStart(lagosDayOf(now)) + 60_000, now - 2 * H);
  const ev = [];
  for (let i = 0; i < 6; i++) {
    const s = {
      ref: `COU1-20261125-00${10 + i}`,
      kobo: 1_370_000 + i * 100_000,
      state: i === 3 ? ('failed' as const) : ('paid' as const),
    };
    sales.push(s);
    const at = start + i * 60_000;
    ev.push(
      j.ev('order.created', at, {
        reference: s.ref,
        amountKobo: s.kobo,
        sn: 'SN-1',
        cashier: 'Adaeze Okonkwo-Bello',
        profile: 'production',
        sale: {
          filmName: 'The Very Long Film Title Part Two',
          filmTitle: 'The Very Long Film Title Part Two (IMAX 3D)',
          showDate: lagosDayOf(now),
          showTime: '19:30',
          seats: 'F7,F8,F9,F10',
          tickets: 4,
          priceKobo: 300_000,
          bookingFeeKobo: 0,
        },
      }),
    );
    ev.push(j.ev('order.status', at + 1000, { reference: s.ref, status: 'waiting', orderNo: `24000100${i}123456` }));
    ev.push(j.ev('order.status', at + 20_000, { reference: s.ref, status: s.state, payNo: `PAY-${i}` }));
  }
  await j.sync(ev);
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

/** No sideways scrolling of the page. */
async function noSideways(page: Page): Promise<void> {
  const m = await page.evaluate(() => ({ sw: document.scrollingElement!.scrollWidth, w: innerWidth }));
  expect(m.sw, `page ${m.sw} px wide in a ${m.w} px window`).toBeLessThanOrEqual(m.w);
}
/** Seen without scrolling sideways: inside the window and inside every box that could clip it. */
async function inView(el: Locator): Promise<void> {
  await expect(el).toBeVisible();
  const r = await el.evaluate((e) => {
    const b = e.getBoundingClientRect();
    let clipped = false;
    for (let p = e.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible') {
        const pb = p.getBoundingClientRect();
        if (b.left < pb.left - 0.5 || b.right > pb.right + 0.5) clipped = true;
      }
    }
    return { left: b.left, right: b.right, w: innerWidth, clipped };
  });
  expect(r.left, 'left edge in the window').toBeGreaterThanOrEqual(0);
  expect(r.right, `right edge ${r.right} in the ${r.w} px window`).toBeLessThanOrEqual(r.w);
  expect(r.clipped, 'not cut off by a scrolling box').toBe(false);
}

for (const size of SIZES) {
  test(`Orders at ${size.width}×${size.height}: every sale's time, sale number, amount, state and counter in view; more filters folded away`, async ({
    browser,
  }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, '/dashboard/orders');
    await expect(page.getByTestId('orders-table').locator('[data-reference]')).toHaveCount(sales.length);
    // The number search is out; the rest waits behind "More filters".
    await expect(page.getByLabel(/Sale, provider order or payment number/)).toBeVisible();
    await expect(page.getByLabel(/^Film/)).toBeHidden();
    await expect(page.getByText('More filters')).toBeVisible();
    await noSideways(page);
    for (const s of sales) {
      const row = page.locator(`[data-reference="${s.ref}"]`);
      await inView(row.getByTestId('order-created'));
      await inView(row.getByRole('link', { name: `History of sale ${s.ref}` }));
      await inView(row.getByTestId('order-amount'));
      await expect(row.getByTestId('order-amount')).toHaveText(formatNaira(s.kobo));
      await inView(row.getByTestId('order-state'));
      await expect(row.getByTestId('order-state')).toContainText(s.state === 'paid' ? 'Paid' : 'failed');
      await inView(row.getByTestId('order-counter'));
    }
    await both(page, `orders-fit-${size.name}`);
    // An order's history: dates in the one format for people (no ISO day), nothing sideways.
    await page.getByRole('link', { name: `History of sale ${sales[0]!.ref}` }).click();
    const facts = page.getByTestId('order-facts');
    await expect(facts).toContainText(/Show\s*[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}, 19:30/);
    expect(await page.locator('main, body').first().innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await noSideways(page);
    await both(page, `order-history-fit-${size.name}`);
    await page.goBack();
    // Opening More filters shows them, still without sideways scrolling; a set filter keeps it open.
    await page.getByText('More filters').click();
    await expect(page.getByLabel(/^Film/)).toBeVisible();
    await page.getByLabel(/^Film/).fill('Very Long');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/film=Very/);
    await expect(page.getByLabel(/^Film/)).toBeVisible();
    await noSideways(page);
    await both(page, `orders-filters-${size.name}`);
    await page.context().close();
  });

  test(`Today at ${size.width}×${size.height}: each branch's and counter's takings in view`, async ({ browser }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, '/dashboard/today');
    const paid = sales.filter((s) => s.state === 'paid').reduce((a, s) => a + s.kobo, 0);
    const branch = page.locator('[data-branch]').first();
    await expect(branch.getByTestId('tally-card-total')).toHaveText(formatNaira(paid));
    await inView(branch.getByTestId('tally-card-total'));
    await inView(page.locator('[data-counter]').first().getByTestId('tally-card-total'));
    await noSideways(page);
    await both(page, `today-fit-${size.name}`);
    await page.context().close();
  });
}

const BRANCH = 'B-IKEJA-LONG-MERCHANT-0001';
const NAME = 'Ikeja <b>City</b> Mall';

test('head office names a branch on Counters; every screen then shows the name, as text, at 390 and 1280; a branch manager sees only their own', async ({
  browser,
}) => {
  const page = await newPage(browser, SIZES[0]);
  await login(page, hub.url, HO, '/dashboard/counters');
  const form = page.getByTestId('branch-names');
  await expect(form.getByLabel(`Name of branch ${BRANCH}`)).toHaveValue('');
  await form.getByLabel(`Name of branch ${BRANCH}`).fill('   ');
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(form.getByRole('alert')).toContainText('type a name for the branch');
  await form.getByLabel(`Name of branch ${BRANCH}`).fill(NAME);
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(form.getByRole('status')).toHaveText(`Saved: ${BRANCH} is now “${NAME}”.`);
  await noSideways(page);
  await both(page, 'branch-names-phone', form);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto(`${hub.url}/dashboard/today`);
    const th = page.locator(`[data-branch="${BRANCH}"]`).getByTestId('branch-label');
    await expect(th).toHaveText(NAME);
    await expect(th.locator('b')).toHaveCount(0);
    await inView(th);
    await expect(page.getByLabel('Branch in view').locator('option', { hasText: NAME })).toHaveCount(1);
    await noSideways(page);
    await page.goto(`${hub.url}/dashboard/orders`);
    await expect(page.getByTestId('order-counter').first()).toContainText(NAME);
    await noSideways(page);
    await page.goto(`${hub.url}/dashboard/counters`);
    await expect(page.getByTestId('branch-names')).toBeVisible();
    await noSideways(page);
    await both(page, `counters-fit-${size.width}`);
  }
  await page.context().close();

  // A branch manager of that branch: their own branch by name, no naming form, and only their branch from the API.
  const ho = new Manager(hub.url);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  await enroll(hub, 'Other till', 'B-OTHER');
  expect((await ho.put('/branches/B-OTHER', { name: 'Other Branch' })).status).toBe(200);
  const BM = { name: 'Ikeja Manager', password: 'ikeja password 123' };
  expect((await ho.post('/managers', { ...BM, role: 'branch', branch: BRANCH })).status).toBe(200);
  const bm = new Manager(hub.url);
  expect((await bm.login(BM.name, BM.password)).status).toBe(200);
  expect((await bm.get('/branches')).json).toEqual({ branches: [{ branch: BRANCH, name: NAME }] });
  expect((await bm.put(`/branches/${BRANCH}`, { name: 'Mine' })).status).toBe(403);
  const p2 = await newPage(browser, SIZES[0]);
  await login(p2, hub.url, BM, '/dashboard/counters');
  await expect(p2.getByTestId('my-branch')).toHaveText(NAME);
  await expect(p2.getByTestId('counter-list')).toBeVisible();
  await expect(p2.getByTestId('branch-names')).toHaveCount(0);
  // Case-sensitive: the Counters hint says "another branch", which getByText would match.
  expect(await p2.locator('body').innerText()).not.toContain('Other Branch');
  await p2.context().close();
});
