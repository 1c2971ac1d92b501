// Each test gets its own browser shell on a fresh data folder.
import { test as base, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startShellProcess, type ShellProcess } from '../helpers/browser-shell-process';

export const ARTIFACTS = resolve(__dirname, '../artifacts/screens');
mkdirSync(ARTIFACTS, { recursive: true });

export const test = base.extend<{ shell: ShellProcess }>({
  shell: async ({}, use) => {
    const shell = await startShellProcess();
    await use(shell);
    await shell.stop();
  },
});
export { expect };
