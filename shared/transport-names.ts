// The names both sides of a transport must spell alike: the Electron IPC channels (main and
// preload) and the browser shell's token header (its server and the renderer's fetch bridge).

/** ipcRenderer.invoke → ipcMain.handle: one contract call (name, args) answered with a Result. */
export const CALL_CHANNEL = 'counterpay:call';
/** webContents.send → ipcRenderer.on: one contract event (name, payload). */
export const EVENT_CHANNEL = 'counterpay:event';
/** The browser shell's per-launch token travels in this header on every API request. */
export const TOKEN_HEADER = 'x-counterpay-token';
