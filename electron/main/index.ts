// Electron glue: app lifecycle, the window, IPC, safeStorage and electron-store around the core.
import { app, BrowserWindow, dialog } from 'electron';
import Store from 'electron-store';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startRestartableCore } from '../../core/app-core';
import { systemClock } from '../../shared/clock';
import { openDataFolder, settingsFile } from '../../core/data-folder';
import { DataDirError } from '../../core/data-folder';
import { createEventBus } from '../../core/events';
import { consoleLogger } from '../../shared/logger';
import { openFileLogger } from '../../core/logging';
import { encryptedStoreVault, withLastGood } from '../../core/settings';
import { wireIpc } from './ipc-transport';
import { electronSystemPrinter } from './print-system';
import { safeStorageCipher } from './safe-storage-cipher';
import { rendererUrlPrefix } from './sender-url';
import { createMainWindow } from './window';
import { listenForChargeLinks } from './charge-links';

// Until the data folder is known (after whenReady) the console is the only place to log.
const bootLogger = consoleLogger('main');

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  // `--restore FILE` (support): a journal backup put in place before start.
  const { values } = parseArgs({
    args: process.argv.slice(1),
    options: { restore: { type: 'string' } },
    strict: false,
  });
  const restoreFrom = typeof values.restore === 'string' ? resolve(values.restore) : undefined;
  // The folder is checked, locked and repaired before anything (the log files too) is written in it.
  const folder = openDataFolder(dataDir, {
    now: systemClock.now(),
    jsonFiles: [{ file: settingsFile(dataDir), what: 'settings' }],
    ...(restoreFrom ? { restoreFrom } : {}),
  });
  app.on('will-quit', () => folder.lock.release());
  const logger = await openFileLogger({ dir: join(dataDir, 'logs'), scope: 'main', echo: bootLogger });
  logger.info('desktop app started', { version: app.getVersion(), dataDir });
  // Only watches (the process still dies as Electron decides); the write is synchronous.
  process.on('uncaughtExceptionMonitor', (e, origin) =>
    logger.error('main process is crashing', {
      origin,
      error: e instanceof Error ? e : String(e),
      stack: e instanceof Error ? e.stack : undefined,
    }),
  );
  const store = new Store<Record<string, unknown>>({ name: 'settings', configFileMode: 0o600 });
  const kv = withLastGood(
    {
      get: (k: string) => store.get(k),
      set: (k: string, v: unknown) => store.set(k, v),
      delete: (k: string) => store.delete(k),
    },
    settingsFile(dataDir),
  );
  const vault = encryptedStoreVault(
    kv,
    safeStorageCipher(),
    'Desktop app: keys are encrypted with the OS keychain (safeStorage) before they are stored.',
  );
  const events = createEventBus();
  // A restore from Settings → Backups rebuilds the core behind the same window and event bus.
  const held = await startRestartableCore(
    {
      shell: 'electron',
      version: app.getVersion(),
      dataDir,
      store: kv,
      vault,
      events,
      logger,
      logFiles: logger,
      clock: systemClock,
      systemPrinter: electronSystemPrinter(),
    },
    folder.notices,
  );

  const rendererIndex = join(__dirname, '../renderer/index.html');
  const rendererPrefix = rendererUrlPrefix(join(__dirname, '../renderer'));
  let win: BrowserWindow | null = createMainWindow(rendererIndex);
  const unwire = wireIpc(
    (n, a, c) => held.core.dispatch(n, a, c),
    events,
    () => (win && !win.isDestroyed() ? win.webContents : null),
    rendererPrefix,
  );
  win.on('closed', () => (win = null));
  links.ready(
    (url) => held.core.dispatch('integrations.openLink', { url }, { trusted: true, sender: 'os:charge-link' }),
    logger,
  );

  app.on('activate', () => {
    if (!win) {
      win = createMainWindow(rendererIndex);
      win.on('closed', () => (win = null));
    }
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    unwire();
    logger.info('desktop app quitting');
    void held.core.stop().finally(() => logger.close());
  });
}

app.enableSandbox();
// Registered before the app is ready: macOS may deliver the link that started the app at once.
const links = listenForChargeLinks(() => BrowserWindow.getAllWindows()[0]?.focus());
if (!app.requestSingleInstanceLock()) app.quit();
else
  start().catch((e) => {
    bootLogger.error('CounterPay could not start', { error: e instanceof Error ? e.message : String(e) });
    // A data folder that cannot be used gets its one sentence in a dialog, not only in a log.
    if (e instanceof DataDirError) dialog.showErrorBox('CounterPay could not start', e.message);
    app.exit(e instanceof DataDirError ? e.exitCode : 1);
  });
