// The architecture's import rules are enforced by lint: each forbidden import fails, the allowed ones pass
// (process boundaries, core modules entered through their index, the sandbox standing apart).
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: resolve(__dirname, '../../..') });
async function problems(filePath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return (r?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals').map((m) => m.message);
}

describe('import rules', () => {
  it.each([
    ['electron/core/orders/x.ts', "import { app } from 'electron';\nexport const a = app;", 'Only electron/main and electron/preload may import electron'],
    ['renderer/src/x.tsx', "import { app } from 'electron';\nexport const a = app;", 'Only electron/main and electron/preload may import electron'],
    ['renderer/src/x.tsx', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;", 'never import Node built-ins'],
    ['renderer/src/x.tsx', "import { readFileSync } from 'fs';\nexport const a = readFileSync;", 'never import Node built-ins'],
    ['renderer/src/x.tsx', "import { createCore } from '../../electron/core/app-core';\nexport const a = createCore;", 'never import code from electron/'],
    ['shared/x.ts', "import { createHash } from 'node:crypto';\nexport const a = createHash;", 'never import Node built-ins'],
    ['shared/x.ts', "import { useApp } from '../renderer/src/stores/app-store';\nexport const a = useApp;", 'never imports renderer/ code'],
    ['shared/x.ts', 'export const w = window.location;', 'no DOM or Node globals'],
    ['electron/main/other.ts', "import { ipcMain } from 'electron';\nexport const a = ipcMain;", 'ipcMain / ipcRenderer only in'],
    ['electron/core/topups/x.ts', "import { OrderJournal } from '../orders/order-journal';\nexport const a = OrderJournal;", 'through its index.ts'],
    ['electron/core/topups/x.ts', "export { counterCode } from '../orders/out-order-no';", 'through its index.ts'],
    ['electron/core/orders/x.ts', "import { TokenBucket } from '../lib/token-bucket';\nexport const a = TokenBucket;", 'through its index.ts'],
    ['electron/core/x.ts', "import { createTopupsModule } from './topups/topups-module';\nexport const a = createTopupsModule;", 'through its index.ts'],
    ['electron/browser/x.ts', "import { readBoundedBody } from '../core/lib/http';\nexport const a = readBoundedBody;", 'through its index.ts'],
    ['electron/main/other.ts', "import { openFileLogger } from '../core/logging/log-files';\nexport const a = openFileLogger;", 'through its index.ts'],
    ['electron/main/ipc-transport.ts', "import { fileVault } from '../core/settings/secret-vault';\nexport const a = fileVault;", 'through its index.ts'],
    ['electron/sandbox/x.ts', "import { OrderJournal } from '../core/orders';\nexport const a = OrderJournal;", 'The sandbox imports only'],
    ['electron/sandbox/x.ts', "import { sendJson } from '../core/lib/http';\nexport const a = sendJson;", 'The sandbox imports only'],
    ['electron/sandbox/x.ts', "import { startBrowserShell } from '../browser/server';\nexport const a = startBrowserShell;", 'The sandbox imports only'],
    ['electron/sandbox/x.ts', "import { app } from 'electron';\nexport const a = app;", 'Only electron/main and electron/preload may import electron'],
    ['hub/dashboard/src/x.tsx', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;", 'imports only shared/ and UI packages'],
    ['hub/dashboard/src/x.ts', "import { startHub } from '../../server';\nexport const a = startHub;", 'imports only shared/ and UI packages'],
    ['hub/dashboard/src/screens/x.tsx', "import { today } from '../../../store/dashboard';\nexport const a = today;", 'imports only shared/ and UI packages'],
    ['hub/dashboard/src/x.tsx', "import { useApp } from '../../../renderer/src/stores/app-store';\nexport const a = useApp;", 'imports only shared/ and UI packages'],
  ])('%s: forbidden import fails', async (file, code, message) => {
    const found = await problems(file, code);
    expect(found.join('\n')).toContain(message);
  });

  it.each([
    ['electron/main/window.ts', "import { BrowserWindow } from 'electron';\nexport const a = BrowserWindow;"],
    ['electron/main/ipc-transport.ts', "import { ipcMain } from 'electron';\nexport const a = ipcMain;"],
    ['electron/preload/index.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;"],
    ['renderer/src/x.tsx', "import { z } from 'zod';\nimport { calls } from '../../shared/contract';\nexport const a = [z, calls];"],
    ['electron/core/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['electron/core/topups/x.ts', "import { OrderJournal } from '../orders';\nimport { TokenBucket } from '../lib';\nimport { e } from './topup-engine';\nimport { m } from '../../../shared/money';\nexport const a = [OrderJournal, TokenBucket, e, m];"],
    ['electron/core/x.ts', "import { createTopupsModule } from './topups';\nimport { systemClock } from './clock';\nexport const a = [createTopupsModule, systemClock];"],
    ['electron/browser/x.ts', "import { readBoundedBody } from '../core/lib';\nexport const a = readBoundedBody;"],
    ['electron/sandbox/x.ts', "import { sendJson } from '../core/lib';\nimport { rsaSign } from '../core/crypto';\nimport type { Clock } from '../core/clock';\nimport { m } from '../../shared/money';\nimport { CODES } from './codes';\nexport const a = [sendJson, rsaSign, m, CODES] as unknown as Clock;"],
    ['hub/dashboard/src/screens/x.tsx', "import { create } from 'zustand';\nimport { api } from '../api';\nexport const a = [create, api];"],
    ['hub/dashboard/src/x.ts', "import { z } from 'zod';\nimport { c } from '../../../shared/hub-dashboard-contract';\nexport const a = [z, c];"],
  ])('%s: allowed import passes', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
