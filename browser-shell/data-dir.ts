// Where the browser shell keeps its data: --data-dir, else COUNTERPAY_DATA_DIR, else the
// user's config folder (separate from the desktop app's, whose keys are in the OS keychain).
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultBrowserDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.COUNTERPAY_DATA_DIR) return env.COUNTERPAY_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'CounterPay-browser');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'CounterPay-browser');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'CounterPay-browser');
}
