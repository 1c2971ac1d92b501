// The manager on a phone (390×844) and a laptop, second round (issue 27): the Counters screen and
// its branch names agree about who has joined. A real Hub process; counters enroll and sync their
// journals through the real APIs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { lagosDate } from '../../shared/time';
import { CounterJournal } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const PHONE = { width: 390, height: 844 };
let hub: HubProcess;
let hubDir: string;
let setupToken: string;

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-dash27-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  setupToken = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

test('first manager from the setup link; Counters: a counter that joins while the page is open is named under Branch names too', async ({
  browser,
}) => {
  const page = await newPage(browser, PHONE);
  await page.goto(`${hub.url}/dashboard/#setup=${setupToken}`);
  await page.getByLabel('Your manager name').fill(HO.name);
  await page.getByLabel('Password (at least 10 characters)').fill(HO.password);
  await page.getByLabel('Same password again').fill(HO.password);
  await page.getByRole('button', { name: /^Create/ }).click();
  await expect(page.getByTestId('account-button')).toContainText(HO.name);

  // Managers: the manager who is logged in has logged in.
  await page.goto(`${hub.url}/dashboard/managers`);
  const me = page.locator(`[data-manager="${HO.name}"]`);
  await expect(me.getByTestId('open-sessions')).toHaveText('1');
  await expect(me.getByTestId('last-login')).not.toHaveText('never');
  await expect(me.getByTestId('last-login')).toContainText(/\d{2}:\d{2}/);
  await both(page, 'managers-first-login-phone');

  await page.goto(`${hub.url}/dashboard/counters`);
  const names = page.getByTestId('branch-names');
  await expect(names).toContainText('No counter has joined yet.');

  // Counter 1 joins while the screen is open; Refresh shows it, and its branch beside it.
  await enroll(hub, 'Counter 1', 'B-IKEJA');
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(page.getByTestId('counter-list')).toContainText('Counter 1');
  await expect(names.getByLabel('Name of branch B-IKEJA')).toBeVisible();
  await expect(names).not.toContainText('No counter has joined yet.');
  await both(page, 'counters-joined-phone');
  await page.context().close();
});

/** Every part of `inner` lies inside `outer`'s box (nothing cut off by it). */
async function inside(inner: Locator, outer: Locator): Promise<void> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x, 'left edge inside').toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.x + a.width, 'right edge inside').toBeLessThanOrEqual(b.x + b.width + 0.5);
}

/** The two boxes do not overlap. */
async function apart(x: Locator, y: Locator): Promise<void> {
  const a = (await x.boundingBox())!;
  const b = (await y.boundingBox())!;
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap, `${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`).toBe(false);
}

async function noSideways(page: Page): Promise<void> {
  const m = await page.evaluate(() => ({ sw: document.scrollingElement!.scrollWidth, w: innerWidth }));
  expect(m.sw, `page ${m.sw} px wide in a ${m.w} px window`).toBeLessThanOrEqual(m.w);
}

test('phone: Orders cards keep the sale number clear of the state; Live fits; the last digits find a sale; Demo sales hidden are said, and shown on request', async ({
  browser,
}) => {
  const c = await enroll(hub, 'Counter 2', 'B-IKEJA');
  const j = new CounterJournal(hub.url, c.credential);
  const now = Date.now();
  const day = lagosDate(now);
  const ev = [];
  const refs = ['COU2-261127-0003', 'COU2-261127-0004'];
  for (const [i, ref] of refs.entries()) {
    const at = now - (10 - i) * 60_000;
    ev.push(
      j.ev('order.created', at, {
        reference: ref,
        amountKobo: 1_370_000,
        sn: 'SN-1',
        cashier: 'Adaeze Okonkwo-Bello',
        profile: 'production',
        sale: {
          filmName: 'Gladiator II',
          filmTitle: 'GLADIATOR II (IMAX 3D, ORIGINAL VERSION)',
          showDate: day,
          showTime: '21:30',
          seats: 'F7,F8,F9,F10,F11,F12,F13,F14',
          tickets: 2,
          priceKobo: 675_000,
          bookingFeeKobo: 10_000,
        },
      }),
    );
    ev.push(j.ev('order.status', at + 1000, { reference: ref, status: 'waiting', orderNo: `2400010${i}123456` }));
    ev.push(j.ev('order.status', at + 20_000, { reference: ref, status: 'paid', payNo: `PAY-${i}` }));
  }
  ev.push(
    j.ev('order.created', now - 60_000, {
      reference: 'COU2-261127-0005',
      amountKobo: 520_000,
      sn: 'SN-1',
      cashier: 'Adaeze Okonkwo-Bello',
      profile: 'demo',
    }),
  );
  ev.push(j.ev('order.status', now - 50_000, { reference: 'COU2-261127-0005', status: 'paid', payNo: 'PAY-DEMO' }));
  await j.sync(ev);

  const page = await newPage(browser, PHONE);
  await login(page, hub.url, HO, '/dashboard/orders');
  const table = page.getByTestId('orders-table');
  const row = table.locator(`tr[data-reference="${refs[1]}"]`);
  await expect(row).toBeVisible();
  await noSideways(page);
  await apart(row.locator('.o-ref a'), row.getByTestId('order-state'));
  await inside(row.locator('.o-ref a'), row);
  await both(page, 'orders-cards-phone');

  // The search box shows a whole sale number.
  const number = page.getByLabel(/^Sale, provider order or payment number/);
  await number.fill(refs[1]!);
  expect(
    await number.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth),
    'the whole sale number is in view in the box',
  ).toBe(true);
  // Its last digits, as on the counter.
  await number.fill('0004');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(row).toBeVisible();

  // The Demo sale's number from its receipt: hidden by default, and said so, with a way to show it.
  await number.fill('0005');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const empty = page.getByTestId('orders-empty');
  await expect(empty).toContainText('Demo and Sandbox sales are left out');
  await empty.getByRole('button', { name: 'Include Demo and Sandbox sales' }).click();
  await expect(table.locator('tr[data-reference="COU2-261127-0005"]')).toBeVisible();
  await expect(table.locator('tr[data-reference="COU2-261127-0005"] .practice-pill')).toHaveText('Demo');
  await both(page, 'orders-demo-shown-phone');

  // Its history gives one account of each state, the counter's: the sale's start claims no state of its own.
  await page.goto(`${hub.url}/dashboard/orders?number=${refs[1]}`);
  await page.getByRole('link', { name: `History of sale ${refs[1]}` }).click();
  const history = page.getByTestId('order-history');
  await expect(history.locator('tbody tr')).toHaveCount(3);
  await expect(history.locator('tbody tr').first()).toContainText('Sale started');
  await expect(history.locator('tbody tr').first().locator('.h-state')).toHaveText('—');
  await expect(history).not.toContainText('Waiting for the network');
  await expect(history).toContainText('Waiting for payment');
  await expect(history).toContainText('Paid');
  await both(page, 'order-history-phone');

  // Live: nothing wider than the phone, every amount whole.
  await page.goto(`${hub.url}/dashboard/live`);
  const item = page.locator(`.live-item[data-reference="${refs[1]}"]`);
  await expect(item).toBeVisible();
  await noSideways(page);
  await inside(item.locator('.live-amount'), page.getByTestId('live-list'));
  await inside(item.locator('.live-amount'), item);
  await both(page, 'live-phone');
  await page.context().close();
});
