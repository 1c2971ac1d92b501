// The app window with the Electron security checklist applied once: sandbox, isolation, no Node,
// no navigation, no new windows, no permissions. The CSP (shared/csp.ts) is in renderer/index.html
// and is also sent as a header on every response the window loads.
import { BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
// electron-vite copies the file next to the built main and gives its path (resources/README.md).
import icon from '../../resources/icon.png?asset';
import { CSP } from '../../shared/csp';

export function createMainWindow(rendererIndex: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 640,
    title: 'CounterPay',
    // Linux shows this in the task bar and window switcher; Windows and macOS take the icon of the
    // executable or the app bundle, and ignore it there.
    icon,
    backgroundColor: '#101418',
    show: false,
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.on('will-redirect', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url); // help links open in the real browser
    return { action: 'deny' };
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, cb) => {
    cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  win.once('ready-to-show', () => win.show());
  void win.loadFile(rendererIndex);
  return win;
}
