// "Debited, but the screen said failed" through the Hub, end to end in real Chromium (issue 20): a
// counter in the browser shell on a sandbox merchant, joined to a real Hub process that holds the
// merchant file (the provider's webhooks go to the Hub, which relays them; the counter's own receiver
// is off). A sale expires on the terminal; the sandbox then takes the payment after all; the counter
// shows the alert, the Hub's Needs attention lists it (counter, cashier, amount, what to do); the
// cashier marks it handled on the counter, and it clears there and on the dashboard, where Today
// keeps the money in the takings. The counter is on its Production profile (the Hub keeps Sandbox and
// Demo sales out of Needs attention: no real money), so the sandbox is reached through https://, a
// TLS front made for the test with a certificate the counter's process trusts. Screenshots light and
// dark of the counter's alert and the line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { generateDemoConfig, startSandbox, type Sandbox } from '../../sandbox';
import { formatNaira } from '../../shared/money';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';
import { Manager } from '../hub/helpers/dashboard-client';
import { killAllHubs, spawnHub } from '../hub/helpers/hub-process';
import { both, login } from './dashboard-pages';
import { ARTIFACTS, expect, test } from './fixtures';
import { counterOnSandbox, hubAdmin, joinHub } from './hub-counter';

// A Hub process, a 30 s expiry and the relay's round trips: room for a busy machine, no sleeps.
test.describe.configure({ timeout: 240_000 });

const HO = { name: 'Funmi Head', password: 'head office password 1' };

