// The dashboard's seat pages in real Chromium against a real Hub process: head office uploads a
// layout file with mistakes on the Screens page (each shown by row and seat, nothing changes), then
// a good one (the screen's seats and its map); a counter of the branch holds two seats through the
// Hub's counter API; the Shows page shows the show's occupancy (sold / held / free) and its
// read-only map with those seats held. Laptop and phone, light and dark
// (test/artifacts/screens/dashboard-seat-*.png).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HUB_SEATS_HOLD_PATH } from '../../shared/hub-seats-contract';
import { lagosDate, lagosHm } from '../../shared/time';
import { Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage } from './dashboard-pages';
import { expect, test } from './fixtures';
import { layoutJson } from './seat-layouts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const BRANCH = 'B-IKEJA';
const BAD_LAYOUT = JSON.stringify({
  format: 'counterpay-seat-layout/1',
  screen: 'Screen 1',
  rows: [
    { row: 'A', seats: '1-6 _ 7-12' },
    { row: 'B', seats: '1-6 _ 7w:vp 8-12' },
  ],
});

let hub: HubProcess;
let hubDir: string;
let credential: string;
const t = Math.floor((Date.now() + 60 * 60_000) / 60_000) * 60_000;
const show = { date: lagosDate(t), time: lagosHm(t) };

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-dash-seats-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const setup = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.req('POST', '/api/v1/dashboard/setup', { token: setup, ...HO })).status).toBe(200);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  credential = (await enroll(hub, 'Counter 1', BRANCH)).credential;
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${show.date},${show.time},Adult,4500,200`,
    '',
  ].join('\r\n');
  const imported = await ho.post('/programme/import', { branch: BRANCH, csv, fileName: 'week.csv' });
  expect(imported.json).toMatchObject({ imported: true });
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

test('Screens: a layout file with a mistake is refused by row and seat; a good one shows its seats and map', async ({
  browser,
}) => {
  const page = await newPage(browser);
  await login(page, hub.url, HO, `/dashboard/screens?branch=${BRANCH}`);
  await expect(page.getByRole('heading', { name: 'Screens', level: 1 })).toBeVisible();
  const card = page.locator('[data-screen="Screen 1"]');
  await expect(card.getByTestId('screen-capacity')).toContainText('No layout');

  await page
    .getByTestId('layout-file')
    .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(BAD_LAYOUT) });
  await page.getByRole('button', { name: 'Upload bad.json' }).click();
  await expect(page.getByTestId('layout-message')).toContainText('Nothing changed');
  const errors = page.getByTestId('layout-errors').locator('tbody tr');
  await expect(errors.first()).toContainText('B');
  await expect(errors.first()).toContainText('7w:vp');
  await expect(card.getByTestId('screen-capacity')).toContainText('No layout');
  await both(page, 'seat-screens-refused');

  await page
    .getByTestId('layout-file')
    .setInputFiles({ name: 'screen-1.json', mimeType: 'application/json', buffer: Buffer.from(layoutJson()) });
  await page.getByRole('button', { name: 'Upload screen-1.json' }).click();
  await expect(page.getByTestId('layout-message')).toContainText('Screen 1: 336 seats');
  await expect(card.getByTestId('screen-capacity')).toContainText('336 seats in 13 rows');
  await card.getByRole('button', { name: /Seat map/ }).click();
  await expect(card.getByTestId('seat-map-read')).toBeVisible();
  await expect(card.locator('[data-seat="M13"]')).toHaveAttribute('data-state', 'blocked');
  await both(page, 'seat-screens-laptop');
  await page.context().close();
});

test('Shows: occupancy per show and its read-only map with the seats a counter holds, laptop and phone', async ({
  browser,
}) => {
  const res = await fetch(hub.url + HUB_SEATS_HOLD_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body: JSON.stringify({
      orderKey: 'COU1-TEST-0001',
      show: { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', ...show, screen: 'Screen 1' },
      seats: ['J12', 'J13'],
      practice: false,
      holdMs: 10 * 60_000,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { kind: string }).kind).toBe('held');

  for (const [name, size] of [
    ['laptop', { width: 1280, height: 860 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const page = await newPage(browser, size);
    await login(page, hub.url, HO, `/dashboard/shows?branch=${BRANCH}&day=${show.date}`);
    const occ = page.getByTestId('show-occupancy');
    await expect(occ).toContainText('Seats: 0 sold · 2 held · 334 free of 336 seats');
    await occ.getByRole('button', { name: /Seat map/ }).click();
    const map = page.getByTestId('seat-map-read');
    await expect(map).toBeVisible();
    await expect(map.locator('[data-seat="J13"]')).toHaveAttribute('data-state', 'held');
    await expect(map.locator('[data-seat="J14"]')).toHaveAttribute('data-state', 'free');
    await expect(map.getByRole('img')).toHaveAttribute(
      'aria-label',
      'Seat map of Screen 1: 0 sold · 2 held · 334 free of 336 seats',
    );
    // Nothing sticks out sideways on a phone: the map shrinks its seats to the width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await both(page, `seat-shows-${name}`);
    if (name === 'phone') {
      await page.goto(`${hub.url}/dashboard/screens?branch=${BRANCH}`);
      await expect(page.locator('[data-screen="Screen 1"]').getByTestId('screen-capacity')).toContainText('336 seats');
      await both(page, 'seat-screens-phone');
    }
    await page.context().close();
  }
});

test("Shows: head office releases a counter's held seats from the seat map, confirmed first; the count follows", async ({
  browser,
}) => {
  const page = await newPage(browser, { width: 1280, height: 860 });
  await login(page, hub.url, HO, `/dashboard/shows?branch=${BRANCH}&day=${show.date}`);
  const occ = page.getByTestId('show-occupancy');
  await expect(occ).toContainText('2 held');
  await occ.getByRole('button', { name: /Seat map/ }).click();
  const release = page.getByTestId('release-holds');
  await release.getByRole('button', { name: "Release Counter 1's held seats (2 here)…" }).click();
  const confirm = release.getByRole('group', { name: 'Release held seats?' });
  await expect(confirm).toContainText('Release every seat Counter 1 holds (in any show)?');
  await both(page, 'seat-release-confirm');
  await confirm.getByRole('button', { name: 'Release', exact: true }).click();
  await expect(release).toContainText('2 held seats of Counter 1 (every show) released.');
  await expect(page.getByTestId('seat-map-read').locator('[data-seat="J13"]')).toHaveAttribute('data-state', 'free');
  await expect(occ).toContainText('Seats: 0 sold · 0 held · 336 free of 336 seats');
  await page.context().close();
});
