// The Programme and Shows screens of the manager's dashboard in real Chromium against a real Hub
// process, with counters of two branches enrolled on it and syncing their journals through the real
// sync API. Head office imports a programme file with mistakes (each shown by line and column, nothing
// changes), then a good one (version 1, which the branch's counter can fetch); a counter sells for a
// show and the Shows screen shows its fill by itself; a branch manager cannot see or set another
// branch's programme, by the screens, by the address or by the API. Screenshots light and dark of
// both screens, desktop and phone (test/artifacts/screens/dashboard-programme-*.png, dashboard-shows-*.png).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { lagosDate } from '../../shared/time';
import { HUB_PROGRAMME_PATH } from '../../shared/hub-programme-contract';
import { formatNaira } from '../../shared/money';
import { PROGRAMME_COLUMNS } from '../../shared/programme-csv';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage, tabTo } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const BM = { name: 'Ikeja Manager', password: 'ikeja password 123' };
const IKEJA = 'B-IKEJA';
const LEKKI = 'B-LEKKI';

let hub: HubProcess;
let hubDir: string;
let day: string;
const journals: Record<string, CounterJournal> = {};
const credentials: Record<string, string> = {};

const header = PROGRAMME_COLUMNS.join(',');
/** Two mistakes (a price that is not naira on line 3, a time past 23:59 on line 4) among good rows. */
const badFile = () =>
  [
    header,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Child,three thousand,200`,
    `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${day},25:00,Adult,3500,`,
    '',
  ].join('\r\n');
const goodFile = () =>
  [
    header,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${day},19:30,Child,3000,200`,
    `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${day},21:45,Adult,3500,`,
    `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${day},21:45,Child,2500,`,
    `Gangs of Lagos,GANGS OF LAGOS,18,Screen 1,${day},22:30,Adult,5000,250`,
    '',
  ].join('\r\n');

