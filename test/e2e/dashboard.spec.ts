// The manager's dashboard in real Chromium against a real Hub process (PGlite in its data folder, as
// an operator starts it), with counters of two branches enrolled through the Hub and syncing their
// journals through the real sync API as the counter's pusher does. First login from the printed setup
// link, login throttling, role separation (a branch manager by the UI and by editing URLs), every
// screen, the live feed following a sync, CSV exports line by line, keyboard-only use, screenshots
// light and dark on a desktop and a phone (test/artifacts/screens/dashboard-*.png).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { OrderState } from '../../shared/orders';
import { ORDERS_CSV_COLUMNS, SHIFTS_CSV_COLUMNS } from '../../shared/hub-dashboard-contract';
import { addDays, lagosDate, lagosDayStart } from '../../shared/time';
import { formatNaira } from '../../shared/money';
import { CounterJournal, Manager } from '../hub/helpers/dashboard-client';
import { enroll } from '../hub/helpers/hub-harness';
import { killAllHubs, spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { both, login, newPage, tabTo } from './dashboard-pages';
import { expect, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const HO = { name: 'Funmi Head', password: 'head office password 1' };
const BM = { name: 'Ikeja Manager', password: 'ikeja password 123' };
const LOCKED = { name: 'Forgetful', password: 'forgetful password 1' };
const IKEJA = 'B-IKEJA';
const LEKKI = 'B-LEKKI';
const H = 3_600_000;
const MIN = 60_000;

let hub: HubProcess;
let hubDir: string;
let setupToken: string;
let day: string;
const journals: Record<string, CounterJournal> = {};
const counterIds: Record<string, string> = {};

/** Everything seeded, to compute what the screens must show. */
interface Seeded {
  ref: string;
  counter: string;
  branch: string;
  cashier: string;
  at: number;
  kobo: number;
  state: string;
  film?: string;
  seats?: string;
  orderNo?: string;
  payNo?: string;
  practice?: boolean;
}
const seeded: Seeded[] = [];
const lastWeek: Seeded[] = [];

const stamp = (ms: number) => new Date(ms + H).toISOString().slice(0, 19).replace('T', ' ');
const naira = (kobo: number) => `${Math.floor(kobo / 100)}.${String(kobo % 100).padStart(2, '0')}`;

function sale(film: string, seats: string) {
  return {
    filmName: film,
    filmTitle: `${film} (2D)`,
    showDate: day,
    showTime: '19:30',
    seats,
    tickets: seats.split(',').length,
    priceKobo: 100_000,
    bookingFeeKobo: 0,
  };
}

function orderEvents(j: CounterJournal, o: Seeded) {
  const ev = [
    j.ev('order.created', o.at, {
      reference: o.ref,
      amountKobo: o.kobo,
      sn: 'SN-1',
      cashier: o.cashier,
      profile: o.practice ? 'demo' : 'production',
      ...(o.film ? { sale: sale(o.film, o.seats ?? 'A1') } : {}),
    }),
    j.ev('order.status', o.at + 2000, {
      reference: o.ref,
      status: 'waiting',
      ...(o.orderNo ? { orderNo: o.orderNo } : {}),
    }),
  ];
  if (o.state !== 'waiting')
    ev.push(
      j.ev('order.status', o.at + 40_000, {
        reference: o.ref,
        status: o.state as OrderState,
        ...(o.payNo ? { payNo: o.payNo } : {}),
      }),
    );
  return ev;
}

async function download(page: Page, link: Locator): Promise<string[]> {
  const [dl] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const text = readFileSync((await dl.path())!, 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(0, -2).split('\r\n');
}

test.beforeAll(async () => {
  hubDir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-dash-'));
  hub = await spawnHub(['--data-dir', hubDir, '--heartbeat-ms', '500', '--closing-time', '23:30']);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  setupToken = /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!;

  const now = Date.now();
  day = lagosDate(now);
  // Today's sales spread over the last ten hours of the Lagos day so far (all of them today).
  const from = Math.max(lagosDayStart(day) + MIN, now - 10 * H);
  const to = Math.max(from + 1000, now - 6 * MIN);
  const at = (f: number) => Math.round(from + (to - from) * f);

  for (const [name, branch] of [
    ['Counter 1', IKEJA],
    ['Counter 2', IKEJA],
    ['Counter 3', LEKKI],
    ['Old till', LEKKI],
  ] as const) {
    const c = await enroll(hub, name, branch);
    counterIds[name] = c.counterId;
    journals[name] = new CounterJournal(hub.url, c.credential);
  }
  const add = (o: Omit<Seeded, 'branch'>) => {
    const s = { ...o, branch: o.counter === 'Counter 3' || o.counter === 'Old till' ? LEKKI : IKEJA };
    seeded.push(s);
    return s;
  };
  const films = ['Ije Awele', 'Dune', 'King of Boys', 'Ije Awele'];
  for (let i = 0; i < 8; i++)
    add({
      ref: `C1-${i}`,
      counter: 'Counter 1',
      cashier: 'Ada',
      at: at(0.05 + i * 0.11),
      kobo: 350_000 + i * 50_000,
      state: 'paid',
      film: films[i % 4],
      seats: `F${i + 1}`,
      orderNo: `24000100${i}`,
      payNo: `PAY-C1-${i}`,
    });
  add({
    ref: 'C1-FAIL',
    counter: 'Counter 1',
    cashier: 'Ada',
    at: at(0.4),
    kobo: 200_000,
    state: 'failed',
    orderNo: '240001999',
  });
  add({
    ref: 'C1-UNKNOWN',
    counter: 'Counter 1',
    cashier: 'Ada',
    at: at(0.7),
    kobo: 150_000,
    state: 'unknown',
    orderNo: '240001888',
  });
  add({
    ref: 'C1-DEMO',
    counter: 'Counter 1',
    cashier: 'Ada',
    at: at(0.5),
    kobo: 99_900,
    state: 'paid',
    practice: true,
  });
  for (let i = 0; i < 6; i++)
    add({
      ref: `C2-${i}`,
      counter: 'Counter 2',
      cashier: 'Bola',
      at: at(0.1 + i * 0.14),
      kobo: 420_000 + i * 30_000,
      state: 'paid',
      film: 'Dune',
      seats: `G${i + 1}`,
      orderNo: `24000200${i}`,
    });
  add({ ref: 'C2-CANCEL', counter: 'Counter 2', cashier: 'Bola', at: at(0.3), kobo: 300_000, state: 'cancelled' });
  add({ ref: 'C2-EXPIRED', counter: 'Counter 2', cashier: 'Bola', at: at(0.6), kobo: 300_000, state: 'expired' });
  for (let i = 0; i < 5; i++)
    add({
      ref: `C3-${i}`,
      counter: 'Counter 3',
      cashier: 'Chi',
      at: at(0.2 + i * 0.15),
      kobo: 500_000 + i * 25_000,
      state: 'paid',
      film: 'Lekki Premiere',
      seats: `K${i + 1}`,
      orderNo: `24000300${i}`,
    });
  add({
    ref: 'C3-OPEN',
    counter: 'Counter 3',
    cashier: 'Chi',
    at: at(0.8),
    kobo: 450_000,
    state: 'waiting',
    orderNo: '240077777',
  });

  const ev: Record<string, ReturnType<CounterJournal['ev']>[]> = { 'Counter 1': [], 'Counter 2': [], 'Counter 3': [] };
  ev['Counter 1']!.push(
    journals['Counter 1']!.ev('shift.opened', at(0), {
      shiftId: 'SH-ADA',
      cashier: 'Ada',
      floatKobo: 2_000_000,
      profile: 'production',
    }),
  );
  ev['Counter 2']!.push(
    journals['Counter 2']!.ev('shift.opened', at(0), {
      shiftId: 'SH-BOLA',
      cashier: 'Bola',
      floatKobo: 1_000_000,
      profile: 'production',
    }),
  );
  // A Demo shift before Chi's: practice, shown apart on Shifts (as Today shows Demo sales), never in the totals.
  const c3 = journals['Counter 3']!;
  ev['Counter 3']!.push(c3.ev('shift.opened', at(0.002), { shiftId: 'SH-DEMO', cashier: 'Trainee', profile: 'demo' }));
  ev['Counter 3']!.push(
    c3.ev('shift.closed', at(0.008), { shiftId: 'SH-DEMO', cashier: 'Trainee', cardTotalKobo: 520_000 }),
  );
  ev['Counter 3']!.push(
    c3.ev('zreport', at(0.008), {
      shiftId: 'SH-DEMO',
      reportNo: 3,
      from: at(0.002),
      to: at(0.008),
      totalKobo: 520_000,
      count: 1,
      lines: [{ label: 'Paid', kobo: 520_000, count: 1 }],
    }),
  );
  ev['Counter 3']!.push(c3.ev('shift.opened', at(0.01), { shiftId: 'SH-CHI', cashier: 'Chi', profile: 'production' }));
  for (const o of seeded) ev[o.counter]!.push(...orderEvents(journals[o.counter]!, o));
  // The same weekday last week: a quieter day on counter 1.
  for (let i = 0; i < 12; i++) {
    const o: Seeded = {
      ref: `LW-${i}`,
      counter: 'Counter 1',
      branch: IKEJA,
      cashier: 'Ada',
      at: at(i / 12) - 7 * 24 * H,
      kobo: 300_000,
      state: 'paid',
    };
    lastWeek.push(o);
    ev['Counter 1']!.push(...orderEvents(journals['Counter 1']!, o));
  }
  // Two days ago: 60 matinee sales, for paging.
  for (let i = 0; i < 60; i++) {
    const o: Seeded = {
      ref: `MAT-${i}`,
      counter: 'Counter 1',
      branch: IKEJA,
      cashier: 'Ada',
      at: lagosDayStart(addDays(day, -2)) + 11 * H + i * MIN,
      kobo: 150_000,
      state: 'paid',
      film: 'Matinee',
      seats: 'A1',
      orderNo: `880000${String(i).padStart(2, '0')}`,
    };
    ev['Counter 1']!.push(...orderEvents(journals['Counter 1']!, o));
  }
  ev['Counter 1']!.push(
    journals['Counter 1']!.ev('topup.submitted', at(0.5), {
      reference: 'T-1',
      kind: 'airtime',
      amountKobo: 100_000,
      provider: 'MTN',
      customerId: '08030000000',
      profile: 'production',
    }),
  );
  ev['Counter 1']!.push(
    journals['Counter 1']!.ev('topup.status', at(0.5) + 1000, { reference: 'T-1', status: 'success', orderNo: 'TU-1' }),
  );
  const c2 = journals['Counter 2']!;
  const zLines = [{ label: 'Paid', kobo: 0, count: 0 }];
  const bolaPaid = seeded.filter((o) => o.counter === 'Counter 2' && o.state === 'paid');
  zLines[0] = { label: 'Paid', kobo: bolaPaid.reduce((a, o) => a + o.kobo, 0), count: bolaPaid.length };
  zLines.push(
    { label: 'Failed', kobo: 0, count: 0 },
    { label: 'Cancelled', kobo: 300_000, count: 1 },
    { label: 'Expired', kobo: 300_000, count: 1 },
  );
  ev['Counter 2']!.push(
    c2.ev('shift.closed', at(0.97), { shiftId: 'SH-BOLA', cashier: 'Bola', cardTotalKobo: zLines[0].kobo }),
  );
  ev['Counter 2']!.push(
    c2.ev('zreport', at(0.97), {
      shiftId: 'SH-BOLA',
      reportNo: 12,
      from: at(0),
      to: at(0.97),
      totalKobo: zLines[0].kobo,
      count: zLines[0].count,
      lines: zLines,
    }),
  );
  for (const [name, list] of Object.entries(ev)) await journals[name]!.sync(list.sort((a, b) => a.seq - b.seq));
});

test.afterAll(() => {
  killAllHubs();
  rmSync(hubDir, { recursive: true, force: true });
});

const paidToday = (branch?: string) =>
  seeded.filter((o) => o.state === 'paid' && !o.practice && (!branch || o.branch === branch));
const sum = (l: Seeded[]) => l.reduce((a, o) => a + o.kobo, 0);

test('first login from the setup link, with the keyboard only; the link is used up and leaves the address bar', async ({
  page,
}) => {
  const res = await page.goto(`${hub.url}/dashboard/#setup=${setupToken}`);
  // The page is served with a strict policy: scripts and styles from the Hub only.
  expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(res!.headers()['content-security-policy']).not.toContain('unsafe-inline');
  expect(res!.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByRole('heading', { name: 'First start: create the head-office manager' })).toBeVisible();
  await expect(page.getByLabel('Your manager name')).toBeFocused();
  await page.keyboard.type(HO.name);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type(HO.password);
  await page.keyboard.press('Tab');
  await page.keyboard.type('not the same password');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('setup-message')).toHaveText('The two passwords differ: type the same password twice.');
  await both(page, 'setup', page.locator('.access-card'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(HO.password);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('account-button')).toContainText(`${HO.name} · head office`);
  await expect(page).toHaveURL(`${hub.url}/dashboard/today`);
  expect(await page.evaluate(() => location.hash)).toBe('');

  // The token is spent: the same link again cannot create a second manager.
  const again = await newPage(page.context().browser()!);
  await again.goto(`${hub.url}/dashboard/#setup=${setupToken}`);
  await again.getByLabel('Your manager name').fill('Somebody');
  await again.getByLabel('Password (at least 10 characters)').fill('some password 1');
  await again.getByLabel('Same password again').fill('some password 1');
  await again.getByRole('button', { name: 'Create and log in' }).click();
  await expect(again.getByTestId('setup-message')).toBeVisible();
  await again.context().close();

  // Head office adds the branch managers (through the API with its session, as an admin tool would).
  const ho = new Manager(hub.url);
  expect((await ho.login(HO.name, HO.password)).status).toBe(200);
  for (const m of [BM, LOCKED])
    expect((await ho.post('/managers', { ...m, role: 'branch', branch: IKEJA })).status).toBe(200);
});

test('login refusals are said plainly, the wait counted down', async ({ page }) => {
  await page.goto(`${hub.url}/dashboard/`);
  await expect(page.getByRole('heading', { name: 'Manager login' })).toBeVisible();
  // Wrong passwords until the Hub makes the account wait (after 3 failures): the first ones say so.
  const statuses: number[] = [];
  for (let i = 0; i < 8 && !statuses.includes(429); i++) {
    await page.getByLabel('Manager name').fill(LOCKED.name);
    await page.getByLabel('Password').fill(`wrong password ${i}`);
    await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled({ timeout: 20_000 });
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/dashboard/login')),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    statuses.push(res.status());
    if (res.status() === 401)
      await expect(page.getByTestId('login-message')).toHaveText('Wrong manager name or password.');
  }
  expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
  expect(statuses).toContain(429);
  // The page says how long to wait, and the button waits too.
  await expect(page.getByTestId('login-message')).toHaveText(
    /^Too many login attempts for this manager: wait \d+ s, then try again\.$/,
  );
  await both(page, 'login-wait', page.locator('.access-card'));
  await expect(page.getByTestId('login-message')).toHaveText('You may try again now.', { timeout: 20_000 });
  await page.getByLabel('Password').fill(LOCKED.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('account-button')).toContainText(LOCKED.name);
});

test('Today for head office: takings by branch, counter and cashier, the hourly chart beside last week; desktop and phone, light and dark', async ({
  page,
  browser,
}) => {
  await login(page, hub.url, HO);
  const takings = page.getByTestId('tile-card-total');
  await expect(takings).toContainText(formatNaira(sum(paidToday())));
  await expect(takings).toContainText(`${paidToday().length} paid`);
  await expect(page.getByTestId('tile-failed')).toContainText('1');
  await expect(page.getByTestId('tile-cancelled')).toContainText('1');
  await expect(page.getByTestId('tile-expired')).toContainText('1');
  await expect(page.getByTestId('tile-open')).toContainText('2');
  await expect(page.getByTestId('tile-topups')).toContainText(formatNaira(100_000));
  const table = page.getByTestId('breakdown');
  await expect(table.locator(`tr[data-branch="${IKEJA}"]`)).toContainText(formatNaira(sum(paidToday(IKEJA))));
  await expect(table.locator(`tr[data-branch="${LEKKI}"]`)).toContainText(formatNaira(sum(paidToday(LEKKI))));
  await expect(table.locator('tr[data-counter="Counter 2"]')).toContainText(
    formatNaira(sum(paidToday().filter((o) => o.counter === 'Counter 2'))),
  );
  await expect(table.locator('tr[data-cashier="Chi"]')).toContainText(formatNaira(sum(paidToday(LEKKI))));
  await expect(page.getByTestId('practice-note')).toContainText(`1 paid for ${formatNaira(99_900)}`);
  // The chart has words: the totals of both days.
  await expect(page.getByTestId('chart-summary')).toContainText(
    `Card total today ${formatNaira(sum(paidToday()))}, against ${formatNaira(sum(lastWeek))}`,
  );
  expect(await page.getByTestId('hour-chart').locator('rect.bar-today').count()).toBeGreaterThanOrEqual(14);
  await both(page, 'today');

  // Narrowed to one branch by head office's picker.
  await page.getByLabel('Branch in view').selectOption(LEKKI);
  await expect(page).toHaveURL(/branch=B-LEKKI/);
  await expect(takings).toContainText(formatNaira(sum(paidToday(LEKKI))));
  await expect(table.locator(`tr[data-branch="${IKEJA}"]`)).toHaveCount(0);

  const phone = await newPage(browser, { width: 390, height: 844 });
  await login(phone, hub.url, HO);
  await expect(phone.getByTestId('tile-card-total')).toContainText(formatNaira(sum(paidToday())));
  // Nothing is wider than the phone but the tables, which scroll inside their box.
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await both(phone, 'today-phone');
  await phone.context().close();
});

test('a branch manager sees their branch only, through the screens and by editing addresses', async ({ page }) => {
  await login(page, hub.url, BM);
  await expect(page.getByTestId('my-branch')).toHaveText(`Branch ${IKEJA}`);
  await expect(page.getByLabel('Branch in view')).toHaveCount(0);
  await expect(page.getByTestId('tile-card-total')).toContainText(formatNaira(sum(paidToday(IKEJA))));
  await expect(page.getByTestId('breakdown').locator(`tr[data-branch="${LEKKI}"]`)).toHaveCount(0);

  // Editing the address to the other branch changes nothing.
  await page.goto(`${hub.url}/dashboard/today?branch=${LEKKI}`);
  await expect(page.getByTestId('tile-card-total')).toContainText(formatNaira(sum(paidToday(IKEJA))));
  await page.goto(`${hub.url}/dashboard/orders?film=Lekki`);
  await expect(page.getByTestId('orders-empty')).toContainText('No orders match.');
  await page.goto(`${hub.url}/dashboard/counters?branch=${LEKKI}`);
  await expect(page.getByTestId('counter-list').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('counter-list')).not.toContainText('Counter 3');

  // Another branch's order id in the address: refused, and the API says the same.
  const ho = new Manager(hub.url);
  await ho.login(HO.name, HO.password);
  const lekkiId = ((await ho.get('/orders?reference=C3-0')).json.orders as { id: string }[])[0]!.id;
  await page.goto(`${hub.url}/dashboard/orders/${lekkiId}`);
  await expect(page.getByTestId('order-error')).toHaveText(`No order ${lekkiId} that you may see.`);
  const status = await page.evaluate(async (id) => (await fetch(`/api/v1/dashboard/orders/${id}`)).status, lekkiId);
  expect(status).toBe(404);
  const csv = await page.evaluate(
    async (d) => (await fetch(`/api/v1/dashboard/orders.csv?from=${d}&to=${d}&branch=B-LEKKI`)).text(),
    day,
  );
  expect(csv.trim().split('\r\n')).toEqual([ORDERS_CSV_COLUMNS.join(',')]);
  // Nothing secret in the page: no session id or CSRF token in its text or storage.
  const html = await page.content();
  expect(html).not.toMatch(/cp_manager=|csrf/i);
  expect(await page.evaluate(() => document.cookie)).toBe('');
});

test('Live: a counter syncs a new sale and the page shows it, then its payment', async ({ page }) => {
  await login(page, hub.url, HO, '/dashboard/live');
  await expect(page.getByTestId('live-status')).toHaveText('Live: payments appear as they happen');
  await expect(page.getByTestId('live-list').locator('li[data-reference="C3-OPEN"]')).toBeVisible();
  const j = journals['Counter 3']!;
  const t = Date.now();
  await j.sync([
    j.ev('order.created', t, {
      reference: 'LIVE-1',
      amountKobo: 725_000,
      sn: 'SN-1',
      cashier: 'Chi',
      profile: 'production',
      sale: sale('Gangs of Lagos', 'H4,H5'),
    }),
    j.ev('order.status', t + 500, { reference: 'LIVE-1', status: 'waiting', orderNo: '240099001' }),
  ]);
  const item = page.getByTestId('live-list').locator('li[data-reference="LIVE-1"]');
  await expect(item).toContainText('Waiting for payment');
  await expect(item).toContainText(formatNaira(725_000));
  await expect(item).toContainText('Gangs of Lagos (2D) · H4,H5');
  await expect(page.getByTestId('live-list').locator('li').first()).toHaveAttribute('data-reference', 'LIVE-1');
  await j.sync([j.ev('order.status', Date.now(), { reference: 'LIVE-1', status: 'paid', payNo: 'PAY-LIVE' })]);
  await expect(item).toContainText('Paid');
  await expect(item).toHaveAttribute('data-state', 'paid');
  await both(page, 'live');
  // Today follows the feed by itself.
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('tile-card-total')).toContainText(formatNaira(sum(paidToday()) + 725_000));
  seeded.push({
    ref: 'LIVE-1',
    counter: 'Counter 3',
    branch: LEKKI,
    cashier: 'Chi',
    at: t,
    kobo: 725_000,
    state: 'paid',
    film: 'Gangs of Lagos',
    seats: 'H4,H5',
    orderNo: '240099001',
    payNo: 'PAY-LIVE',
  });
});

test('Needs attention: each line says what to do', async ({ page }) => {
  await login(page, hub.url, HO, '/dashboard/attention');
  const list = page.getByTestId('attention-list');
  await expect(list.locator('li[data-kind="payment-unknown"]')).toContainText('What to do:');
  await expect(list.locator('li[data-kind="payment-open"]')).toContainText('Counter 3');
  await expect(
    list
      .locator('li[data-kind="counter-unsynced"], li[data-kind="counter-offline"]')
      .filter({ hasText: 'Old till' })
      .first(),
  ).toBeVisible();
  for (const li of await list.locator('li').all())
    await expect(li.locator('.attention-todo')).toHaveText(/^What to do: \S.{10,}/);
  await expect(page.getByRole('link', { name: /Needs attention/ }).locator('.badge')).toHaveText(
    String(await list.locator('li').count()),
  );
  await both(page, 'attention');
  // An order line opens its history.
  await list.locator('li[data-kind="payment-unknown"]').getByRole('link', { name: "Open the order's history" }).click();
  await expect(page.getByTestId('order-history')).toContainText('Checking the payment');
});

test("Shifts: open and closed, the Z report as printed, the day's totals, CSV line by line", async ({ page }) => {
  await login(page, hub.url, HO, '/dashboard/shifts');
  const bola = page.locator('li[data-shift="SH-BOLA"]');
  await expect(bola).toHaveAttribute('data-state', 'closed');
  await expect(page.locator('li[data-shift="SH-ADA"]')).toHaveAttribute('data-state', 'open');
  const bolaPaid = sum(paidToday().filter((o) => o.counter === 'Counter 2'));
  await expect(page.getByTestId('shift-totals')).toContainText(formatNaira(bolaPaid));
  await bola.getByRole('button', { name: /Show the Z report/ }).click();
  const z = page.getByTestId('zreport-12');
  await expect(z).toContainText('Z REPORT #12 - SHIFT CLOSED');
  await expect(z).toContainText(`Paid (6)${formatNaira(bolaPaid)}`);
  await expect(z).toContainText(`CARD TOTAL (6)${formatNaira(bolaPaid)}`);
  // The Demo shift: listed, marked Demo (the counter's word), its figures apart from the day's totals.
  await expect(page.locator('li[data-shift="SH-DEMO"] .practice-pill')).toHaveText('Demo');
  await expect(page.getByTestId('practice-note')).toContainText(
    `1 shift, card total at close ${formatNaira(520_000)}, 1 Z report`,
  );
  await expect(page.getByTestId('shift-totals')).not.toContainText(formatNaira(bolaPaid + 520_000));
  await both(page, 'shifts');
  const lines = await download(page, page.getByTestId('shifts-csv'));
  expect(lines[0]).toBe(SHIFTS_CSV_COLUMNS.join(','));
  expect(lines).toHaveLength(5);
  expect(lines.find((l) => l.includes(',SH-DEMO,'))).toMatch(/,3,5200\.00,1,yes$/);
  const bolaRow = lines.find((l) => l.includes(',SH-BOLA,'))!;
  expect(bolaRow).toMatch(
    new RegExp(
      `^${IKEJA},Counter 2,SH-BOLA,Bola,\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,10000\\.00,${naira(bolaPaid).replace('.', '\\.')},12,${naira(bolaPaid).replace('.', '\\.')},6,no$`,
    ),
  );
  expect(lines.find((l) => l.includes(',SH-ADA,'))).toMatch(
    /^B-IKEJA,Counter 1,SH-ADA,Ada,[\d: -]+,,20000\.00,,,,,no$/,
  );
  expect(lines.find((l) => l.includes(',SH-CHI,'))).toMatch(/^B-LEKKI,Counter 3,SH-CHI,Chi,[\d: -]+,,,,,,,no$/);
});

test("Orders: every filter, 50 to a page, an order's history, the CSV of a date range line by line", async ({
  page,
}) => {
  await login(page, hub.url, HO, '/dashboard/orders');
  const table = page.getByTestId('orders-table');
  const refs = async () =>
    (await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reference')))).sort();
  const search = async (fields: Record<string, string>) => {
    await page.getByRole('button', { name: 'Clear' }).click();
    // Filters beyond the number search sit behind "More filters".
    if (
      Object.keys(fields).some((l) => !l.startsWith('Sale,')) &&
      !(await page.locator('details.more-filters').evaluate((d) => (d as HTMLDetailsElement).open))
    )
      await page.getByText('More filters').click();
    for (const [label, value] of Object.entries(fields)) {
      const exact = page.getByLabel(label, { exact: true });
      const f = (await exact.count()) ? exact.first() : page.getByLabel(label).first();
      if ((await f.evaluate((el) => el.tagName)) === 'SELECT') await f.selectOption(value);
      else await f.fill(value);
    }
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  await search({ 'Sale, provider order or payment number': '1003' });
  await expect.poll(refs).toEqual(['C1-3']);
  await search({ 'Sale, provider order or payment number': 'PAY-C1-5' });
  await expect.poll(refs).toEqual(['C1-5']);
  // The sale number from a receipt, as a manager types it.
  await search({ 'Sale, provider order or payment number': 'c1-4' });
  await expect.poll(refs).toEqual(['C1-4']);
  await search({ 'Sale, provider order or payment number': 'C1-4' });
  await expect.poll(refs).toEqual(['C1-4']);
  await search({ Film: 'lekki' });
  await expect.poll(refs).toEqual(['C3-0', 'C3-1', 'C3-2', 'C3-3', 'C3-4']);
  await search({ Seat: 'g2' });
  await expect.poll(refs).toEqual(['C2-1']);
  await search({ 'Amount (₦)': '4,500' });
  await expect.poll(refs).toEqual(['C1-2', 'C2-1', 'C3-OPEN']);
  await search({ Cashier: 'Bola', State: 'cancelled' });
  await expect.poll(refs).toEqual(['C2-CANCEL']);
  await search({ Counter: counterIds['Counter 3']!, State: 'waiting' });
  await expect.poll(refs).toEqual(['C3-OPEN']);
  await search({ 'Sale, provider order or payment number': 'C1-DEMO', 'Demo and Sandbox sales': 'include' });
  await expect.poll(refs).toEqual(['C1-DEMO']);
  // The counter's word for its profile, not another one.
  await expect(table.locator('tbody tr .practice-pill')).toHaveText('Demo');
  await search({ 'Amount (₦)': 'lots' });
  await expect(page.getByText('"lots" is not an amount in naira')).toBeVisible();

  // 60 matinee sales two days ago: 50, then 10, then back.
  await search({ Film: 'Matinee', 'From (day)': addDays(day, -2), 'To (day, included)': addDays(day, -2) });
  await expect(table.locator('tbody tr')).toHaveCount(50);
  await expect(page).toHaveURL(/film=Matinee/);
  await page.getByRole('button', { name: 'Older 50 ›' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Older 50 ›' })).toBeDisabled();
  await page.getByRole('button', { name: '‹ Newer 50' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(50);
  await both(page, 'orders');

  // CSV of today (and the day before) with no filter: every real order, oldest first, as the rows.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('From (day)').last().fill(addDays(day, -1));
  await page.getByLabel('To (day, included)').last().fill(day);
  const lines = await download(page, page.getByTestId('orders-csv'));
  expect(lines[0]).toBe(ORDERS_CSV_COLUMNS.join(','));
  const real = seeded.filter((o) => !o.practice).sort((a, b) => a.at - b.at);
  expect(lines).toHaveLength(1 + real.length);
  const c11 = seeded.find((o) => o.ref === 'C1-1')!;
  expect(lines).toContain(
    `${stamp(c11.at)},${IKEJA},Counter 1,Ada,C1-1,240001001,PAY-C1-1,paid,${naira(c11.kobo)},Dune (2D),${day},19:30,F2,1,no,`,
  );
  const live = seeded.find((o) => o.ref === 'LIVE-1')!;
  expect(lines).toContain(
    `${stamp(live.at)},${LEKKI},Counter 3,Chi,LIVE-1,240099001,PAY-LIVE,paid,7250.00,Gangs of Lagos (2D),${day},19:30,"H4,H5",2,no,`,
  );
  expect(lines.slice(1).map((l) => l.split(',')[4])).toEqual(real.map((o) => o.ref));

  // One order's history as the counter recorded it.
  await search({ 'Sale, provider order or payment number': '240001001' });
  await table.getByRole('link', { name: 'History of sale C1-1' }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\/\d+$/);
  await expect(page.getByTestId('order-facts')).toContainText('PAY-C1-1');
  const history = page.getByTestId('order-history').locator('tbody tr');
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText('Sale started');
  await expect(history.nth(1)).toContainText('Waiting for payment');
  await expect(history.nth(2)).toContainText('Paid');
  await both(page, 'order-history');
  await page.goBack();
  await expect(table).toBeVisible();
});

test('Counters: last seen, version, profile, queue, clock; a code for a new counter; revoke after a confirmation', async ({
  page,
}) => {
  await login(page, hub.url, HO, '/dashboard/counters');
  const list = page.getByTestId('counter-list');
  await expect(list.locator('li')).toHaveCount(4);
  const c1 = list.locator('li[data-counter="Counter 1"]');
  await expect(c1).toContainText('0.1.0');
  await expect(c1).toContainText('production');
  await expect(c1).toContainText('on time');
  // Names must give distinct codes: the Hub refuses a second live "Counter 1" (COU1), and the form says so.
  await expect(page.getByTestId('code-names-hint')).toContainText(
    'a second “Counter 1” (COU1) in another branch is refused',
  );
  await page.getByLabel('For branch (merchant id)').fill(LEKKI);
  await page.getByRole('button', { name: 'Issue a code' }).click();
  await expect(page.getByTestId('enroll-code')).toContainText(`for branch ${LEKKI}`);
  await expect(page.getByTestId('enroll-code').locator('output')).toHaveText(/^[A-Z0-9-]{8,}$/);
  const old = list.locator('li[data-counter="Old till"]');
  await old.getByRole('button', { name: 'Revoke…' }).click();
  const confirm = old.getByRole('group', { name: 'Revoke Old till?' });
  await expect(confirm).toContainText('enrolled again with a new code');
  await expect(confirm.getByRole('button', { name: 'Revoke Old till' })).toBeFocused();
  await both(page, 'counters');
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(old).toHaveAttribute('data-status', 'offline');
  await old.getByRole('button', { name: 'Revoke…' }).click();
  await page.keyboard.press('Enter');
  await expect(old).toHaveAttribute('data-status', 'revoked');
});

test('keyboard only: log in, move between screens by Alt+number, search, open a history, log out', async ({ page }) => {
  await page.goto(`${hub.url}/dashboard/`);
  await expect(page.getByLabel('Manager name')).toBeFocused();
  await page.keyboard.type(BM.name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(BM.password);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tile-card-total')).toBeVisible();
  for (const [key, title] of [
    ['Alt+2', 'Live'],
    ['Alt+3', 'Needs attention'],
    ['Alt+4', 'Shifts'],
    ['Alt+6', 'Counters'],
    ['Alt+5', 'Orders'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  }
  await tabTo(page, page.getByText('More filters'));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Film'));
  await page.keyboard.type('ije');
  await page.keyboard.press('Enter');
  const first = page.getByTestId('orders-table').getByRole('link').first();
  await expect(page.getByTestId('orders-table').locator('tbody tr')).toHaveCount(4);
  await tabTo(page, first);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-history')).toBeVisible();
  await tabTo(page, page.getByTestId('account-button'), 80);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Log out', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('logged-out-reason')).toHaveText('Logged out.');
  await page.goto(`${hub.url}/dashboard/today`);
  await expect(page.getByRole('heading', { name: 'Manager login' })).toBeVisible();
});

test('log out everywhere ends the other sessions: the other browser is sent to the login', async ({
  page,
  browser,
}) => {
  await login(page, hub.url, BM);
  const other = await newPage(browser);
  await login(other, hub.url, BM, '/dashboard/orders');
  await page.getByTestId('account-button').click();
  await page.getByRole('button', { name: 'Log out everywhere' }).click();
  await expect(page.getByTestId('logged-out-reason')).toHaveText(
    /^Logged out on every device \(\d+ sessions ended\)\.$/,
  );
  // The other browser's next call is refused and it says why.
  await other.keyboard.press('Alt+1');
  await expect(other.getByTestId('logged-out-reason')).toHaveText(
    'Your session has ended (logged out elsewhere, or unused for a while). Log in again.',
  );
  await other.context().close();
});

test('paid after closing: Needs attention says what to do until the counter marks it handled; Today shows it apart; Orders filters it', async ({
  page,
}) => {
  const j = journals['Counter 3']!;
  const t = Date.now() - 20 * MIN;
  await j.sync([
    j.ev('order.created', t, {
      reference: 'LATE-1',
      amountKobo: 400_000,
      sn: 'SN-1',
      cashier: 'Chi',
      profile: 'production',
      sale: sale('Dune', 'J1,J2'),
    }),
    j.ev('order.status', t + 2000, { reference: 'LATE-1', status: 'waiting', orderNo: '240077001' }),
    j.ev('order.status', t + 5 * MIN, { reference: 'LATE-1', status: 'expired' }),
    j.ev('order.late', t + 10 * MIN, {
      reference: 'LATE-1',
      orderNo: '240077001',
      kind: 'paid-after-closing',
      closedAs: 'expired',
      providerStatus: 'SUCCESS',
      amountKobo: 400_000,
      payNo: 'PAY-LATE',
      source: 'sweep',
    }),
  ]);
  await login(page, hub.url, HO, '/dashboard/attention');
  const line = page.getByTestId('attention-list').locator('li[data-kind="paid-after-closing"]');
  await expect(line).toContainText(`${formatNaira(400_000)} was taken after the sale was closed`);
  await expect(line).toContainText('Counter 3');
  await expect(line).toContainText('(Chi)');
  await expect(line.locator('.attention-todo')).toHaveText(
    'What to do: Hand over the tickets if the customer is there, else arrange the refund; the counter marks it handled.',
  );
  await both(page, 'attention-late', line);
  // Today counts it on the Lagos day it was taken (10 minutes ago is yesterday just after midnight).
  await page.goto(`${hub.url}/dashboard/today?day=${lagosDate(t + 10 * MIN)}`);
  await expect(page.getByTestId('tile-paid-after-closing')).toContainText(formatNaira(400_000));
  await both(page, 'today-late', page.getByTestId('today-tiles'));
  await page.goto(`${hub.url}/dashboard/orders?paidAfterClosing=only`);
  await expect(page.locator('tr[data-reference]')).toHaveCount(1);
  await expect(page.locator('tr[data-reference="LATE-1"]')).toBeVisible();
  await expect(page.locator('#f-late')).toHaveValue('only');
  await j.sync([j.ev('order.late.handled', Date.now(), { reference: 'LATE-1', how: 'refund', by: 'Chi' })]);
  await page.goto(`${hub.url}/dashboard/attention`);
  await expect(page.getByTestId('attention-list').or(page.getByTestId('attention-clear'))).toBeVisible();
  await expect(page.locator('li[data-kind="paid-after-closing"]')).toHaveCount(0);
});
