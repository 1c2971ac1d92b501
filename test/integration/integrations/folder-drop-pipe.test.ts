// A live counter (the browser shell as its own process) with a named pipe and a socket dropped into
// its folder-drop inbox (real mkfifo, a real listening socket): both are set aside with a reason,
// the request beside them is charged, and the cashier's side and the integration API keep
// answering. (Reading the pipe used to freeze the whole counter, again after every restart.)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChargeView } from '../../../shared/integration';
import { startShellProcess, type ShellProcess } from '../../helpers/browser-shell-process';
import { api, twoSeats } from '../../helpers/integration-kit';

const shells: ShellProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) servers.pop()!.close();
  while (shells.length) await shells.pop()!.stop();
});

async function callShell<T>(shell: ShellProcess, name: string, args: unknown = {}): Promise<T> {
  const res = await fetch(`${shell.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-counterpay-token': shell.token },
    body: JSON.stringify({ args }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.code} ${body.error?.message}`);
  return body.value as T;
}

/** Resolves when `file` exists (watching its folder: an event, not a sleep). */
function untilExists(file: string): Promise<void> {
  const dir = join(file, '..');
  return new Promise((ok) => {
    const w = watch(dir, () => {
      if (existsSync(file)) {
        w.close();
        ok();
      }
    });
    if (existsSync(file)) {
      w.close();
      ok();
    }
  });
}

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => ok(port));
    });
  });

describe('folder drop on a live counter', () => {
  it('a named pipe and a socket in the inbox are set aside; the request beside them is charged; the counter keeps answering', async () => {
    // The test calls the shell's API only: a stand-in page, so it runs before `npm run build`.
    const pages = mkdtempSync(join(tmpdir(), 'counterpay-pages-'));
    writeFileSync(join(pages, 'index.html'), '<!doctype html><title>CounterPay</title>');
    const shell = await startShellProcess({ openShift: true, rendererDir: pages });
    shells.push(shell);
    await callShell(shell, 'settings.setPin', { newPin: '2468' });
    const paired = await callShell<{ id: string; key: string }>(shell, 'integrations.pair', {
      name: 'Old box office',
      callbackUrl: '',
    });
    const view = await callShell<{ api: { url: string | null } }>(shell, 'integrations.setApi', {
      port: await freePort(),
      lan: false,
    });
    const base = view.api.url!;
    const box = join(shell.dataDir, 'box-office-drop', paired.id);
    const inbox = join(box, 'inbox');
    mkdirSync(inbox, { recursive: true });
    mkdirSync(join(box, 'outbox'), { recursive: true });
    mkdirSync(join(box, 'rejected'), { recursive: true });
    // Sorted first, so the counter meets them before the request.
    execFileSync('mkfifo', [join(inbox, 'A-pipe.json')]);
    const sock = createServer();
    servers.push(sock);
    await new Promise<void>((ok) => sock.listen(join(inbox, 'B-socket.json'), ok));
    writeFileSync(join(inbox, '.BK-PIPE.json.partial'), JSON.stringify(twoSeats('BK-PIPE')));
    renameSync(join(inbox, '.BK-PIPE.json.partial'), join(inbox, 'BK-PIPE.json'));

    await untilExists(join(box, 'outbox', 'BK-PIPE.json'));
    await untilExists(join(box, 'rejected', 'A-pipe.json.reason.txt'));
    await untilExists(join(box, 'rejected', 'B-socket.json.reason.txt'));
    expect(readFileSync(join(box, 'rejected', 'A-pipe.json.reason.txt'), 'utf8')).toMatch(
      /a named pipe, not an ordinary file/,
    );
    expect(readFileSync(join(box, 'rejected', 'B-socket.json.reason.txt'), 'utf8')).toMatch(
      /a socket, not an ordinary file/,
    );
    // The cashier's side and the integration API answer.
    expect(await callShell<unknown[]>(shell, 'orders.listToday')).toHaveLength(1);
    const read = await api<ChargeView>(base, paired.key, 'GET', '/v1/charges/BK-PIPE');
    expect(read).toMatchObject({ status: 200, body: { reference: 'BK-PIPE' } });
  });
});
