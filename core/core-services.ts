// The shared services the composition root (app-core.ts) builds before any module. A module names
// the ones it needs as a Pick of these, and what it takes of other modules in its own context
// type: its limits are visible in its signature. This file imports only the foundations (db,
// settings, events, shared); a module that one of them pulls in (settings) declares its context
// without it.
import type { Clock } from '../shared/clock';
import type { Logger } from '../shared/logger';
import type { Db } from './db';
import type { EventBus } from './events';
import type { KeyValueStore, SecretVault, SettingsService } from './settings';

export interface CoreServices {
  shell: 'electron' | 'browser';
  dataDir: string;
  db: Db;
  store: KeyValueStore;
  settings: SettingsService;
  /** Where secrets live (keys per profile, the Hub credential): never logged, never in a view. */
  vault: SecretVault;
  events: EventBus;
  logger: Logger;
  clock: Clock;
}
