// Two box-office charges for one terminal, end to end in real Chromium against the real browser
// shell (Demo profile): the first comes over HTTP and goes to the terminal; the second comes by the
// folder drop while the first is unpaid, and waits its turn (queued, naming the first) instead of
// going to the terminal beside it. The customer's tap on the Demo terminal pays the first; then the
// second reaches the terminal and is paid by the next tap. Each booking gets its own outcome.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { ChargeView } from '../../shared/integration';
import type { DemoTerminalScreen } from '../../shared/contract';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';
import { ARTIFACTS, callShell, expect, test as base } from './fixtures';

const test = base.extend<{ shell: ShellProcess }>({
  shell: async ({}, use) => {
    const shell = await startShellProcess({ openShift: true, env: { COUNTERPAY_INTEGRATION_PORT: '0' } });
    await use(shell);
    await shell.stop();
  },
});

const SALE = {
  filmName: 'Lagos Nights',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-12-24',
  showTime: '19:30',
  priceKobo: 250_000,
  bookingFeeKobo: 20_000,
};

async function charge(request: APIRequestContext, base: string, key: string, path: string): Promise<ChargeView> {
  const res = await request.get(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as ChargeView;
}

test('a second box-office charge for a busy terminal waits its turn; the tap pays the first; each booking gets its own outcome', async ({
  page,
  request,
  shell,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  const paired = await callShell<{ id: string; key: string }>(request, shell, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: '',
  });
  const view = await callShell<{ api: { url: string | null } }>(request, shell, 'integrations.list', {});
  const base = view.api.url!;
  const auth = { authorization: `Bearer ${paired.key}` };
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();

  // 1. Over HTTP: two seats, ₦5,200.00. It goes to the terminal.
  const first = await request.post(`${base}/v1/charges`, {
    headers: auth,
    data: {
      reference: 'BO-FIRST',
      amountKobo: 520_000,
      sale: { ...SALE, seats: 'F7,F8', tickets: 2, bookingFeeKobo: 20_000 },
    },
  });
  expect(first.status()).toBe(201);
  const a = (await first.json()) as ChargeView;
  await expect(page.getByTestId('payment-amount')).toHaveText('₦5,200.00');
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');

  // 2. By the folder drop, while the first is unpaid: one seat, ₦2,700.00. It waits, queued.
  const drop = join(shell.dataDir, 'box-office-drop', paired.id);
  mkdirSync(join(drop, 'inbox'), { recursive: true });
  writeFileSync(
    join(drop, 'inbox', '.second.tmp'),
    JSON.stringify({ reference: 'BO-SECOND', amountKobo: 270_000, sale: { ...SALE, seats: 'G1', tickets: 1 } }),
  );
  renameSync(join(drop, 'inbox', '.second.tmp'), join(drop, 'inbox', 'second.json'));
  await expect
    .poll(async () => (await request.get(`${base}/v1/charges/BO-SECOND`, { headers: auth })).status())
    .toBe(200);
  const b = await charge(request, base, paired.key, '/v1/charges/BO-SECOND');
  expect(b).toMatchObject({ state: 'queued', final: false, reason: expect.stringContaining(a.outOrderNo) });
  // The Sell screen lists it beside the terminal, waiting for it (not for the network).
  await expect(page.getByTestId('queued-charge').filter({ hasText: 'BO-SECOND' })).toContainText('₦2,700.00');
  await expect(page.getByText('Waiting for the network')).toHaveCount(0);
  // The terminal still shows the first (the provider holds one unpaid order for it).
  await page.screenshot({ path: join(ARTIFACTS, 'box-office-busy-queued.png') });
  const screen = await callShell<DemoTerminalScreen>(request, shell, 'demo.terminalScreen', {});
  expect(screen.pending).toMatchObject({ outOrderNo: a.outOrderNo, amountKobo: 520_000 });

  // 3. The customer taps: the first is paid, never the second.
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  const aPaid = await charge(
    request,
    base,
    paired.key,
    `/v1/charges/BO-FIRST/wait?after=${a.version}&timeoutSeconds=20`,
  );
  let aNow = aPaid;
  while (!aNow.final)
    aNow = await charge(request, base, paired.key, `/v1/charges/BO-FIRST/wait?after=${aNow.version}&timeoutSeconds=20`);
  expect(aNow.state).toBe('paid');

  // 4. The second reaches the terminal by itself, and the next tap pays it.
  let bNow = b;
  while (bNow.state !== 'waiting')
    bNow = await charge(
      request,
      base,
      paired.key,
      `/v1/charges/BO-SECOND/wait?after=${bNow.version}&timeoutSeconds=20`,
    );
  expect((await callShell<DemoTerminalScreen>(request, shell, 'demo.terminalScreen', {})).pending).toMatchObject({
    outOrderNo: b.outOrderNo,
    amountKobo: 270_000,
  });
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  while (!bNow.final)
    bNow = await charge(
      request,
      base,
      paired.key,
      `/v1/charges/BO-SECOND/wait?after=${bNow.version}&timeoutSeconds=20`,
    );
  expect(bNow.state).toBe('paid');
  expect(bNow.payNo).toBeTruthy();
  expect(bNow.payNo).not.toBe(aNow.payNo);
  // The folder-drop booking's outcome file says the same.
  await expect
    .poll(() => JSON.parse(readFileSync(join(drop, 'outbox', 'BO-SECOND.json'), 'utf8')) as ChargeView)
    .toMatchObject({ state: 'paid', final: true });
});

test("a box office's declined charge: Check with the provider says not paid, and Try again is not offered (the box office asks again)", async ({
  page,
  request,
  shell,
}) => {
  await callShell(request, shell, 'settings.setPin', { newPin: '2468' });
  const paired = await callShell<{ id: string; key: string }>(request, shell, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: '',
  });
  const view = await callShell<{ api: { url: string | null } }>(request, shell, 'integrations.list', {});
  const base = view.api.url!;
  await page.goto(shell.url);
  await expect(page.getByText('Demo · Counter 1')).toBeVisible();

  const res = await request.post(`${base}/v1/charges`, {
    headers: { authorization: `Bearer ${paired.key}` },
    data: { reference: 'BO-DECLINED', amountKobo: 270_000, sale: { ...SALE, seats: 'H1', tickets: 1 } },
  });
  expect(res.status()).toBe(201);
  const a = (await res.json()) as ChargeView;
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  await page.getByRole('button', { name: 'Decline', exact: true }).click();
  let now = a;
  while (!now.final)
    now = await charge(
      request,
      base,
      paired.key,
      `/v1/charges/BO-DECLINED/wait?after=${now.version}&timeoutSeconds=20`,
    );
  expect(now.state).toBe('failed');
  await expect(page.getByTestId('payment-state')).toHaveText('Payment failed');

  await page.getByRole('button', { name: 'Check with the provider', exact: true }).click();
  await expect(page.getByTestId('check-answer')).toContainText('The provider says not paid');
  await expect(
    page.getByText(
      'Try again is not offered here. Box office has been told the outcome and asks again with a new booking reference.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await page.screenshot({ path: join(ARTIFACTS, 'box-office-declined-no-retry.png') });
  // The engine refuses it too, whoever asks.
  const retried = await request.post(`${shell.origin}/api/call/orders.retry`, {
    headers: { 'content-type': 'application/json', 'x-counterpay-token': shell.token },
    data: { args: { id: (await callShell<{ id: number }[]>(request, shell, 'orders.listToday', {}))[0]!.id } },
  });
  expect(((await retried.json()) as { ok: boolean }).ok).toBe(false);
});
