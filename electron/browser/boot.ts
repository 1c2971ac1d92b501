// Builds the core for the browser shell (conf settings, file secrets) and starts serving it.
import Conf from 'conf';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../core/app-core';
import { systemClock } from '../core/clock';
import type { Logger } from '../core/log';
import type { LogFiles } from '../core/logging';
import type { KeyValueStore } from '../core/settings';
import { fileVault } from '../core/settings';
import { startBrowserShell } from './server';

export interface BootOptions {
  dataDir: string;
  rendererDir: string;
  port?: number;
  logger: Logger;
  /** The files `logger` writes, for Export diagnostics (cli.ts opens them in the data folder). */
  logFiles?: LogFiles;
  version: string;
  /** See BrowserShellOptions.testHooks. */
  testHooks?: boolean;
}

export function confStore(dataDir: string): KeyValueStore {
  const conf = new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'settings', projectName: 'counterpay' });
  return { get: (k) => conf.get(k), set: (k, v) => conf.set(k, v), delete: (k) => conf.delete(k) };
}

export async function bootBrowserShell(opts: BootOptions) {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const core = await createCore({
    shell: 'browser',
    version: opts.version,
    dataDir: opts.dataDir,
    store: confStore(opts.dataDir),
    vault: fileVault(join(opts.dataDir, 'secrets.json')),
    logger: opts.logger,
    clock: systemClock,
    ...(opts.logFiles ? { logFiles: opts.logFiles } : {}),
  });
  const shell = await startBrowserShell({ dispatch: core.dispatch, hub: core.hub, rendererDir: opts.rendererDir, logger: opts.logger, testHooks: opts.testHooks === true, ...(opts.port !== undefined ? { port: opts.port } : {}) });
  return {
    core,
    shell,
    async close() {
      await shell.close();
      await core.stop();
    },
  };
}
