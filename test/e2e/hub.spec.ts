// Joining the counter to a CounterPay Hub through the whole stack in real Chromium: the Hub runs as
// a real process (as an operator starts it), the code comes from its admin API, and the admin types
// the address and the code in Settings → Hub with the keyboard only. The status bar's pill follows:
// connected, then offline once the Hub is stopped. Screenshots, light and dark.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN_TOKEN } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { demoHubMerchantFile } from './hub-merchant';
import { ARTIFACTS, expect, test } from './fixtures';

// A Hub process starts in seconds on an idle machine but may take half a minute on a busy one (tsx
// compiles it, PGlite opens its folder): these tests get room for that, not sleeps.
test.describe.configure({ timeout: 180_000 });

async function both(page: Page, name: string, part?: ReturnType<Page['locator']>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const path = join(ARTIFACTS, `${name}-${scheme}.png`);
    if (part) await part.screenshot({ path });
    else await page.screenshot({ path });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function issueCode(hub: HubProcess): Promise<string> {
  const res = await fetch(`${hub.url}/api/v1/admin/enroll-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ anyBranch: true }),
  });
  const body = (await res.json()) as { code?: string };
  if (!res.ok || !body.code) throw new Error(`the Hub gave no code: ${JSON.stringify(body)}`);
  return body.code;
}

async function post(hub: HubProcess, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${hub.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
}

let hubDir: string | null = null;
test.afterEach(() => {
  killAllHubs();
  if (hubDir) rmSync(hubDir, { recursive: true, force: true });
  hubDir = null;
});

test('join a Hub from Settings with the keyboard; the status bar says connected, then offline when the Hub stops', async ({
  page,
  shell,
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
  const code = await issueCode(hub);

  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();
  const pill = page.getByTestId('hub-pill');
  await expect(pill).toHaveText('Hub: not set up');
  await expect(pill).toHaveAttribute('title', /Settings → Hub/);

  // Settings by its shortcut; the PIN chosen with the keyboard.
  await page.keyboard.press('Alt+5');
  await page.getByLabel('New admin PIN (4 to 12 digits)').focus();
  await page.keyboard.type('2468');
  await page.keyboard.press('Tab');
  await page.keyboard.type('2468');
  await page.keyboard.press('Enter');

  const panel = page.getByRole('region', { name: 'Hub' });
  await expect(panel.getByRole('heading', { name: 'Join a Hub' })).toBeVisible();
  const address = panel.getByLabel('Hub address');
  await address.focus();
  // A wrong code first: the Hub's refusal lands next to the code.
  await page.keyboard.type(hub.url);
  await page.keyboard.press('Tab');
  await page.keyboard.type('ABCD-EFGH-JKLM');
  await page.keyboard.press('Enter');
  await expect(panel.getByText('Unknown, already used or expired: ask the manager for a new code')).toBeVisible();
  await expect(panel.getByLabel('Enrollment code')).toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByTestId('hub-message')).toContainText('Ask the manager for a new code');
  await panel.scrollIntoViewIfNeeded();
  await both(page, 'hub-join-refused', panel);

  // Another branch already has a live "Counter 1" (same code, COU1, so the same sale numbers): the
  // Hub's refusal lands next to this counter's name, with a name to use or the counter to revoke.
  const other = await post(hub, '/api/v1/enroll', {
    code: await issueCode(hub),
    counterName: 'Counter 1',
    branch: 'B-IKEJA',
    appVersion: '0.1.0',
  });
  await panel.getByLabel('Enrollment code').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('hub-name-error')).toHaveText(
    /^The code COU1 is taken by "Counter 1" \(branch B-IKEJA\): choose a name that gives another code, e\.g\. "Counter \d+" \(code COU\d+\), or revoke the old counter on the Counters screen first\.$/,
  );
  await expect(panel.getByTestId('hub-message')).toContainText(
    'change its name in Settings → Edit Demo → Counter name',
  );
  await expect(panel.getByText('Unknown, already used or expired: ask the manager for a new code')).toBeHidden();
  await panel.scrollIntoViewIfNeeded();
  await both(page, 'hub-join-name-taken', panel);
  // The manager revokes the other branch's counter: the same code (not spent by the refusal) joins.
  await post(hub, `/api/v1/admin/counters/${String(other.counterId)}/revoke`, {});

  // The real code, typed as read aloud: lower case, no dashes.
  await panel.getByLabel('Enrollment code').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(code.toLowerCase().replace(/-/g, ''));
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('hub-name-error')).toBeHidden();
  await expect(panel.getByTestId('hub-message')).toHaveText(`Joined the Hub at ${hub.url} as Counter 1.`);
  await expect(panel.getByTestId('hub-enrolled')).toContainText(`Enrolled as Counter 1 (branch`);
  await expect(panel.getByTestId('hub-enrolled')).toContainText(`on ${hub.url} since`);
  // A loopback address over plain http is allowed, and says it is for a lab.
  await expect(panel.getByText(/Plain http:\/\/ is for a lab/)).toBeVisible();

  await expect(pill).toHaveText('Hub: connected');
  await expect(panel.getByTestId('hub-sync')).toContainText('relay connected');
  await panel.scrollIntoViewIfNeeded();
  await both(page, 'hub-joined', panel);
  await both(page, 'hub-statusbar-connected', page.getByRole('contentinfo', { name: 'Status' }));

  // The Hub stops: the relay's heartbeats stop, the counter asks the Hub and gets no answer, and the
  // pill says offline with what waits (nobody presses anything).
  await hub.kill();
  await expect(pill).toHaveText(/^Hub: offline \(\d+ to sync\)$/);
  await expect(pill).toHaveAttribute('title', /Sales go on/);
  await expect(panel.getByTestId('hub-detail')).toContainText('cannot be reached');
  await both(page, 'hub-offline', panel);
  await both(page, 'hub-statusbar-offline', page.getByRole('contentinfo', { name: 'Status' }));

  // Leaving is confirmed, and the form comes back.
  await panel.getByRole('button', { name: 'Leave this Hub…' }).focus();
  await page.keyboard.press('Enter');
  const confirm = panel.getByRole('group', { name: /^Leave the Hub at/ });
  await expect(confirm).toContainText('Events not yet sent stay on this counter');
  await both(page, 'hub-leave-confirm', panel);
  await expect(confirm.getByRole('button', { name: 'Leave this Hub' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pill).toHaveText('Hub: not set up');
  await expect(panel.getByRole('heading', { name: 'Join a Hub' })).toBeVisible();
});
