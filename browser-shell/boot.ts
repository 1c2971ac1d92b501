// Builds the core for the browser shell (conf settings, file secrets) and starts serving it.
// The data folder is checked, locked and repaired first; a restore from Settings rebuilds the core
// behind the same server and event bus.
import { startRestartableCore } from '../core/app-core';
import { systemClock } from '../shared/clock';
import { openDataFolder, secretsFile, settingsFile } from '../core/data-folder';
import { createEventBus } from '../core/events';
import type { Logger } from '../shared/logger';
import type { LogFiles } from '../core/logging';
import { confStore, fileVault, withLastGood } from '../core/settings';

import { startBrowserShell } from './server';

// The conf-backed settings store lives with the settings; older tests import it from here.
export { confStore };

interface BootOptions {
  dataDir: string;
  rendererDir: string;
  port?: number;
  logger: Logger;
  /** The files `logger` writes, for Export diagnostics (cli.ts opens them in the data folder). */
  logFiles?: LogFiles;
  version: string;
  /** See BrowserShellOptions.testHooks. */
  testHooks?: boolean;
  /** `--restore FILE`: a journal backup put in place before start. */
  restoreFrom?: string;
  /** `--integration-port N`: the box-office integration API's port for this run, instead of the one saved in Settings. */
  integrationPort?: number;
}

export async function bootBrowserShell(opts: BootOptions) {
  const folder = openDataFolder(opts.dataDir, {
    now: systemClock.now(),
    jsonFiles: [
      { file: settingsFile(opts.dataDir), what: 'settings' },
      { file: secretsFile(opts.dataDir), what: 'keys' },
    ],
    ...(opts.restoreFrom ? { restoreFrom: opts.restoreFrom } : {}),
  });
  try {
    for (const n of folder.notices)
      opts.logger.warn('data folder repaired at start', { kind: n.kind, keptAs: n.keptAs });
    const events = createEventBus();
    const store = withLastGood(confStore(opts.dataDir), settingsFile(opts.dataDir));
    const vault = fileVault(secretsFile(opts.dataDir));
    // A fixed port for the box-office integration API instead of the saved one (--integration-port; tests: 0, a free one).
    const integrationPort = opts.integrationPort ?? process.env.COUNTERPAY_INTEGRATION_PORT;
    const held = await startRestartableCore(
      {
        ...(integrationPort !== undefined && integrationPort !== ''
          ? { integrations: { port: Number(integrationPort) } }
          : {}),
        shell: 'browser',
        version: opts.version,
        dataDir: opts.dataDir,
        store,
        vault,
        events,
        logger: opts.logger,
        clock: systemClock,
        ...(opts.logFiles ? { logFiles: opts.logFiles } : {}),
      },
      folder.notices,
    );
    const shell = await startBrowserShell({
      dispatch: (n, a, c) => held.core.dispatch(n, a, c),
      events,
      rendererDir: opts.rendererDir,
      logger: opts.logger,
      testHooks: opts.testHooks === true,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    });
    return {
      get core() {
        return held.core;
      },
      shell,
      async close() {
        await shell.close();
        await held.core.stop();
        folder.lock.release();
      },
    };
  } catch (e) {
    folder.lock.release();
    throw e;
  }
}
