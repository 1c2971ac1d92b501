// Secrets encrypted with the OS keychain through safeStorage before they reach electron-store,
// refused when the keychain is missing or is Linux's fixed-key fallback (safe-storage-policy.ts).
import { safeStorage } from 'electron';
import type { StringCipher } from '../../core/settings';
import { safeStorageVerdict } from './safe-storage-policy';

function linuxBackend(): string | null {
  try {
    return process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
  } catch {
    return null;
  }
}

export function safeStorageCipher(): StringCipher {
  const verdict = safeStorageVerdict({
    platform: process.platform,
    available: safeStorage.isEncryptionAvailable(),
    backend: linuxBackend(),
  });
  if (!verdict.ok) throw new Error(verdict.message);
  return {
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher, 'base64')),
  };
}
