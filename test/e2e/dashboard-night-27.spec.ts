// The manager on a phone (390×844) and a laptop, second round (issue 27): the Counters screen and
// its branch names agree about who has joined. A real Hub process; counters enroll and sync their
// journals through the real APIs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, newPage } from './dashboard-pages';
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

test('first manager from the setup link; Counters: a counter that joins while the page is open is named under Branch names too', async ({ browser }) => {
  const page = await newPage(browser, PHONE);
  await page.goto(`${hub.url}/dashboard/#setup=${setupToken}`);
  await page.getByLabel('Your manager name').fill(HO.name);
  await page.getByLabel('Password (at least 10 characters)').fill(HO.password);
  await page.getByLabel('Same password again').fill(HO.password);
  await page.getByRole('button', { name: /^Create/ }).click();
  await expect(page.getByTestId('account-button')).toContainText(HO.name);

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
