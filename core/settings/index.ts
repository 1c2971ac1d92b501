// The settings module's public face: what other modules may import.
export { confStore, withLastGood, type KeyValueStore } from './kv-store';
export { type SecretVault, type StringCipher, encryptedStoreVault, fileVault } from './secret-vault';
export { type SettingsService, createSettingsService } from './settings-service';
export { createSettingsModule } from './settings-module';
