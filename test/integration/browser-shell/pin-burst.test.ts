// Guessing the admin PIN by concurrency, through the real browser shell (the app's core behind its
// HTTP transport) over loopback: a burst of parallel unlocks checks at most five PINs, and a
// restart on the same data folder keeps the lockout.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootBrowserShell } from '../../../browser-shell/boot';
import { silentLogger } from '../../../shared/logger';

const root = mkdtempSync(join(tmpdir(), 'counterpay-pin-burst-'));
const dataDir = join(root, 'data');
const rendererDir = join(root, 'renderer');
mkdirSync(rendererDir);
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');

interface Shell {
  origin: string;
  token: string;
  stop(): Promise<void>;
}
async function boot(): Promise<Shell> {
  const app = await bootBrowserShell({ dataDir, rendererDir, logger: silentLogger, version: 'test' });
  return { origin: app.shell.origin, token: app.shell.token, stop: () => app.close() };
}

let shell: Shell | null = null;
afterAll(async () => {
  await shell?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function call(
  s: Shell,
  name: string,
  args: unknown,
): Promise<{ ok: boolean; error?: { code: string; message: string } }> {
  const r = await fetch(`${s.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-counterpay-token': s.token, origin: s.origin },
    body: JSON.stringify({ args }),
  });
  return (await r.json()) as { ok: boolean; error?: { code: string; message: string } };
}

const storedFailures = () =>
  (JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { pinFailures?: number }).pinFailures;

describe('admin PIN over the browser shell', () => {
  it('61 parallel unlocks check at most five wrong PINs; the right one after them stays locked, also after a restart', async () => {
    shell = await boot();
    expect(await call(shell, 'settings.setPin', { newPin: '482913' })).toMatchObject({ ok: true });
    await call(shell, 'settings.lock', {});

    const wrong = Array.from({ length: 60 }, (_, i) => String(100000 + i));
    const answers = await Promise.all([...wrong, '482913'].map((pin) => call(shell!, 'settings.unlock', { pin })));
    const codes = answers.map((a) => (a.ok ? 'OK' : a.error!.code));
    // Every check is counted before the hash runs, so the stored counter is the number of PINs checked.
    const checked = storedFailures() ?? 0;
    if (codes.includes('OK')) {
      // The right PIN arrived among the first five checked: an honest unlock that reset the count,
      // so at most four wrong ones before it and five after it were checked.
      expect(codes.filter((c) => c === 'PIN_WRONG').length).toBeLessThanOrEqual(8);
      expect(codes.filter((c) => c === 'PIN_LOCKED').length).toBeGreaterThanOrEqual(51);
    } else {
      expect(checked).toBe(5);
      expect(codes.filter((c) => c === 'PIN_WRONG')).toHaveLength(4);
      expect(codes.filter((c) => c === 'PIN_LOCKED')).toHaveLength(57);
    }
    expect(await call(shell, 'settings.unlock', { pin: '000000' })).toMatchObject({
      ok: false,
      error: { code: 'PIN_LOCKED' },
    });

    await shell.stop();
    shell = null;
    shell = await boot();
    const after = await call(shell, 'settings.pinStatus', {});
    expect(after).toMatchObject({ ok: true, value: { set: true, unlocked: false, lockedUntil: expect.any(Number) } });
    expect(await call(shell, 'settings.unlock', { pin: '482913' })).toMatchObject({
      ok: false,
      error: { code: 'PIN_LOCKED', message: expect.stringMatching(/Try again in \d+ minutes?/) },
    });
  }, 60_000);
});
