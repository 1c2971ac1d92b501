// Settings and secrets files that survive a half-written save. After every successful write the
// file is copied to a "last good" copy; at start a file that cannot be read is moved aside (kept,
// never deleted) and the last good copy takes its place. What happened is returned as a notice
// for the banner.
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
} from 'node:fs';
import type { RecoveryNotice } from '../../shared/backups';

export const lastGoodPath = (file: string) => file.replace(/\.json$/, '') + '.last-good.json';

function readsAsJsonObject(file: string): boolean {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

/** Copies `from` to `to` through a temp file, flushed, then renamed: `to` is always whole. */
export function copyAtomic(from: string, to: string, mode = 0o600): void {
  const tmp = `${to}.${process.pid}.tmp`;
  copyFileSync(from, tmp);
  chmodSync(tmp, mode);
  const fd = openSync(tmp, 'r+', mode);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, to);
}

/**
 * Run before the store opens `file`. `what` names it for the cashier ("settings", "keys").
 * Returns null when the file is fine or absent.
 */
export function recoverJsonFile(file: string, what: 'settings' | 'keys', now: number): RecoveryNotice | null {
  if (!existsSync(file) || readsAsJsonObject(file)) return null;
  const keptAs = `${file}.damaged-${stamp(now)}`;
  renameSync(file, keptAs);
  const good = lastGoodPath(file);
  if (existsSync(good) && readsAsJsonObject(good)) {
    copyAtomic(good, file);
    const savedAt = statSync(good).mtimeMs;
    return {
      kind: what === 'settings' ? 'settings-restored' : 'keys-restored',
      message: `The ${what} file could not be read, so CounterPay went back to its last good copy from ${new Date(savedAt).toISOString()}. Changes saved after that time were lost; check Settings.`,
      keptAs,
      at: now,
    };
  }
  return {
    kind: what === 'settings' ? 'settings-reset' : 'keys-reset',
    message:
      what === 'settings'
        ? 'The settings file could not be read and there was no good copy, so CounterPay started in Demo with default settings. An admin must set the PIN and profiles again.'
        : 'The keys file could not be read and there was no good copy: the admin must enter the merchant keys again in Settings.',
    keptAs,
    at: now,
  };
}

/** After each successful write, the file as written becomes the last good copy. */
export function keepLastGood(file: string): void {
  try {
    if (existsSync(file) && readsAsJsonObject(file)) copyAtomic(file, lastGoodPath(file));
  } catch {
    // A full disk must not fail a save that did succeed: the older good copy is still good.
  }
}
