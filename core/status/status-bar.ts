// The status bar's snapshot: the profile in use, the provider and clock as measured, the
// terminal link, the sale queue and the Hub link, pushed to the screen whenever one of them changes.
import type { StatusSnapshot } from '../../shared/contract';
import { HUB_NOT_SET_UP, type HubStatus } from '../../shared/hub-link';
import type { TerminalState } from '../../shared/terminal';
import { readDisk } from '../backup';
import type { EventBus } from '../events';
import type { ProviderLink } from '../provider';
import type { SettingsService } from '../settings';
import type { TerminalLink } from '../terminal';

interface StatusBarDeps {
  /** The data folder, whose disk the bar watches. */
  dataDir: string;
  settings: SettingsService;
  provider: () => Pick<ProviderLink, 'providerPart' | 'clockPart'>;
  terminal: TerminalLink;
  events: EventBus;
  /** The Hub link's part (the hub module, built after the bar). */
  hubLink?: () => HubStatus;
}

function terminalPart(t: TerminalState): StatusSnapshot['terminal'] {
  const state = t.status === 'disconnected' ? 'not-connected' : t.status;
  const detail =
    t.lastError ??
    (t.status === 'manual'
      ? 'Serial number typed by hand'
      : t.portPath
        ? `Serial port ${t.portPath}`
        : 'No terminal chosen yet');
  return { state, sn: t.sn, detail };
}

export function createStatusBar(deps: StatusBarDeps) {
  let queue: StatusSnapshot['queue'] = { length: 0, online: true };
  const snapshot = (): StatusSnapshot => {
    const name = deps.settings.activeProfile();
    const provider = deps.provider();
    return {
      profile: name,
      counterName: deps.settings.profile(name).counterName,
      provider: provider.providerPart(),
      clock: provider.clockPart(),
      terminal: terminalPart(deps.terminal.getState()),
      queue,
      disk: readDisk(deps.dataDir),
      hub: deps.hubLink?.() ?? HUB_NOT_SET_UP,
    };
  };
  const publish = () => deps.events.emit('status.changed', snapshot());
  return {
    snapshot,
    publish,
    /** The sale queue changed (length, online): the bar shows it at once. */
    setQueue(q: StatusSnapshot['queue']): void {
      queue = q;
      publish();
    },
  };
}
export type StatusBar = ReturnType<typeof createStatusBar>;