/** What a counter gets when it fetches its branch's programme from the Hub (its own credential). */
async function counterProgramme(
  counter: string,
): Promise<{ branch: string; version: number; programme: { shows: unknown[] } | null }> {
  const res = await fetch(hub.url + HUB_PROGRAMME_PATH, {
    headers: { authorization: `Bearer ${credentials[counter]}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { branch: string; version: number; programme: { shows: unknown[] } | null };
}

function sale(
  j: CounterJournal,
  ref: string,
  at: number,
  o: { film: string; title: string; time: string; seats: string; priceKobo: number; feeKobo: number },
) {
  const tickets = o.seats.split(',').length;
  return j.ev('order.created', at, {
    reference: ref,
    amountKobo: tickets * (o.priceKobo + o.feeKobo),
    sn: 'SN-1',
    cashier: 'Ada',
    profile: 'production',
    sale: {
      filmName: o.film,
      filmTitle: o.title,
      showDate: day,
      showTime: o.time,
      seats: o.seats,
      tickets,
      priceKobo: o.priceKobo,
      bookingFeeKobo: o.feeKobo,
    },
  });
}

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-dash-prog-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  const setup = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;
  const ho = new Manager(hub.url);
  expect((await ho.req('POST', '/api/v1/dashboard/setup', { token: setup, ...HO })).status).toBe(200);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  expect((await ho.post('/managers', { ...BM, role: 'branch', branch: IKEJA })).status).toBe(200);
  day = lagosDate(Date.now());
  for (const [name, branch] of [
    ['Counter 1', IKEJA],
    ['Counter 3', LEKKI],
  ] as const) {
    const c = await enroll(hub, name, branch);
    credentials[name] = c.credential;
    journals[name] = new CounterJournal(hub.url, c.credential);
  }
  // A sale at Lekki, for a Lekki show: Ikeja's manager must never see it.
  const j3 = journals['Counter 3']!;
  await j3.sync([
    sale(j3, 'L-1', Date.now() - 60_000, {
      film: 'Lekki Premiere',
      title: 'LEKKI PREMIERE',
      time: '20:00',
      seats: 'K1',
      priceKobo: 500_000,
      feeKobo: 0,
    }),
    j3.ev('order.status', Date.now() - 50_000, { reference: 'L-1', status: 'paid', payNo: 'PAY-L-1' }),
  ]);
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

test('head office imports a programme: a file with mistakes shows them by line and column and changes nothing; a good one is version 1 for the counters', async ({
  page,
}) => {
  await login(page, hub.url, HO);
  await page.keyboard.press('Alt+8');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Programme');
  await expect(page.getByTestId('pick-branch')).toContainText('Pick a branch at the top');
  await page.getByLabel('Branch in view').selectOption(IKEJA);
  await expect(page).toHaveURL(/\/dashboard\/programme\?branch=B-IKEJA$/);
  await expect(page.getByTestId('programme-version')).toHaveText(
    'No programme set on the Hub yet: the counters sell from their own copy.',
  );

  // The template: the columns the import reads, with example rows dated today.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('programme-template').click()]);
  const template = readFileSync((await dl.path())!, 'utf8').split('\r\n');
  expect(template[0]).toBe(header);
  expect(template[1]).toContain(`,${day},`);

  // A file with two mistakes: each by line and column, nothing kept, the counters keep what they had.
  await page
    .getByTestId('programme-file')
    .setInputFiles({ name: 'week-draft.csv', mimeType: 'text/csv', buffer: Buffer.from(badFile()) });
  const importButton = page.getByRole('button', { name: 'Import week-draft.csv' });
  await tabTo(page, importButton);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-message')).toHaveText(
    /^Nothing changed: 2 problems in week-draft\.csv \(3 rows\)\. Fix them in the file and import it again; the counters keep version 0\.$/,
  );
  const errors = page.getByTestId('import-errors').locator('tbody tr');
  await expect(errors).toHaveCount(2);
  await expect(errors.nth(0)).toHaveAttribute('data-line', '3');
  await expect(errors.nth(0)).toHaveAttribute('data-column', 'price');
  await expect(errors.nth(0).locator('td').nth(0)).toHaveText('3');
  await expect(errors.nth(1)).toHaveAttribute('data-line', '4');
  await expect(errors.nth(1)).toHaveAttribute('data-column', 'time');
  await expect(errors.nth(1)).toContainText('HH:mm');
  await expect(page.getByTestId('import-outcome')).toBeFocused();
  await both(page, 'programme-errors');
  await expect(page.getByTestId('programme-version')).toContainText('No programme set');
  expect((await counterProgramme('Counter 1')).version).toBe(0);

  // The corrected file: version 1, sent to the branch's counters.
  await page
    .getByTestId('programme-file')
    .setInputFiles({ name: 'week.csv', mimeType: 'text/csv', buffer: Buffer.from(goodFile()) });
  await page.getByRole('button', { name: 'Import week.csv' }).click();
  await expect(page.getByTestId('import-message')).toHaveText(
    "Version 1 sent to the branch's counters: week.csv, 5 rows (3 films, 3 shows).",
  );
  await expect(page.getByTestId('import-errors')).toHaveCount(0);
  await expect(page.getByTestId('programme-version')).toHaveText(
    /^Version 1, set \d\d \w{3}, \d\d:\d\d by Funmi Head$/,
  );
  await expect(page.getByTestId('programme-films').locator('tbody tr')).toHaveCount(3);
  const today = page.locator(`details.programme-day[data-day="${day}"]`);
  await expect(today).toHaveAttribute('open', '');
  const dune = today.locator('tr[data-film="Dune 2"]');
  await expect(dune).toContainText('19:30');
  await expect(dune).toContainText('DUNE: PART TWO');
  await expect(dune).toContainText('Adult ₦4,500.00 + ₦200.00 fee');
  await expect(dune).toContainText('Child ₦3,000.00 + ₦200.00 fee');
  await expect(today.locator('tr[data-film="Inside Out 2"]')).toContainText('Adult ₦3,500.00 (no fee)');
  await expect(today.locator('tbody tr').first()).toHaveAttribute('data-time', '19:30');
  await both(page, 'programme');

  // The counters of that branch get version 1; the other branch's counter has none.
  const c1 = await counterProgramme('Counter 1');
  expect(c1).toMatchObject({ branch: IKEJA, version: 1 });
  expect(c1.programme!.shows).toHaveLength(3);
  expect((await counterProgramme('Counter 3')).version).toBe(0);

  // After a reload the screen reads the same from the Hub.
  await page.reload();
  await expect(page.getByTestId('programme-version')).toHaveText(/^Version 1, set .* by Funmi Head$/);
});

test('a counter sells for a show: the Shows screen shows its fill by itself (seats, takings in ₦, a bar per show)', async ({
  page,
  browser,
}) => {
  await login(page, hub.url, HO, `/dashboard/shows?branch=${IKEJA}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Shows');
  const list = page.getByTestId('show-list');
  await expect(list.locator('li')).toHaveCount(3);
  await expect(list.locator('li').nth(0)).toHaveAttribute('data-time', '19:30');
  for (const li of await list.locator('li').all())
    await expect(li.getByTestId('show-numbers')).toHaveText('No seats sold · ₦0.00');
  await expect(list).not.toContainText('Lekki');

  // Counter 1 sells two Adult seats of the 19:30 Dune 2, paid, and one Inside Out 2 seat still being paid for.
  const j = journals['Counter 1']!;
  const t = Date.now();
  await j.sync([
    sale(j, 'S-1', t, {
      film: 'Dune 2',
      title: 'DUNE: PART TWO',
      time: '19:30',
      seats: 'F7,F8',
      priceKobo: 450_000,
      feeKobo: 20_000,
    }),
    j.ev('order.status', t + 500, { reference: 'S-1', status: 'waiting', orderNo: '240010001' }),
    j.ev('order.status', t + 30_000, { reference: 'S-1', status: 'paid', payNo: 'PAY-S-1' }),
    sale(j, 'S-2', t + 40_000, {
      film: 'Inside Out 2',
      title: 'INSIDE OUT 2',
      time: '21:45',
      seats: 'A1',
      priceKobo: 350_000,
      feeKobo: 0,
    }),
    j.ev('order.status', t + 41_000, { reference: 'S-2', status: 'waiting', orderNo: '240010002' }),
  ]);
  // No reload: the live feed tells the screen.
  const dune = list.locator('li[data-film="Dune 2"]');
  await expect(dune.getByTestId('show-numbers')).toHaveText(`2 seats sold in 1 sale · ${formatNaira(940_000)}`);
  await expect(dune).toContainText('Screen 1');
  await expect(list.locator('li[data-film="Inside Out 2"]').getByTestId('show-numbers')).toHaveText(
    'No seats sold · ₦0.00 · 1 being paid for',
  );
  await expect(page.getByTestId('shows-totals')).toContainText(formatNaira(940_000));
  // The fullest show fills its bar; the one with nothing sold has none.
  const barWidth = (li: Locator, part: string) =>
    li.locator(`.fill-bar .${part}`).evaluate((el) => (el as HTMLElement).getBoundingClientRect().width);
  const full = await dune.locator('.fill-bar').evaluate((el) => el.getBoundingClientRect().width);
  expect(await barWidth(dune, 'fill-sold')).toBeGreaterThan(full * 0.95);
  expect(await barWidth(list.locator('li[data-film="Gangs of Lagos"]'), 'fill-sold')).toBe(0);
  const io = list.locator('li[data-film="Inside Out 2"]');
  expect(await barWidth(io, 'fill-held')).toBeGreaterThan(full * 0.4);
  expect(await barWidth(io, 'fill-held')).toBeLessThan(full * 0.6);
  await both(page, 'shows');

  // Yesterday had no shows: the screen says so; the day picker brings today back.
  await page.getByRole('button', { name: 'Previous day' }).click();
  await expect(page.getByTestId('shows-empty')).toContainText('No shows on this day');
  await page.getByRole('button', { name: 'Today' }).click();
  await expect(list.locator('li')).toHaveCount(3);

  // A phone: nothing wider than the screen.
  const phone = await newPage(browser, { width: 390, height: 844 });
  await login(phone, hub.url, BM, '/dashboard/shows');
  await expect(
    phone.getByTestId('show-list').locator('li[data-film="Dune 2"]').getByTestId('show-numbers'),
  ).toContainText('2 seats sold');
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await both(phone, 'shows-phone');
  await phone.goto(`${hub.url}/dashboard/programme`);
  await expect(phone.getByTestId('programme-version')).toContainText('Version 1');
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await both(phone, 'programme-phone');
  await phone.context().close();
});

test("a branch manager sees and sets their own branch's programme only: not by the screens, the address or the API", async ({
  page,
}) => {
  await login(page, hub.url, BM);
  await page.keyboard.press('Alt+8');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Programme branch ${IKEJA}`);
  await expect(page.getByLabel('Branch in view')).toHaveCount(0);
  await expect(page.getByTestId('programme-version')).toHaveText(/^Version 1, .* by Funmi Head$/);

  // Another branch in the address: still their own.
  await page.goto(`${hub.url}/dashboard/programme?branch=${LEKKI}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Programme branch ${IKEJA}`);
  await expect(page.getByTestId('programme-version')).toContainText('Version 1');
  await page.goto(`${hub.url}/dashboard/shows?branch=${LEKKI}`);
  await expect(page.getByTestId('show-list').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('show-list')).not.toContainText('Lekki');

  // The API refuses another branch, read or write; Lekki's programme is untouched.
  expect(await page.evaluate(async (b) => (await fetch(`/api/v1/dashboard/programme?branch=${b}`)).status, LEKKI)).toBe(
    403,
  );
  const bm = new Manager(hub.url);
  expect((await bm.login(BM.name, BM.password)).status).toBe(200);
  const imported = await bm.post('/programme/import', { branch: LEKKI, csv: goodFile(), fileName: 'x.csv' });
  expect(imported.status).toBe(403);
  expect(String(imported.json.message)).toContain('their own branch');
  const put = await bm.put('/programme', { branch: LEKKI, programme: { films: [], screens: [], shows: [] } });
  expect(put.status).toBe(403);
  expect((await counterProgramme('Counter 3')).version).toBe(0);

  // Their own branch they may set, from the screen: version 2.
  await page.goto(`${hub.url}/dashboard/programme`);
  await page
    .getByTestId('programme-file')
    .setInputFiles({ name: 'ikeja.csv', mimeType: 'text/csv', buffer: Buffer.from(goodFile()) });
  await page.getByRole('button', { name: 'Import ikeja.csv' }).click();
  await expect(page.getByTestId('import-message')).toContainText("Version 2 sent to the branch's counters");
  await expect(page.getByTestId('programme-version')).toHaveText(/^Version 2, .* by Ikeja Manager$/);
  expect((await counterProgramme('Counter 1')).version).toBe(2);
  // And the keyboard's way between the two new screens.
  await page.keyboard.press('Alt+7');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Shows');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.keyboard.press('Alt+8');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Programme');
});
