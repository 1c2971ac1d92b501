// The programme through a Hub, and the seat warning, in real Chromium: a real Hub process and two
// browser-shell counters joined to it (Counter 1 and Counter 2, one branch). The manager sets the
// programme on the Hub; it appears on Counter 2's Sell screen by itself. Counter 1 sells F7 of the
// next show; on Counter 2, picking that show, typing F7 and pressing Enter warns "F7 was being paid
// for at Counter 1 at HH:MM" before anything is charged; Enter again does not sell, only "Sell F7 anyway" does. Screenshots light and dark.
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Programme } from '../../shared/programme';
import { lagosDate, lagosHm } from '../../shared/time';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';
import { Manager } from '../hub/helpers/dashboard-client';
import { ADMIN_TOKEN } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub } from '../hub/helpers/hub-process';
import { demoHubMerchantFile } from './hub-merchant';
import { ARTIFACTS, expect, test } from './fixtures';

// A Hub process starts in seconds on an idle machine but may take half a minute on a busy one (tsx
// compiles it, PGlite opens its folder): these tests get room for that, not sleeps.
test.describe.configure({ timeout: 180_000 });

/** A sale reaches the Hub only through the journal sync (helper A's pusher); the stub on this branch sends nothing. */
const MIN = 60_000;

async function call<T>(request: APIRequestContext, shell: ShellProcess, name: string, args: unknown = {}): Promise<T> {
  const res = await request.post(`${shell.origin}/api/call/${name}`, {
    headers: { 'x-counterpay-token': shell.token },
    data: { args },
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.code} ${body.error?.message}`);
  return body.value as T;
}

async function join_(request: APIRequestContext, shell: ShellProcess, hubUrl: string, name: string): Promise<string> {
  await call(request, shell, 'settings.setPin', { newPin: '2468' });
  const p = await call<{ settings: Record<string, unknown> }>(request, shell, 'settings.getProfile', {
    profile: 'demo',
  });
  await call(request, shell, 'settings.saveProfile', {
    profile: 'demo',
    settings: { ...p.settings, counterName: name },
  });
  const res = await fetch(`${hubUrl}/api/v1/admin/enroll-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ anyBranch: true }),
  });
  const { code } = (await res.json()) as { code: string };
  const v = await call<{ branch: string }>(request, shell, 'hub.enroll', { hubUrl, code });
  await call(request, shell, 'settings.lock');
  return v.branch;
}

function slot(offsetMin: number) {
  const t = Math.floor((Date.now() + offsetMin * MIN) / MIN) * MIN;
  return { date: lagosDate(t), time: lagosHm(t) };
}

async function shots(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

let hubDir: string | null = null;
let second: ShellProcess | null = null;
test.afterEach(async () => {
  await second?.stop();
  second = null;
  killAllHubs();
  if (hubDir) rmSync(hubDir, { recursive: true, force: true });
  hubDir = null;
});

test("the manager's programme reaches a counter's Sell screen through the Hub; a seat sold on Counter 1 is warned about on Counter 2", async ({
  page,
  shell,
  request,
}) => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-hub-'));
  // The Hub of the Demo merchant, with its merchant file: it can pass payments on (else the counter shows amber).
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

  // Counter 1 is the fixture's shell; Counter 2 a second one. Both join the Hub (one branch: the Demo merchant).
  second = await startShellProcess({ openShift: true });
  const branch = await join_(request, shell, hub.url, 'Counter 1');
  expect(await join_(request, second, hub.url, 'Counter 2')).toBe(branch);

  // Counter 2's Sell screen is open, with no programme yet; the manager sets one on the Hub.
  await page.goto(second.url);
  await expect(page.getByText('Demo · Counter 2')).toBeVisible();
  await expect(page.getByTestId('hub-pill')).toHaveText('Hub: connected');
  const next = slot(40);
  const later = slot(160);
  const programme: Programme = {
    films: [
      { name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' },
      { name: 'Inside Out 2', title: 'INSIDE OUT 2', rating: 'PG' },
    ],
    screens: ['Screen 1', 'Screen 2'],
    shows: [
      {
        film: 'Dune 2',
        screen: 'Screen 1',
        date: next.date,
        time: next.time,
        ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 }],
      },
      {
        film: 'Inside Out 2',
        screen: 'Screen 2',
        date: later.date,
        time: later.time,
        ticketTypes: [{ name: 'Adult', priceKobo: 350_000, bookingFeeKobo: 0 }],
      },
    ],
  };
  expect((await manager.put('/programme', { branch, programme })).status).toBe(200);
  const options = page.getByRole('option');
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toContainText('DUNE: PART TWO');
  await expect(options.nth(0)).toContainText(next.time);

  // Counter 1 sells F7 of the next show; it waits for the customer on its terminal.
  const shows = await call<{ shows: { id: number }[] }>(request, shell, 'programme.next');
  await call(request, shell, 'programme.charge', {
    showId: shows.shows[0]!.id,
    ticketType: 'Adult',
    seats: 'F7',
    sn: 'DEMO-POS-0001',
  });

  // Counter 2: the next show, seats F7 F8, Enter: the warning, and nothing charged yet.
  await expect(page.getByRole('combobox')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Seats', { exact: true })).toBeFocused();
  await page.keyboard.type('f7 f8');
  await page.keyboard.press('Enter');
  const warning = page.getByTestId('seat-warning');
  await expect(warning).toContainText(/F7 was being paid for at Counter 1 at \d{2}:\d{2}/);
  await expect(warning).not.toContainText('F8');
  await expect(warning).toContainText('sell them anyway with the button (Enter does not)');
  await expect(page.getByTestId('payment-state')).toHaveCount(0);
  // Charge looks as it acts: off, and saying why.
  await expect(page.getByRole('button', { name: /^Charge ₦/ })).toBeDisabled();
  await expect(page.locator('#charge-reason')).toHaveText(
    'F7 is already sold or being paid for at another counter: change the seats, or press "Sell F7 anyway".',
  );
  await shots(page, 'seat-warning');

  // A double-tap of Enter never sells a seat twice: only the button that names the seat does.
  await page.keyboard.press('Enter');
  await expect(warning).toBeVisible();
  await expect(page.getByTestId('payment-state')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sell F7 anyway' }).click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
});
