// Needs attention says when one provider order number is named by counters of two branches (issues
// 26, 36): a rogue counter of another branch named a Ikeja counter's provider order in a sale of its
// own (the payment notification goes to Ikeja alone: no "claimed twice"), and tried to claim a
// Ikeja top-up reference as an orderNo (refused). In real Chromium against a real Hub process: head
// office sees both counters with their branches and the refused claim; the Ikeja branch manager sees
// the line without the other branch's counter name. Screenshots light and dark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const BM = { name: 'Ikeja Manager', password: 'ikeja password 123' };
let hub: HubProcess;
let hubDir: string;

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-claims-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const token = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.post('/setup', { token, ...HO })).status).toBe(200);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  expect((await ho.post('/managers', { ...BM, role: 'branch', branch: 'B-IKEJA' })).status).toBe(200);
  const victim = new CounterJournal(hub.url, (await enroll(hub, 'Ikeja 1', 'B-IKEJA')).credential);
  const rogue = new CounterJournal(hub.url, (await enroll(hub, 'Lekki 7', 'B-LEKKI')).credential);
  const now = Date.now();
  await rogue.sync([
    rogue.ev('order.created', now - 60_000, {
      reference: 'LEK7-251127-0001',
      amountKobo: 100_000,
      sn: 'SN-9',
      orderNo: '240019999',
      profile: 'production',
    }),
    rogue.ev('order.created', now - 59_000, {
      reference: 'LEK7-251127-0002',
      amountKobo: 100_000,
      sn: 'SN-9',
      orderNo: 'IKE1-T251127-0001',
      profile: 'production',
    }),
  ]);
  await victim.sync([
    victim.ev('order.created', now - 50_000, {
      reference: 'IKE1-251127-0001',
      amountKobo: 400_000,
      sn: 'SN-1',
      cashier: 'Ada',
      profile: 'production',
    }),
    victim.ev('order.status', now - 49_000, { reference: 'IKE1-251127-0001', status: 'waiting', orderNo: '240019999' }),
  ]);
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

test("head office sees both counters of one provider order and the refused claim; the branch manager is not told the other branch's counter name", async ({
  browser,
}) => {
  const page = await newPage(browser, { width: 1280, height: 860 });
  await login(page, hub.url, HO, '/dashboard/attention');
  const list = page.getByTestId('attention-list');
  const lines = list.locator('li[data-kind="order-named-in-two-branches"]');
  await expect(lines).toHaveCount(2);
  await expect(list.locator('li[data-kind="order-claimed-twice"]')).toHaveCount(0);
  await expect(lines.filter({ hasText: 'named by Ikeja 1 and by Lekki 7 (B-LEKKI)' })).toHaveCount(1);
  await expect(lines.first().locator('.pill')).toHaveText('Order named in two branches');
  await expect(lines.first().locator('.attention-todo')).toContainText('Search Orders for 240019999');
  const refused = list.locator('li[data-kind="claim-refused"]');
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText(
    'Lekki 7 named IKE1-T251127-0001, a reference made by Ikeja 1 (B-IKEJA): refused',
  );
  await expect(refused.locator('.pill')).toHaveText('Claim refused');
  await both(page, 'attention-named-in-two-branches-head-office');
  await page.context().close();

  const bm = await newPage(browser, { width: 390, height: 844 });
  await login(bm, hub.url, BM, '/dashboard/attention');
  const mine = bm.getByTestId('attention-list').locator('li[data-kind="order-named-in-two-branches"]');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Provider order 240019999 is named by Ikeja 1 and by a counter of another branch');
  await expect(bm.getByTestId('attention-list')).not.toContainText('Lekki');
  await both(bm, 'attention-named-in-two-branches-branch-phone');
  await bm.context().close();
});
