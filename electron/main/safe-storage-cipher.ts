// Secrets encrypted with the OS keychain through safeStorage before they reach electron-store.
import { safeStorage } from 'electron';
import type { StringCipher } from '../core/settings/secret-vault';

export function safeStorageCipher(): StringCipher {
  if (!safeStorage.isEncryptionAvailable()) {
    throw new Error('The OS keychain is not available, so keys cannot be stored safely. Unlock the keychain (or use the browser shell) and start again.');
  }
  return {
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher, 'base64')),
  };
}
