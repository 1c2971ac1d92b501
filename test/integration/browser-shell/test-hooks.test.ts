// The browser shell's test hook that holds the event stream down: off unless asked for, behind the
// token when on, and it really ends the streams and refuses new ones until released.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDispatcher, type CallsSpec } from '../../../shared/contract-kit';
import { startBrowserShell, type BrowserShell } from '../../../browser-shell/server';
import { createEventBus } from '../../../core/events';
import { silentLogger } from '../../../shared/logger';

const calls = {
  'status.get': { args: z.object({}).strict(), result: z.object({ fine: z.boolean() }) },
} satisfies CallsSpec;
const shells: BrowserShell[] = [];
afterEach(async () => {
  while (shells.length) await shells.pop()!.close();
});

async function start(testHooks: boolean): Promise<BrowserShell> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-hooks-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  const shell = await startBrowserShell({
    dispatch: createDispatcher(calls, { 'status.get': () => ({ fine: true }) }),
    events: createEventBus(),
    rendererDir: dir,
    logger: silentLogger,
    testHooks,
  });
  shells.push(shell);
  return shell;
}

function hold(shell: BrowserShell, on: boolean, token = shell.token): Promise<number> {
  return fetch(`${shell.origin}/api/_test/events?hold=${on ? 1 : 0}`, {
    method: 'POST',
    headers: { 'x-counterpay-token': token },
  }).then((r) => r.status);
}

/** Opens the event stream; resolves with its status and a promise that settles when the server ends it. */
function openEvents(shell: BrowserShell): Promise<{ status: number; ended: Promise<void> }> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port: shell.port, path: '/api/events', headers: { 'x-counterpay-token': shell.token } },
      (res) => {
        const ended = new Promise<void>((done) => {
          res.on('close', () => done());
          res.on('error', () => done());
        });
        res.resume();
        ok({ status: res.statusCode ?? 0, ended });
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('event-stream test hook', () => {
  it('does not exist unless the shell was started with it', async () => {
    const shell = await start(false);
    expect(await hold(shell, true)).toBe(404);
    expect((await openEvents(shell)).status).toBe(200);
  });

  it('needs the token', async () => {
    const shell = await start(true);
    expect(await hold(shell, true, 'x'.repeat(shell.token.length))).toBe(401);
  });

  it('ends open streams, refuses new ones while held, and accepts them again when released', async () => {
    const shell = await start(true);
    const first = await openEvents(shell);
    expect(first.status).toBe(200);
    expect(await hold(shell, true)).toBe(200);
    await first.ended;
    expect((await openEvents(shell)).status).toBe(503);
    expect(await hold(shell, false)).toBe(200);
    expect((await openEvents(shell)).status).toBe(200);
  });
});
