// The architecture's import rules are enforced by lint: each forbidden import fails, the allowed ones pass
// (process boundaries, the rooms: protocol, the Hub and the sandbox apart from the counter's engine,
// core modules entered through their index).
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: resolve(__dirname, '../../..') });
async function problems(filePath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return (r?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('import rules', () => {
  it.each([
    [
      'core/orders/x.ts',
      "import { app } from 'electron';\nexport const a = app;",
      'Only electron/main and electron/preload may import electron',
    ],
    [
      'renderer/src/x.tsx',
      "import { app } from 'electron';\nexport const a = app;",
      'Only electron/main and electron/preload may import electron',
    ],
    [
      'renderer/src/x.tsx',
      "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;",
      'run in a browser',
    ],
    ['renderer/src/x.tsx', "import { readFileSync } from 'fs';\nexport const a = readFileSync;", 'run in a browser'],
    [
      'renderer/src/x.tsx',
      "import { createCore } from '../../core/app-core';\nexport const a = createCore;",
      'run in a browser',
    ],
    [
      'renderer/src/screens/x.tsx',
      "import { sign } from '../../../protocol/crypto';\nexport const a = sign;",
      'run in a browser',
    ],
    ['shared/x.ts', "import { createHash } from 'node:crypto';\nexport const a = createHash;", 'no Node built-ins'],
    [
      'shared/x.ts',
      "import { useApp } from '../renderer/src/stores/app-store';\nexport const a = useApp;",
      'shared/ imports nothing of the repository',
    ],
    [
      'shared/x.ts',
      "import { rsaSign } from '../protocol/crypto';\nexport const a = rsaSign;",
      'shared/ imports nothing of the repository',
    ],
    ['shared/x.ts', 'export const w = window.location;', 'no DOM or Node globals'],
    [
      'electron/main/other.ts',
      "import { ipcMain } from 'electron';\nexport const a = ipcMain;",
      'ipcMain / ipcRenderer only in',
    ],
    [
      'protocol/x.ts',
      "import { OrderJournal } from '../core/orders';\nexport const a = OrderJournal;",
      'protocol/ imports only Node and shared/',
    ],
    [
      'protocol/crypto/x.ts',
      "import { startHub } from '../../hub/server';\nexport const a = startHub;",
      'protocol/ imports only Node and shared/',
    ],
    [
      'hub/x.ts',
      "import { verifyPosWebhook } from '../core/webhook';\nexport const a = verifyPosWebhook;",
      'The Hub (hub/) imports only shared/ and protocol/',
    ],
    [
      'hub/store/x.ts',
      "import { OrderJournal } from '../../core/orders/order-journal';\nexport const a = OrderJournal;",
      'The Hub (hub/) imports only shared/ and protocol/',
    ],
    [
      'hub/http/x.ts',
      "import { startSandbox } from '../../sandbox';\nexport const a = startSandbox;",
      'The Hub (hub/) imports only shared/ and protocol/',
    ],
    [
      'core/topups/x.ts',
      "import { OrderJournal } from '../orders/order-journal';\nexport const a = OrderJournal;",
      'through its index.ts',
    ],
    ['core/topups/x.ts', "export { counterCode } from '../orders/out-order-no';", 'through its index.ts'],
    [
      'core/orders/x.ts',
      "import { TokenBucket } from '../lib/token-bucket';\nexport const a = TokenBucket;",
      'through its index.ts',
    ],
    [
      'core/x.ts',
      "import { createTopupsModule } from './topups/topups-module';\nexport const a = createTopupsModule;",
      'through its index.ts',
    ],
    [
      'core/demo/x.ts',
      "import { generateDemoConfig } from '../../sandbox/demo-config';\nexport const a = generateDemoConfig;",
      'the sandbox through sandbox/index.ts',
    ],
    [
      'browser-shell/x.ts',
      "import { fileVault } from '../core/settings/secret-vault';\nexport const a = fileVault;",
      'through a module',
    ],
    [
      'electron/main/other.ts',
      "import { openFileLogger } from '../../core/logging/log-files';\nexport const a = openFileLogger;",
      'through its index.ts',
    ],
    [
      'electron/main/ipc-transport.ts',
      "import { fileVault } from '../../core/settings/secret-vault';\nexport const a = fileVault;",
      'through its index.ts',
    ],
    [
      'sandbox/x.ts',
      "import { OrderJournal } from '../core/orders';\nexport const a = OrderJournal;",
      'The sandbox imports only',
    ],
    [
      'sandbox/x.ts',
      "import { startBrowserShell } from '../browser-shell/server';\nexport const a = startBrowserShell;",
      'The sandbox imports only',
    ],
    [
      'sandbox/x.ts',
      "import { app } from 'electron';\nexport const a = app;",
      'Only electron/main and electron/preload may import electron',
    ],
    [
      'hub/dashboard/src/x.tsx',
      "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;",
      'run in a browser',
    ],
    [
      'hub/dashboard/src/x.ts',
      "import { startHub } from '../../server';\nexport const a = startHub;",
      'run in a browser',
    ],
    [
      'hub/dashboard/src/screens/x.tsx',
      "import { today } from '../../../store/dashboard';\nexport const a = today;",
      'run in a browser',
    ],
    [
      'hub/dashboard/src/x.tsx',
      "import { useApp } from '../../../renderer/src/stores/app-store';\nexport const a = useApp;",
      'run in a browser',
    ],
  ])('%s: forbidden import fails', async (file, code, message) => {
    const found = await problems(file, code);
    expect(found.join('\n')).toContain(message);
  });

  it.each([
    ['electron/main/window.ts', "import { BrowserWindow } from 'electron';\nexport const a = BrowserWindow;"],
    ['electron/main/ipc-transport.ts', "import { ipcMain } from 'electron';\nexport const a = ipcMain;"],
    ['electron/preload/index.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;"],
    [
      'electron/main/other.ts',
      "import { createCore } from '../../core/app-core';\nimport { openFileLogger } from '../../core/logging';\nexport const a = [createCore, openFileLogger];",
    ],
    [
      'renderer/src/x.tsx',
      "import { z } from 'zod';\nimport { calls } from '../../shared/contract';\nexport const a = [z, calls];",
    ],
    ['core/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    [
      'core/topups/x.ts',
      "import { OrderJournal } from '../orders';\nimport { TokenBucket } from '../lib';\nimport { e } from './topup-engine';\nimport { m } from '../../shared/money';\nimport { rsaSign } from '../../protocol/crypto';\nexport const a = [OrderJournal, TokenBucket, e, m, rsaSign];",
    ],
    ['core/demo/x.ts', "import { startSandbox } from '../../sandbox';\nexport const a = startSandbox;"],
    ['core/x.ts', "import { createTopupsModule } from './topups';\nexport const a = createTopupsModule;"],
    [
      'browser-shell/x.ts',
      "import { readBoundedBody } from '../protocol/http';\nimport { fileVault } from '../core/settings';\nexport const a = [readBoundedBody, fileVault];",
    ],
    [
      'protocol/x.ts',
      "import { createHash } from 'node:crypto';\nimport { m } from '../shared/money';\nimport { c } from './crypto';\nexport const a = [createHash, m, c];",
    ],
    [
      'hub/store/x.ts',
      "import { Pool } from 'pg';\nimport { c } from '../../shared/hub-contract';\nimport { checkPosEnvelope } from '../../protocol/pos-webhook';\nimport { r } from '../http/reply';\nexport const a = [Pool, c, checkPosEnvelope, r];",
    ],
    [
      'sandbox/x.ts',
      "import { sendJson } from '../protocol/http';\nimport { rsaSign } from '../protocol/crypto';\nimport type { Clock } from '../shared/clock';\nimport { m } from '../shared/money';\nimport { CODES } from './codes';\nexport const a = [sendJson, rsaSign, m, CODES] as unknown as Clock;",
    ],
    [
      'hub/dashboard/src/screens/x.tsx',
      "import { create } from 'zustand';\nimport { api } from '../api';\nexport const a = [create, api];",
    ],
    [
      'hub/dashboard/src/x.ts',
      "import { z } from 'zod';\nimport { c } from '../../../shared/hub-dashboard-contract';\nexport const a = [z, c];",
    ],
  ])('%s: allowed import passes', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
