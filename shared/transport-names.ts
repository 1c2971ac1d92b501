// The names both sides of a transport must spell alike: the Electron IPC channels (main and
// preload) and the browser shell's token header (its server and the renderer's fetch bridge).

/** ipcRenderer.invoke → ipcMain.handle: one contract call (name, args) answered with a Result. */
export const CALL_CHANNEL = 'counterpay:call';
/** webContents.send → ipcRenderer.on: one contract event (name, payload). */
export const EVENT_CHANNEL = 'counterpay:event';
/** The browser shell's one-time launch token travels in this header when the page opens its session (POST /api/session); a tool's own session travels in it on every request. */
export const TOKEN_HEADER = 'x-counterpay-token';
