// The browser shell's printed address over real loopback HTTP: its one-time token is spent at the
// first load for an HttpOnly, SameSite=Strict session cookie; the same token again (from the
// browser's history, another browser) is refused with a message saying how to get a new address;
// the token itself never opens the API; a restarted shell knows no old cookie.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDispatcher, type CallsSpec } from '../../../shared/contract-kit';
import { createEventBus } from '../../../core/events';
import { silentLogger } from '../../../shared/logger';
import { startBrowserShell, type BrowserShell } from '../../../browser-shell/server';

const calls = {
  'status.get': { args: z.object({}).strict(), result: z.object({ fine: z.boolean() }) },
} satisfies CallsSpec;
const shells: BrowserShell[] = [];
afterEach(async () => {
  while (shells.length) await shells.pop()!.close();
});

async function start(port?: number): Promise<BrowserShell> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-shell-launch-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  const shell = await startBrowserShell({
    dispatch: createDispatcher(calls, { 'status.get': () => ({ fine: true }) }),
    events: createEventBus(),
    rendererDir: dir,
    logger: silentLogger,
    ...(port ? { port } : {}),
  });
  shells.push(shell);
  return shell;
}

const launchOf = (shell: BrowserShell) => /#token=([A-Za-z0-9_-]+)$/.exec(shell.url)![1]!;
const exchange = (shell: BrowserShell, headers: Record<string, string>) =>
  fetch(`${shell.origin}/api/session`, { method: 'POST', headers: { origin: shell.origin, ...headers } });
const status = (shell: BrowserShell, headers: Record<string, string>) =>
  fetch(`${shell.origin}/api/call/status.get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shell.origin, ...headers },
    body: '{"args":{}}',
  });
const errorOf = async (r: Response) =>
  ((await r.json()) as { error: { message: string; details: { reason: string } } }).error;

describe('the printed address', () => {
  it('is spent at first load for an HttpOnly, SameSite=Strict cookie; the same token again is refused with a way to a new address', async () => {
    const shell = await start();
    const launch = launchOf(shell);
    // The token is not a session: it does not open the API.
    expect((await status(shell, { 'x-counterpay-token': launch })).status).toBe(401);

    const first = await exchange(shell, { 'x-counterpay-token': launch });
    expect(first.status).toBe(200);
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      new RegExp(`^counterpay_session_${shell.port}=[A-Za-z0-9_-]{20,}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    const cookie = setCookie.split(';')[0]!;
    expect(cookie).not.toContain(launch);
    const withCookie = await status(shell, { cookie });
    expect(withCookie.status).toBe(200);
    expect(await withCookie.json()).toEqual({ ok: true, value: { fine: true } });

    // Another browser (no cookie) with the same address: refused, saying how to get a new one.
    const again = await exchange(shell, { 'x-counterpay-token': launch });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    const why = await errorOf(again);
    expect(why.details.reason).toBe('TOKEN_SPENT');
    expect(why.message).toMatch(
      /used already[\s\S]*restart CounterPay \(npm run start:browser\) and open the new address it prints/,
    );
    // The same browser (its cookie) opening the address again goes on with its session.
    expect((await exchange(shell, { 'x-counterpay-token': launch, cookie })).status).toBe(200);
    // A page from another site cannot spend a token.
    const foreign = await fetch(`${shell.origin}/api/session`, {
      method: 'POST',
      headers: { origin: 'http://attacker.example', 'x-counterpay-token': launch },
    });
    expect(foreign.status).toBe(403);
  });

  it('a signed-in caller gets a new one-time address; a wrong or missing token gets nothing', async () => {
    const shell = await start();
    const r = await fetch(`${shell.origin}/api/session/link`, {
      method: 'POST',
      headers: { 'x-counterpay-token': shell.token },
    });
    const url = ((await r.json()) as { value: { url: string } }).value.url;
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${shell.port}/#token=[A-Za-z0-9_-]{20,}$`));
    const fresh = /#token=(.+)$/.exec(url)![1]!;
    expect((await exchange(shell, { 'x-counterpay-token': fresh })).status).toBe(200);
    expect((await exchange(shell, { 'x-counterpay-token': fresh })).status).toBe(401);
    expect((await fetch(`${shell.origin}/api/session/link`, { method: 'POST' })).status).toBe(401);
    expect((await errorOf(await exchange(shell, { 'x-counterpay-token': 'x'.repeat(32) }))).details.reason).toBe(
      'TOKEN_WRONG',
    );
    expect((await errorOf(await exchange(shell, {}))).details.reason).toBe('TOKEN_MISSING');
  });

  it('a cookie from before a restart opens nothing', async () => {
    const shell = await start();
    const cookie = (await exchange(shell, { 'x-counterpay-token': launchOf(shell) })).headers
      .get('set-cookie')!
      .split(';')[0]!;
    const port = shell.port;
    await shells.pop()!.close();
    const again = await start(port);
    const refused = await status(again, { cookie });
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toMatch(/earlier start of CounterPay/);
  });
});
