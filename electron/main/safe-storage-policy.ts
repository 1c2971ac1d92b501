// Whether the OS keychain behind Electron's safeStorage protects keys well enough. On Linux without
// a keyring safeStorage falls back to "basic_text": encryption with a fixed, public key, which is
// no protection at all. Pure, so it is tested without Electron.

type SafeStorageVerdict =
  { ok: true } | { ok: false; reason: 'unavailable' | 'basic_text' | 'unknown'; message: string };

interface SafeStorageFacts {
  platform: NodeJS.Platform;
  available: boolean;
  /** safeStorage.getSelectedStorageBackend() on Linux; null elsewhere or when it cannot be read. */
  backend: string | null;
}

const LINUX_KEYRINGS = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);
const LINUX_FIX =
  'Install and unlock a keyring: GNOME Keyring (apt-get install gnome-keyring libsecret-1-0) or KWallet, log in to the desktop session again, then start CounterPay. Or use the browser shell, which keeps keys in a file readable only by this user.';

export function safeStorageVerdict(f: SafeStorageFacts): SafeStorageVerdict {
  if (!f.available) {
    return {
      ok: false,
      reason: 'unavailable',
      message: `The OS keychain is not available, so keys cannot be stored safely. ${f.platform === 'linux' ? LINUX_FIX : 'Unlock the keychain (or use the browser shell) and start again.'}`,
    };
  }
  if (f.platform !== 'linux') return { ok: true }; // DPAPI on Windows, Keychain on macOS
  if (f.backend !== null && LINUX_KEYRINGS.has(f.backend)) return { ok: true };
  if (f.backend === 'basic_text') {
    return {
      ok: false,
      reason: 'basic_text',
      message: `No keyring was found, so the keychain would only hide keys with a fixed key anyone can read. ${LINUX_FIX}`,
    };
  }
  return {
    ok: false,
    reason: 'unknown',
    message: `The keychain's storage could not be identified (${f.backend ?? 'none reported'}), so keys cannot be stored safely. ${LINUX_FIX}`,
  };
}
