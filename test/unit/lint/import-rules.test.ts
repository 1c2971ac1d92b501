// The architecture's import rules are enforced by lint: each forbidden import fails, the allowed ones pass.
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
  ])('%s: allowed import passes', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
