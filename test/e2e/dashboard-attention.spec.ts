// What the Hub's dashboard was missing (issues 19 and 20), in real Chromium against a real Hub process
// started as an operator who forgot --merchant-config starts it: Needs attention has a Hub-wide line
// for it (and Counters says "give it the merchant file"), a line for paid sales made with no shift
// open, one for a paid sale the provider later reports otherwise (also on the order's row and its
// history); Today shows a late payment marked for refund apart from the takings; every day field
// shows the day in the one Lagos format whatever the browser's language; an order's history is cards
// on a phone. Screenshots light and dark at 1280 and 390.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { addDays, lagosDate, lagosDayStart } from '../../shared/time';
import { formatNaira } from '../../shared/money';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const BM = { name: 'Ikeja Manager', password: 'ikeja password 123' };
const MIN = 60_000;
const SIZES = [
  { width: 1280, height: 860, name: 'desk' },
  { width: 390, height: 844, name: 'phone' },
] as const;
let hub: HubProcess;
let hubDir: string;
let day: string;

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-attn-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']); // no --merchant-config
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const token = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.post('/setup', { token, ...HO })).status).toBe(200);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  expect((await ho.post('/managers', { ...BM, role: 'branch', branch: 'B-IKEJA' })).status).toBe(200);
  const j = new CounterJournal(hub.url, (await enroll(hub, 'Counter 1', 'B-IKEJA')).credential);
  const now = Date.now();
  day = lagosDate(now);
  const t = Math.max(lagosDayStart(day) + MIN, now - 90 * MIN);
  const sale = {
    filmName: 'DUNE-2',
    filmTitle: 'Dune: Part Two',
    showDate: day,
    showTime: '19:30',
    seats: 'F7,F8',
    tickets: 2,
    priceKobo: 200_000,
    bookingFeeKobo: 0,
  };
  await j.sync([
    // Two sales with no shift open (an older counter): no cashier in the journal.
    j.ev('order.created', t, {
      reference: 'COU1-NS-0001',
      amountKobo: 470_000,
      sn: 'SN-1',
      profile: 'production',
      sale,
    }),
    j.ev('order.status', t + 1000, {
      reference: 'COU1-NS-0001',
      status: 'paid',
      orderNo: '240010001',
      payNo: 'PAY-NS-1',
    }),
    j.ev('order.created', t + MIN, {
      reference: 'COU1-NS-0002',
      amountKobo: 1_370_000,
      sn: 'SN-1',
      profile: 'production',
      sale,
    }),
    j.ev('order.status', t + MIN + 1000, {
      reference: 'COU1-NS-0002',
      status: 'paid',
      orderNo: '240010002',
      payNo: 'PAY-NS-2',
    }),
    // A paid sale the provider later reports FAIL.
    j.ev('order.created', t + 2 * MIN, {
      reference: 'COU1-RO-0003',
      amountKobo: 400_000,
      sn: 'SN-1',
      cashier: 'Ada',
      profile: 'production',
      sale,
    }),
    j.ev('order.status', t + 2 * MIN + 1000, { reference: 'COU1-RO-0003', status: 'waiting', orderNo: '240010003' }),
    j.ev('order.status', t + 2 * MIN + 30_000, { reference: 'COU1-RO-0003', status: 'paid', payNo: 'PAY-RO-3' }),
    j.ev('order.late', t + 20 * MIN, {
      reference: 'COU1-RO-0003',
      orderNo: '240010003',
      kind: 'reported-otherwise',
      closedAs: 'paid',
      providerStatus: 'FAIL',
      amountKobo: 400_000,
      payNo: 'PAY-RO-3',
      source: 'webhook',
    }),
    // Money taken after an expired sale, the customer gone: refund to be arranged.
    j.ev('order.created', t + 3 * MIN, {
      reference: 'COU1-LR-0004',
      amountKobo: 250_000,
      sn: 'SN-1',
      cashier: 'Ada',
      profile: 'production',
      sale,
    }),
    j.ev('order.status', t + 3 * MIN + 1000, { reference: 'COU1-LR-0004', status: 'waiting', orderNo: '240010004' }),
    j.ev('order.status', t + 8 * MIN, { reference: 'COU1-LR-0004', status: 'expired' }),
    j.ev('order.late', t + 9 * MIN, {
      reference: 'COU1-LR-0004',
      orderNo: '240010004',
      kind: 'paid-after-closing',
      closedAs: 'expired',
      providerStatus: 'SUCCESS',
      amountKobo: 250_000,
      payNo: 'PAY-LR-4',
      source: 'relay',
    }),
    j.ev('order.late.handled', t + 15 * MIN, {
      reference: 'COU1-LR-0004',
      how: 'refund',
      by: 'Ada',
      note: 'customer left',
    }),
  ]);
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