let sandbox: Sandbox | null = null;
let dir: string | null = null;
let shell: ShellProcess | null = null;
const fronts: Server[] = [];
test.afterEach(async () => {
  killAllHubs();
  await shell?.stop();
  shell = null;
  for (const f of fronts.splice(0)) await new Promise((r) => f.close(r));
  await sandbox?.close();
  sandbox = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** https://127.0.0.1:<port> in front of a plain http:// address (TLS ends here, bytes pass on as they are). */
async function tlsFront(httpUrl: string, tls: { cert: string; key: string }): Promise<string> {
  const up = new URL(httpUrl);
  const server = createServer(tls, (sock) => {
    const to = connect(Number(up.port), up.hostname);
    sock.pipe(to).pipe(sock);
    const end = () => (sock.destroy(), to.destroy());
    sock.on('error', end);
    to.on('error', end);
  });
  fronts.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}${up.pathname === '/' ? '' : up.pathname}`;
}

test.skip(() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}, 'openssl is not installed, so no certificate can be made for the https:// front of the sandbox');

test('a sale expires, the provider takes the money after: the counter alerts, Needs attention lists it, handled on the counter it clears on both', async ({
  page,
  browser,
}) => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-e2e-late-hub-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const tls = { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  const { config, merchant } = generateDemoConfig();
  sandbox = await startSandbox(config, { port: 0 });
  shell = await startShellProcess({ openShift: true, env: { NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') } });
  const merchantFile = join(dir, 'hub-merchant.json');
  writeFileSync(
    merchantFile,
    JSON.stringify({ clientAuthKey: merchant.clientAuthKey, providerPublicKey: merchant.providerPublicKeyPem }),
    { mode: 0o600 },
  );
  const hub = await spawnHub([
    '--data-dir',
    join(dir, 'hub-data'),
    '--merchant-config',
    merchantFile,
    '--heartbeat-ms',
    '500',
  ]);
  sandbox.setWebhookUrl(merchant.headMerchantId, `${hub.url}/provider/pos-webhook`);
  await expect.poll(() => /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())?.[1] ?? null).not.toBeNull();
  expect(
    (await new Manager(hub.url).post('/setup', { token: /#setup=([A-Za-z0-9_-]{43})/.exec(hub.output())![1]!, ...HO }))
      .status,
  ).toBe(200);
  const { code } = await hubAdmin<{ code: string }>(hub, 'POST', '/enroll-codes', { anyBranch: true });

  // Production, through https://; the shortest expiry the counter allows: the sale runs out on the terminal in 30 s.
  const posBaseUrl = await tlsFront(sandbox.posBaseUrl, tls);
  const billsBaseUrl =
    sandbox.billsBaseUrl === sandbox.posBaseUrl ? posBaseUrl : await tlsFront(sandbox.billsBaseUrl, tls);
  await counterOnSandbox(shell, sandbox, merchant, { orderExpireSeconds: 30, posBaseUrl, billsBaseUrl }, 'production');
  await page.goto(shell.url);
  await expect(page.getByText('Production · Counter 1')).toBeVisible();
  await joinHub(page, hub, code);

  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('terminal-sn')).toContainText(merchant.terminalSn);
  await page.getByLabel('Film name', { exact: true }).fill('LAGOS-NIGHTS');
  await page.getByLabel('Film title (on the ticket)').fill('Lagos Nights (2D)');
  await page.getByLabel('Seats', { exact: true }).fill('F7');
  await page.getByLabel('Price per ticket (₦)').fill('4,000');
  await page.getByLabel('Booking fee per ticket (₦)').fill('0');
  await page
    .getByRole('button', { name: new RegExp(`^Charge ₦4,000\\.00 on terminal ${merchant.terminalSn}`) })
    .click();
  await expect(page.getByTestId('payment-state')).toHaveText('Waiting for payment');
  const outOrderNo = ((await page.getByTestId('out-order-no').textContent()) ?? '').trim();

  // Nobody pays in time: the provider closes the order, and its notification comes through the Hub.
  await expect(page.getByTestId('payment-state')).toHaveText('Expired', { timeout: 90_000 });
  await expect(page.getByTestId('late-alert')).toHaveCount(0);
  const orderNo = sandbox.listPosOrders().find((o) => o.outOrderNo === outOrderNo)!.orderNo;

  // The provider takes the money after all: its new notification goes to the Hub, which relays it.
  const taken = sandbox.reportLate(orderNo, 'SUCCESS', { senderName: 'ADA OBI', cardPan: '5399831234567890' });
  const alert = page.getByTestId('late-alert');
  await expect(alert).toBeVisible({ timeout: 2_000 });
  await expect(alert).toContainText(outOrderNo);
  await expect(alert).toContainText('Paid after it was closed: ₦4,000.00');
  await expect(page.getByTestId('late-pill')).toHaveText('Paid after closing: 1');

  // The manager's dashboard lists it (the counter synced order.late).
  const dash = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await login(dash, hub.url, HO, '/dashboard/attention');
  const line = dash.getByTestId('attention-list').locator('li[data-kind="paid-after-closing"]');
  await expect
    .poll(
      async () => {
        await dash.getByRole('button', { name: 'Check again' }).click();
        await expect(dash.getByRole('button', { name: 'Check again' })).toBeEnabled();
        return line.count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  await expect(line).toContainText(
    `${formatNaira(400_000)} was taken after the sale was closed: Counter 1, sale ${outOrderNo}`,
  );
  await expect(line.locator('.attention-todo')).toHaveText(
    'What to do: Hand over the tickets if the customer is there, else arrange the refund; the counter marks it handled.',
  );
  await both(dash, 'attention-late-chain', line);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(ARTIFACTS, `late-payment-hub-alert-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The cashier hands over the tickets and marks it handled on the counter: it clears there...
  await alert.getByLabel('Your name').fill('Ngozi');
  await alert.getByRole('button', { name: 'Tickets given' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId('late-pill')).toHaveCount(0);
  // ...and, once synced, on the dashboard: the line goes, the order's row says who handled it.
  await expect
    .poll(
      async () => {
        await dash.getByRole('button', { name: 'Check again' }).click();
        await expect(dash.getByRole('button', { name: 'Check again' })).toBeEnabled();
        return line.count();
      },
      { timeout: 30_000 },
    )
    .toBe(0);
  await dash.goto(`${hub.url}/dashboard/orders?number=${encodeURIComponent(outOrderNo)}`);
  const row = dash.locator(`tr[data-reference="${outOrderNo}"]`);
  await expect(row.getByTestId('order-late')).toHaveText('Paid after closing');
  await expect(row.getByTestId('order-late')).toHaveAttribute(
    'title',
    /Handled on the counter by Ngozi, .*: tickets given\./,
  );
  // The sale's page names the payment taken after closing by its payment number (the notification
  // had none: the counter asked the provider and synced it).
  await row.getByRole('link', { name: `History of sale ${outOrderNo}` }).click();
  await expect(dash.getByTestId('order-payno')).toHaveText(`${taken.payNo!} (paid after closing)`);
  await expect(dash.getByTestId('order-late-detail')).toContainText(`payment ${taken.payNo!}`);
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 768 },
  ]) {
    await dash.setViewportSize(size);
    await both(dash, `late-paid-order-page-${size.width}`);
  }
  await dash.setViewportSize({ width: 1280, height: 860 });
  await dash.goto(`${hub.url}/dashboard/`);
  await dash.keyboard.press('Alt+1');
  await expect(dash.getByTestId('tile-paid-after-closing')).toContainText(formatNaira(400_000));
  await dash.close();
});
