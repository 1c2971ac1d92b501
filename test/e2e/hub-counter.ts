// A counter in the browser shell joined to a Hub process, as the Hub e2e specs set it up: the
// contract called as the page calls it, the Hub's admin API, the counter on a sandbox merchant with
// its own webhook receiver off (so notifications come only through the Hub's relay), and Settings →
// Hub typed with the keyboard.
import type { Page } from '@playwright/test';
import type { DemoMerchantValues, Sandbox } from '../../sandbox';
import { defaultProfile, type ProfileSettings } from '../../shared/settings';
import type { ShellProcess } from '../helpers/browser-shell-process';
import { ADMIN_TOKEN } from '../hub/helpers/hub-harness';
import type { HubProcess } from '../hub/helpers/hub-process';
import { expect } from './fixtures';

export const PIN = '2468';

export async function call<T>(shell: ShellProcess, name: string, args: unknown): Promise<T> {
  const res = await fetch(`${shell.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-counterpay-token': shell.token },
    body: JSON.stringify({ args }),
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message ?? JSON.stringify(body)}`);
  return body.value as T;
}

export async function hubAdmin<T>(hub: HubProcess, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${hub.url}/api/v1/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`Hub ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * The counter on the sandbox merchant, as an admin sets it up: profile, keys, terminal; its own
 * receiver off. `more` overrides settings (Production needs https:// addresses in front of the sandbox).
 */
export async function counterOnSandbox(
  shell: ShellProcess,
  sandbox: Sandbox,
  m: DemoMerchantValues,
  more: Partial<ProfileSettings> = {},
  profile: 'sandbox' | 'production' = 'sandbox',
): Promise<void> {
  await call(shell, 'settings.setPin', { newPin: PIN });
  const settings = {
    ...defaultProfile(profile),
    billsBaseUrl: sandbox.billsBaseUrl,
    posBaseUrl: sandbox.posBaseUrl,
    billsMerchantId: m.billsMerchantId,
    headMerchantId: m.headMerchantId,
    merchantId: m.merchantId,
    counterName: 'Counter 1',
    webhook: { enabled: false, host: '127.0.0.1', port: 0, callbackBaseUrl: '' },
    ...more,
  };
  const secrets = {
    billsPublicKey: m.billsPublicKey,
    billsSecretKey: m.billsSecretKey,
    posClientAuthKey: m.clientAuthKey,
    merchantPrivateKey: m.merchantPrivateKeyPem,
    providerPublicKey: m.providerPublicKeyPem,
  };
  await call(shell, 'settings.saveProfile', { profile, settings, secrets });
  await call(shell, 'settings.setActiveProfile', { profile });
  await call(shell, 'terminal.configure', { source: 'manual', manualSn: m.terminalSn });
}

/**
 * Settings → Hub with the keyboard: the address and the code the manager read out. `pill` and
 * `relay`: what the status bar and Settings → Hub then say (a Hub without the merchant file: amber).
 */
export async function joinHub(
  page: Page,
  hub: HubProcess,
  code: string,
  pill = 'Hub: connected',
  relay = 'relay connected',
): Promise<void> {
  await page.keyboard.press('Alt+5');
  const unlock = page.getByLabel('Admin PIN', { exact: true });
  if (await unlock.isVisible()) {
    await unlock.fill(PIN);
    await unlock.press('Enter');
  }
  const panel = page.getByRole('region', { name: 'Hub' });
  await expect(panel.getByRole('heading', { name: 'Join a Hub' })).toBeVisible();
  await panel.getByLabel('Hub address').focus();
  await page.keyboard.type(hub.url);
  await page.keyboard.press('Tab');
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  // (The "Joined" line gives way to the warning when the Hub turns out unable to pass payments on.)
  if (pill === 'Hub: connected')
    await expect(panel.getByTestId('hub-message')).toHaveText(`Joined the Hub at ${hub.url} as Counter 1.`);
  await expect(page.getByTestId('hub-pill')).toHaveText(pill);
  await expect(panel.getByTestId('hub-sync')).toContainText(relay);
}
