// A sale of a seat map show while the Hub is down, in real Chromium (issue 37): a counter of a real
// Hub process gets Screen 1's layout and the programme from it; the Hub is then killed. The sale is
// not held up: it goes to the terminal, and the payment panel says "Seats not checked across
// counters (Hub unreachable)"; the Orders screen's detail says so too, with its Seat hold line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Programme } from '../../shared/programme';
import { lagosDate, lagosHm } from '../../shared/time';
import { Manager } from '../hub/helpers/dashboard-client';
import { ADMIN_TOKEN } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub } from '../hub/helpers/hub-process';
import { demoHubMerchantFile } from './hub-merchant';
import { ARTIFACTS, callShell, expect, test } from './fixtures';
import { layoutJson } from './seat-layouts';

test.describe.configure({ timeout: 180_000 });

const MIN = 60_000;
const UNCHECKED = 'Seats not checked across counters (Hub unreachable)';

let hubDir: string | null = null;
test.afterEach(() => {
  killAllHubs();
  if (hubDir) rmSync(hubDir, { recursive: true, force: true });
  hubDir = null;
});

test('the Hub down: a seat map sale is sent, and the payment panel and the order say its seats were not checked across counters', async ({
  page,
  shell,
  request,
}) => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-hub-down-'));
  const hub = await spawnHub([
    '--data-dir',
    join(hubDir, 'data'),
    '--merchant-config',
    demoHubMerchantFile(shell.dataDir, hubDir),
    '--heartbeat-ms',
    '500',
  ]);
  const setup = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1];
  expect(setup, 'the Hub prints a setup link on its first start').toBeTruthy();
  const manager = new Manager(hub.url);
  const made = await manager.req('POST', '/api/v1/dashboard/setup', {
    token: setup,
    name: 'Head Office',
    password: 'manager password 1',
  });
  expect(made.status).toBe(200);
  manager.csrf = (made.json as { csrfToken: string }).csrfToken;

  // The counter joins the Hub.
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  const res = await fetch(`${hub.url}/api/v1/admin/enroll-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ anyBranch: true }),
  });
  const { code } = (await res.json()) as { code: string };
  const { branch } = await callShell<{ branch: string }>(request, shell, 'hub.enroll', { hubUrl: hub.url, code });
  await callShell(request, shell, 'settings.lock');

  // Head office: Screen 1's layout and the programme reach the counter.
  const up = await manager.post('/screens/layout', { branch, text: layoutJson(), fileName: 'screen-1.json' });
  expect(up.status, up.text).toBe(200);
  const t = Math.floor((Date.now() + 40 * MIN) / MIN) * MIN;
  const programme = {
    films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
    screens: ['Screen 1'],
    shows: [
      {
        film: 'Dune 2',
        screen: 'Screen 1',
        date: lagosDate(t),
        time: lagosHm(t),
        ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 }],
      },
    ],
  } as Programme;
  expect((await manager.put('/programme', { branch, programme })).status).toBe(200);

  await page.goto(shell.url);
  await expect(page.getByTestId('hub-pill')).toHaveText('Hub: connected');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('combobox').press('Enter');
  await expect(page.getByRole('button', { name: 'J13, free', exact: true })).toBeVisible();

  // The Hub goes down; the cashier sells J13.
  killAllHubs();
  const seats = page.getByLabel('Seats', { exact: true });
  await seats.fill('J13');
  await seats.press('Enter');
  const note = page.getByTestId('payment-seats-unchecked');
  await expect(note).toContainText(UNCHECKED);
  await expect(page.getByTestId('payment-state')).toHaveText(/Waiting for payment/);
  await page.screenshot({ path: join(ARTIFACTS, 'seat-map-hub-down-payment.png') });
  const no = (await page.getByTestId('out-order-no').textContent())!.trim();

  // The Orders screen's detail of the sale says it too.
  await page.keyboard.press('Alt+3');
  const row = page.getByRole('row').filter({ hasText: no });
  await row.getByRole('button', { name: `Open order ${no}` }).click();
  await expect(page.getByTestId('order-detail-title')).toContainText(no);
  await expect(page.getByTestId('order-seats-unchecked')).toContainText(UNCHECKED);
  await expect(page.locator('.order-detail')).toContainText(`${UNCHECKED}: the Hub cannot be reached`);
});
