// Each test gets its own browser shell on a fresh data folder.
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';

export const ARTIFACTS = resolve(__dirname, '../artifacts/screens');
mkdirSync(ARTIFACTS, { recursive: true });

export const test = base.extend<{ shell: ShellProcess; shiftOpen: boolean }>({
  /** Charging needs an open shift: the shell opens one unless a test about shifts says `test.use({ shiftOpen: false })`. */
  shiftOpen: [true, { option: true }],
  shell: async ({ shiftOpen }, use) => {
    const shell = await startShellProcess({ openShift: shiftOpen });
    await use(shell);
    await shell.stop();
  },
});
export { expect };

/** One call of the contract on a shell, as its page would make it (the token header); throws the error's code and message. */
export async function callShell<T>(
  request: APIRequestContext,
  shell: ShellProcess,
  name: string,
  args: unknown = {},
): Promise<T> {
  const res = await request.post(`${shell.origin}/api/call/${name}`, {
    headers: { 'x-counterpay-token': shell.token },
    data: { args },
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.code} ${body.error?.message}`);
  return body.value as T;
}
