// Electron glue: app lifecycle, the window, IPC, safeStorage and electron-store around the core.
import { app, BrowserWindow } from 'electron';
import Store from 'electron-store';
import { join } from 'node:path';
import { createCore } from '../core/app-core';
import { systemClock } from '../core/clock';
import { consoleLogger } from '../core/log';
import { openFileLogger } from '../core/logging';
import { encryptedStoreVault } from '../core/settings';
import { wireIpc } from './ipc-transport';
import { electronSystemPrinter } from './print-system';
import { safeStorageCipher } from './safe-storage-cipher';
import { rendererUrlPrefix } from './sender-url';
import { createMainWindow } from './window';

// Until the data folder is known (after whenReady) the console is the only place to log.
const bootLogger = consoleLogger('main');

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  const logger = await openFileLogger({ dir: join(dataDir, 'logs'), scope: 'main', echo: bootLogger });
  logger.info('desktop app started', { version: app.getVersion(), dataDir });
  // Only watches (the process still dies as Electron decides); the write is synchronous.
  process.on('uncaughtExceptionMonitor', (e, origin) => logger.error('main process is crashing', { origin, error: e instanceof Error ? e : String(e), stack: e instanceof Error ? e.stack : undefined }));
  const store = new Store<Record<string, unknown>>({ name: 'settings' });
  const kv = { get: (k: string) => store.get(k), set: (k: string, v: unknown) => store.set(k, v), delete: (k: string) => store.delete(k) };
  const vault = encryptedStoreVault(kv, safeStorageCipher(), 'Desktop app: keys are encrypted with the OS keychain (safeStorage) before they are stored.');
  const core = await createCore({ shell: 'electron', version: app.getVersion(), dataDir, store: kv, vault, logger, logFiles: logger, clock: systemClock, systemPrinter: electronSystemPrinter() });

  const rendererIndex = join(__dirname, '../renderer/index.html');
  const rendererPrefix = rendererUrlPrefix(join(__dirname, '../renderer'));
  let win: BrowserWindow | null = createMainWindow(rendererIndex);
  const unwire = wireIpc(core.dispatch, core.hub, () => (win && !win.isDestroyed() ? win.webContents : null), rendererPrefix);
  win.on('closed', () => (win = null));

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
    void core.stop().finally(() => logger.close());
  });
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();
else
  start().catch((e) => {
    bootLogger.error('CounterPay could not start', { error: e instanceof Error ? e.message : String(e) });
    app.exit(1);
  });
