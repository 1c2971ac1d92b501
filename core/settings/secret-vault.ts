// Where keys live. Electron: encrypted with safeStorage (the OS keychain) inside the settings
// store. Browser shell: a file only the user can read; the OS keychain is not used there.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { keepLastGood } from '../data-folder';
import type { KeyValueStore } from './kv-store';

export interface SecretVault {
  readonly kind: 'os-keychain' | 'file';
  /** Shown on the Settings screen so the IT person knows where keys are kept. */
  readonly note: string;
  get(scope: string, name: string): string | null;
  /** Writes several secrets at once; `null` deletes. All or nothing. */
  setMany(scope: string, values: Record<string, string | null>): void;
}

export interface StringCipher {
  encrypt(plain: string): string; // base64
  decrypt(cipher: string): string;
}

/** Secrets encrypted by `cipher` (Electron safeStorage) and kept in the settings store. */
export function encryptedStoreVault(store: KeyValueStore, cipher: StringCipher, note: string): SecretVault {
  const key = (scope: string) => `secrets.${scope}`;
  const read = (scope: string) => (store.get(key(scope)) as Record<string, string> | undefined) ?? {};
  return {
    kind: 'os-keychain',
    note,
    get(scope, name) {
      const c = read(scope)[name];
      return c === undefined ? null : cipher.decrypt(c);
    },
    setMany(scope, values) {
      const next = { ...read(scope) };
      for (const [name, v] of Object.entries(values)) {
        if (v === null) delete next[name];
        else next[name] = cipher.encrypt(v);
      }
      store.set(key(scope), next);
    },
  };
}

/** Secrets in a JSON file with mode 0600 (browser shell). Written atomically; each write also refreshes the last good copy. */
export function fileVault(file: string): SecretVault {
  const readAll = (): Record<string, Record<string, string>> => {
    if (!existsSync(file)) return {};
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    } catch {
      throw new Error(`The secrets file ${file} is damaged; move it aside and enter the keys again.`);
    }
  };
  return {
    kind: 'file',
    note: `Browser shell: keys are kept in ${file}, readable only by this user account. The OS keychain is not used in this shell; use the desktop app for that.`,
    get(scope, name) {
      return readAll()[scope]?.[name] ?? null;
    },
    setMany(scope, values) {
      const all = readAll();
      const cur = { ...(all[scope] ?? {}) };
      for (const [name, v] of Object.entries(values)) {
        if (v === null) delete cur[name];
        else cur[name] = v;
      }
      all[scope] = cur;
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, file);
      keepLastGood(file);
    },
  };
}
