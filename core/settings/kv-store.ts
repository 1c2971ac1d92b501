// The settings store as the core sees it. electron-store (Electron) and conf (browser shell) both
// fit it and write the same JSON format; tests use conf on a temp folder.
import Conf from 'conf';
import { keepLastGood } from '../data-folder';
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/**
 * An in-memory store (tests, and a fallback for read-only folders).
 * @internal for tests
 */
export function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const data = new Map(Object.entries(initial));
  return {
    get: (k) => structuredClone(data.get(k)),
    set: (k, v) => void data.set(k, structuredClone(v)),
    delete: (k) => void data.delete(k),
  };
}

/** The browser shell's store (and the tests'): conf's settings.json in `dataDir`, mode 0600 (it holds the PIN's hash). */
export function confStore(dataDir: string): KeyValueStore {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'counterpay',
    configFileMode: 0o600,
  });
  return { get: (k) => conf.get(k), set: (k, v) => conf.set(k, v), delete: (k) => conf.delete(k) };
}

/** A settings store whose every successful write also refreshes the last good copy of `file`. */
export function withLastGood(store: KeyValueStore, file: string): KeyValueStore {
  return {
    get: (k) => store.get(k),
    set(k, v) {
      store.set(k, v);
      keepLastGood(file);
    },
    delete(k) {
      store.delete(k);
      keepLastGood(file);
    },
  };
}