async function noSideways(page: Page, box?: Locator): Promise<void> {
  const m = await page.evaluate(() => ({ sw: document.scrollingElement!.scrollWidth, w: innerWidth }));
  expect(m.sw, `page ${m.sw} px wide in a ${m.w} px window`).toBeLessThanOrEqual(m.w);
  if (box) {
    const b = await box.evaluate((e) => ({ sw: e.scrollWidth, cw: e.clientWidth }));
    expect(b.sw, `the box scrolls: ${b.sw} px of content in ${b.cw} px`).toBeLessThanOrEqual(b.cw);
  }
}

for (const size of SIZES) {
  test(`Needs attention at ${size.width}: the Hub-wide line, sales with no shift open, a sale reported otherwise`, async ({
    browser,
  }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, '/dashboard/attention');
    const list = page.getByTestId('attention-list');
    const relay = list.locator('li[data-kind="relay-off"]');
    await expect(relay).toContainText('The Hub is not passing on payment notifications');
    await expect(relay.locator('.attention-where')).toHaveText('The whole Hub');
    await expect(relay.locator('.attention-todo')).toContainText(
      'Give the Hub the merchant file: restart it with --merchant-config FILE',
    );
    const noShift = list.locator('li[data-kind="no-shift-sales"]');
    await expect(noShift).toContainText(
      `2 paid sales (${formatNaira(1_840_000)}) made on Counter 1 with no shift open: in no Z report yet`,
    );
    await expect(noShift.locator('.pill')).toHaveText('Sold with no shift open');
    const other = list.locator('li[data-kind="reported-otherwise"]');
    await expect(other).toContainText(
      'A paid sale is now reported FAIL by the provider: Counter 1, sale COU1-RO-0003 (Ada), payment PAY-RO-3',
    );
    // A late payment already handled (refund to be arranged) needs nothing more here.
    await expect(list.locator('li[data-kind="paid-after-closing"]')).toHaveCount(0);
    await noSideways(page);
    await both(page, `attention-hub-wide-${size.name}`);
    // The no-shift line opens that counter's paid orders: both sales there, cashier "—".
    await noShift.getByRole('link', { name: "Open this counter's paid orders" }).click();
    await expect(page.locator('tr[data-reference="COU1-NS-0001"]')).toBeVisible();
    await expect(page.locator('tr[data-reference="COU1-NS-0002"] .o-cashier')).toHaveText('—');
    await page.context().close();
  });

  test(`Counters at ${size.width}: "give it the merchant file"`, async ({ browser }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, '/dashboard/counters');
    const banner = page.getByTestId('relay-off');
    await expect(banner).toContainText('The Hub is not passing on payment notifications: give it the merchant file.');
    await expect(banner).toContainText('--merchant-config FILE');
    await expect(page.getByTestId('counter-list')).toContainText('Counter 1');
    await noSideways(page);
    await both(page, `counters-relay-off-${size.name}`);
    await page.context().close();
  });

  test(`Orders at ${size.width}: the late word on the row and in the history; the history as cards on a phone; days in one format`, async ({
    browser,
  }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, '/dashboard/orders');
    const row = page.locator('tr[data-reference="COU1-RO-0003"]');
    await expect(row.getByTestId('order-late')).toHaveText('Reported FAIL later');
    await expect(page.locator('tr[data-reference="COU1-LR-0004"]').getByTestId('order-late')).toHaveText(
      'Paid after closing · to refund',
    );
    // The day fields show the Lagos format, not the browser's (a US browser here: 11/25/2026).
    await page.getByText('More filters').click();
    await page.getByLabel('From (day)').first().fill(addDays(day, -1));
    const from = page.locator('.day-field').filter({ has: page.locator('#f-from') });
    await expect(from.getByTestId('day-shown')).toHaveText(dayMediumOf(addDays(day, -1)));
    await expect(
      page
        .locator('.day-field')
        .filter({ has: page.locator('#f-to') })
        .getByTestId('day-shown'),
    ).toHaveText('Any day');
    expect(await page.locator('#f-from').evaluate((e) => getComputedStyle(e).color)).toBe('rgba(0, 0, 0, 0)');
    await expect(
      page
        .locator('.day-field')
        .filter({ has: page.locator('#x-to') })
        .getByTestId('day-shown'),
    ).toHaveText(dayMediumOf(day));
    await noSideways(page);
    await both(page, `orders-late-${size.name}`);

    await row.getByRole('link', { name: 'History of sale COU1-RO-0003' }).click();
    await expect(page.getByTestId('order-late-detail')).toContainText(
      'Paid on the counter, then reported FAIL by the provider',
    );
    await expect(page.getByTestId('order-late-detail')).toContainText('Not seen on the counter yet.');
    const history = page.getByTestId('order-history');
    await expect(history.locator('tbody tr')).toHaveCount(3);
    // No box of its own to scroll sideways: on a phone each event is a card.
    await noSideways(page, page.locator('.table-wrap').filter({ has: history }));
    if (size.width < 700)
      expect(
        await history
          .locator('tbody tr')
          .first()
          .evaluate((e) => getComputedStyle(e).display),
      ).toBe('grid');
    await both(page, `order-history-${size.name}`);
    await page.context().close();
  });

  test(`Today at ${size.width}: a late payment to refund is apart from the takings; the day in one format`, async ({
    browser,
  }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, '/dashboard/');
    await expect(page.getByTestId('tile-refund-due')).toContainText(formatNaira(250_000));
    await expect(page.getByTestId('tile-refund-due')).toContainText('1 customer gone: not in the card total');
    // Takings: the three paid sales, not the payment to refund.
    await expect(page.getByTestId('tile-card-total')).toContainText(formatNaira(470_000 + 1_370_000 + 400_000));
    await expect(page.getByTestId('tile-paid-after-closing')).toContainText(formatNaira(0));
    await expect(page.locator('.day-nav').getByTestId('day-shown')).toHaveText(dayMediumOf(day));
    await page.getByRole('button', { name: 'Previous day' }).click();
    await expect(page.locator('.day-nav').getByTestId('day-shown')).toHaveText(dayMediumOf(addDays(day, -1)));
    await page.getByRole('button', { name: 'Today' }).click();
    await expect(page.getByTestId('tile-refund-due')).toBeVisible();
    await noSideways(page);
    await both(page, `today-refund-${size.name}`);
    await page.context().close();
  });

  test(`Shifts and Shows at ${size.width}: the day shown in the one format`, async ({ browser }) => {
    const page = await newPage(browser, size);
    for (const [path, name] of [
      ['/dashboard/shifts', 'shifts'],
      ['/dashboard/shows', 'shows'],
    ] as const) {
      if (name === 'shifts') await login(page, hub.url, HO, path);
      else await page.goto(hub.url + path);
      const shown = page.locator('.day-nav').getByTestId('day-shown');
      await expect(shown).toHaveText(dayMediumOf(day));
      await expect(shown).toBeVisible();
      // Not cut off: the whole day fits its field.
      expect(await shown.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      await noSideways(page);
      await both(page, `${name}-day-${size.name}`);
    }
    await page.context().close();
  });
}

test('a branch manager sees the Hub-wide line too, told whom to ask', async ({ browser }) => {
  const page = await newPage(browser);
  await login(page, hub.url, BM, '/dashboard/attention');
  const relay = page.getByTestId('attention-list').locator('li[data-kind="relay-off"]');
  await expect(relay.locator('.attention-todo')).toContainText('Tell head office');
  await expect(relay.locator('.attention-where')).toHaveText('The whole Hub');
  await page.context().close();
});

/** "Wed 25 Nov 2026", written out here independently of the dashboard's formatter. */
function dayMediumOf(d: string): string {
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  const wd = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(Date.UTC(y, m - 1, dd)).getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1];
  return `${wd} ${dd} ${mon} ${y}`;
}
