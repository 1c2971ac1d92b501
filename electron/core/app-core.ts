// The composition root: builds every core service from its dependencies, once, for either
// shell (Electron or browser). Transports only see `dispatch` and `hub`.
import { createDispatcher, type Handlers } from '../../shared/contract-kit';
import { calls, type Calls, type StatusSnapshot } from '../../shared/contract';
import type { Clock } from './clock';
import { createEventHub } from './event-hub';
import type { Logger } from './log';
import type { KeyValueStore } from './settings/kv-store';
import type { SecretVault } from './settings/secret-vault';
import { createSettingsService } from './settings/settings-service';

export interface CoreDeps {
  shell: 'electron' | 'browser';
  version: string;
  dataDir: string;
  store: KeyValueStore;
  vault: SecretVault;
  logger: Logger;
  clock: Clock;
}

export async function createCore(deps: CoreDeps) {
  const { logger } = deps;
  const hub = createEventHub();
  const settings = createSettingsService({ store: deps.store, vault: deps.vault, logger, clock: deps.clock });

  let provider: StatusSnapshot['provider'] = { state: 'unknown', detail: 'Not connected yet' };
  let terminal: StatusSnapshot['terminal'] = { state: 'not-connected', sn: null, detail: 'No terminal chosen yet' };
  let queue: StatusSnapshot['queue'] = { length: 0, online: true };

  const status = (): StatusSnapshot => {
    const name = settings.activeProfile();
    return { profile: name, counterName: settings.profile(name).counterName, provider, terminal, queue };
  };
  const publishStatus = () => hub.emit('status.changed', status());
  settings.onChange(publishStatus);

  if (settings.activeProfile() === 'demo') {
    provider = { state: 'sandbox-not-running', detail: 'The Demo sandbox is not running' };
  }

  const handlers: Handlers<Calls> = {
    'app.info': () => ({
      version: deps.version,
      shell: deps.shell,
      dataDir: deps.dataDir,
      secretStorage: { kind: deps.vault.kind, note: deps.vault.note },
    }),
    'status.get': () => status(),
    'settings.pinStatus': () => settings.pinStatus(),
    'settings.setPin': (a) => settings.setPin(a.newPin, a.currentPin),
    'settings.unlock': (a) => settings.unlock(a.pin),
    'settings.lock': () => settings.lock(),
    'settings.getProfile': (a) => settings.view(a.profile),
    'settings.saveProfile': (a) => settings.save(a.profile, a.settings, a.secrets),
    'settings.setActiveProfile': (a) => {
      settings.setActive(a.profile);
      return status();
    },
  };

  const dispatch = createDispatcher(calls, handlers, {
    log: (level, msg, fields) => logger[level](msg, fields),
    requireAdmin: () => settings.requireAdmin(),
  });

  return {
    dispatch,
    hub,
    settings,
    status,
    /** For services wired in later: they report reachability, terminal and queue here. */
    setStatus(part: Partial<Pick<StatusSnapshot, 'provider' | 'terminal' | 'queue'>>) {
      if (part.provider) provider = part.provider;
      if (part.terminal) terminal = part.terminal;
      if (part.queue) queue = part.queue;
      publishStatus();
    },
    async stop() {
      /* services with resources register here as they are added */
    },
  };
}
export type Core = Awaited<ReturnType<typeof createCore>>;
