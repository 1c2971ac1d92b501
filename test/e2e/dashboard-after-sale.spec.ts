// After the sale on the dashboard (issue 39), in real Chromium against a real Hub process: a branch
// manager issues an approval code on Today (shown once in large type with when it lapses; a counter
// redeems it once), Today shows the card refunds owed, the refunds paid by tender and the open
// complaint cases, Refunds lists the card refund owed with its age and the cash one returned, Cases
// the open case with its age. Screenshots light and dark at 1280 and 390.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { formatNaira } from '../../shared/money';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { bearer, enroll, post } from '../hub/helpers/hub-harness';
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
let credential: string;

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-aftersale-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const token = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.post('/setup', { token, ...HO })).status).toBe(200);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  expect((await ho.post('/managers', { ...BM, role: 'branch', branch: 'B-IKEJA' })).status).toBe(200);
  credential = (await enroll(hub, 'Counter 1', 'B-IKEJA')).credential;
  const j = new CounterJournal(hub.url, credential);
  const t = Date.now() - 50 * 3_600_000;
  const sale = (seats: string) => ({
    filmName: 'DUNE-2',
    filmTitle: 'Dune: Part Two',
    showDate: '2026-12-20',
    showTime: '19:30',
    seats,
    tickets: seats.split(',').length,
    priceKobo: 450_000,
    bookingFeeKobo: 0,
  });
  const cancel = (reference: string, seats: string[], refundNo: string, tender: 'cash' | 'card', at: number) =>
    j.ev('order.cancelled', at, {
      reference,
      kind: 'cancel',
      seats,
      refunds: [{ refundNo, tender, amountKobo: 450_000 }],
      reason: 'customer-request',
      approvedBy: 'Admin PIN',
      approvedHow: 'pin',
    });
  await j.sync([
    j.ev('order.created', t, {
      reference: 'COU1-AS-0001',
      amountKobo: 900_000,
      sn: 'SN-1',
      cashier: 'Ada',
      sale: sale('F7,F8'),
    }),
    j.ev('order.status', t + 1000, { reference: 'COU1-AS-0001', status: 'paid', orderNo: '240020001' }),
    cancel('COU1-AS-0001', ['F8'], 'R0001', 'card', t + 5 * MIN),
    j.ev('order.created', Date.now() - 10 * MIN, {
      reference: 'COU1-AS-0002',
      amountKobo: 450_000,
      sn: 'SN-1',
      cashier: 'Ada',
      sale: sale('G1'),
    }),
    j.ev('order.status', Date.now() - 10 * MIN + 1000, { reference: 'COU1-AS-0002', status: 'paid' }),
    cancel('COU1-AS-0002', ['G1'], 'R0002', 'cash', Date.now() - 5 * MIN),
    j.ev('case.opened', t, {
      caseNo: 'COU1-C0001',
      openedBy: 'Ada',
      amountKobo: 900_000,
      last4: '4242',
      truth: 'not-paid',
    }),
  ]);
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

async function noSideways(page: Page): Promise<void> {
  const m = await page.evaluate(() => ({ sw: document.scrollingElement!.scrollWidth, w: innerWidth }));
  expect(m.sw, `page ${m.sw} px wide in a ${m.w} px window`).toBeLessThanOrEqual(m.w);
}

for (const size of SIZES) {
  test(`Today at ${size.width}: refunds and cases figures; an approval code shown once, redeemed once`, async ({
    browser,
  }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, BM, '/dashboard/today');
    const tiles = page.getByTestId('today-after-sale');
    await expect(tiles.getByTestId('tile-refunds-owed')).toContainText(formatNaira(450_000));
    await expect(tiles.getByTestId('tile-refunds-owed')).toContainText('1 not yet returned');
    await expect(tiles.getByTestId('tile-refunds-paid')).toContainText(`${formatNaira(450_000)} cash`);
    await expect(tiles.getByTestId('tile-cases')).toContainText('1 past 48 h');
    await page.getByTestId('approval-code-issue').click();
    const code = page.getByTestId('approval-code-value');
    await expect(code).toHaveText(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    await expect(page.getByTestId('approval-code-panel')).toContainText('valid until');
    await noSideways(page);
    await both(page, `after-sale-today-${size.name}`, page.getByTestId('approval-code-panel'));
    // The counter redeems it once.
    const typed = (await code.textContent())!;
    const redeem = () =>
      post(`${hub.url}/api/v1/approvals/redeem`, { code: typed, what: 'cancel COU1-AS-0001' }, bearer(credential));
    expect((await redeem()).json).toEqual({ by: BM.name });
    expect((await redeem()).status).toBe(403);
    await page.context().close();
  });

  test(`Refunds and Cases at ${size.width}: the card refund owed with its age, the cash one returned, the case flagged`, async ({
    browser,
  }) => {
    const page = await newPage(browser, size);
    await login(page, hub.url, BM, '/dashboard/refunds');
    await expect(page.getByTestId('refunds-owed-B-IKEJA')).toContainText('1 owed');
    const owed = page.getByTestId('refund-R0001');
    await expect(owed).toContainText('COU1-AS-0001');
    await expect(owed.getByTestId('refund-age')).toHaveText(/^owed for (2 days|\d+ h \d+ min)$/);
    await expect(page.getByTestId('refund-R0002')).toContainText('Cash from the drawer');
    await noSideways(page);
    await both(page, `after-sale-refunds-${size.name}`);
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: /^Cases/ })
      .click();
    const c = page.getByTestId('case-COU1-C0001');
    await expect(c).toHaveAttribute('data-age', 'flagged');
    await expect(c).toContainText('card ending 4242');
    await expect(c).toContainText('Not paid: nothing was taken by this merchant');
    await noSideways(page);
    await both(page, `after-sale-cases-${size.name}`);
    await page.context().close();
  });
}
