// What the status bar and Settings → Hub show of the link: the status (connected, connecting,
// offline, revoked, not set up) from what the parts know, the view with its warnings, and the one
// `hub.changed` event per real change.
import {
  HUB_NOT_RELAYING_TEXT,
  HUB_NOT_SET_UP,
  HUB_REVOKED_TEXT,
  hubUrlWarning,
  type HubLinkView,
  type HubStatus,
} from '../../shared/hub-link';
import { PROFILE_LABELS } from '../../shared/settings';
import type { EventBus } from '../events';
import type { SettingsService } from '../settings';
import type { EnrollmentStore, HubSaved } from './enrollment-store';
import type { RelayConsumer } from './relay-consumer';
import type { SyncPusher, SyncState } from './sync-pusher';

export interface LastCheck {
  at: number;
  ok: boolean;
  message: string;
}

/** The last check's message when nothing answered at the address. */
export const NO_ANSWER = 'no answer';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The status bar's Hub part from what the module knows: connected only while the relay stream is
 * healthy and sync is not failing; offline once the Hub failed to answer (or sync fails); until
 * then, connecting.
 */
export function hubLinkStatus(i: {
  saved: Pick<HubSaved, 'url' | 'revokedAt' | 'revokedWhy'> | null;
  relayHealthy: boolean;
  /** The relay stream is up but its Hub said it cannot verify webhooks (no merchant file). */
  hubCannotVerify?: boolean;
  sync: SyncState;
  toSync: number;
  lastCheck: LastCheck | null;
  /** The sync pusher stopped for good (see SyncPusher.problem). */
  syncProblem?: string | null;
}): HubStatus {
  if (!i.saved) return HUB_NOT_SET_UP;
  const { url } = i.saved;
  const waiting =
    i.toSync > 0
      ? `${plural(i.toSync, 'event')} ${i.toSync === 1 ? 'waits' : 'wait'} to be sent`
      : 'nothing waits to be sent';
  if (i.saved.revokedAt !== null)
    return { state: 'revoked', toSync: i.toSync, detail: i.saved.revokedWhy ?? HUB_REVOKED_TEXT };
  if (i.syncProblem) {
    return {
      state: 'offline',
      toSync: i.toSync,
      detail: `This counter's journal no longer matches the Hub's copy, so syncing stopped (${i.syncProblem.replace(/ Syncing stopped; tell the Hub administrator\.$/, '')}). Sales go on. To send this counter's records again, the manager revokes it on the Hub and you join again with a new code (Settings → Hub → Leave, then Join).`,
    };
  }
  if (i.hubCannotVerify && i.sync !== 'offline') {
    return {
      state: 'not-relaying',
      toSync: i.toSync,
      detail: `${HUB_NOT_RELAYING_TEXT} The Hub at ${url} is connected, but has no merchant keys, so payments are followed by status checks; ${waiting}.`,
    };
  }
  if (i.relayHealthy && i.sync !== 'offline') {
    return {
      state: 'connected',
      toSync: i.toSync,
      detail: `Connected to the Hub at ${url}: payment notifications come through it; ${waiting}.`,
    };
  }
  if (i.sync === 'offline' || i.lastCheck?.ok === false) {
    // "No answer" is what "cannot be reached" already says; any other failure is worth its words.
    const why = i.lastCheck?.ok === false && i.lastCheck.message !== NO_ANSWER ? ` (${i.lastCheck.message})` : '';
    return {
      state: 'offline',
      toSync: i.toSync,
      detail: `The Hub at ${url} cannot be reached${why}. Sales go on; ${i.toSync > 0 ? `${waiting} and ${i.toSync === 1 ? 'goes' : 'go'} when the Hub is back` : waiting}. If this lasts, check this PC's network or tell the manager.`,
    };
  }
  return { state: 'connecting', toSync: i.toSync, detail: `Connecting to the Hub at ${url}…` };
}

interface LinkStatusSources {
  enrollment: Pick<EnrollmentStore, 'saved'>;
  settings: Pick<SettingsService, 'activeProfile' | 'profile'>;
  events: Pick<EventBus, 'emit'>;
  pusher: Pick<SyncPusher, 'state' | 'queueLength' | 'problem' | 'lastSyncAt'>;
  relay: Pick<RelayConsumer, 'healthy' | 'hubCanVerify'>;
  /** The links run (enrolled, not revoked, started). */
  running(): boolean;
  lastCheck(): LastCheck | null;
}

export class LinkStatus {
  /** The last view told, as text: a view equal to it is not told again. */
  private lastSent = '';

  constructor(private readonly src: LinkStatusSources) {}

  /** The status bar's Hub part. */
  status(): HubStatus {
    const { src } = this;
    const s = src.enrollment.saved();
    if (!s) return HUB_NOT_SET_UP;
    const running = src.running();
    return hubLinkStatus({
      saved: s,
      relayHealthy: running && src.relay.healthy(),
      hubCannotVerify: running && src.relay.hubCanVerify() === false,
      sync: running ? src.pusher.state() : 'off',
      toSync: src.pusher.queueLength(),
      lastCheck: src.lastCheck(),
      syncProblem: running ? src.pusher.problem() : null,
    });
  }

  view(): HubLinkView {
    const { src } = this;
    const s = src.enrollment.saved();
    const status = this.status();
    if (!s) {
      return {
        ...status,
        hubUrl: null,
        counterId: null,
        counterName: null,
        branch: null,
        enrolledAt: null,
        revokedAt: null,
        lastSyncAt: null,
        lastCheck: null,
        relay: 'off',
        sync: 'off',
        warnings: [],
      };
    }
    const running = src.running();
    return {
      ...status,
      hubUrl: s.url,
      counterId: s.counterId,
      counterName: s.counterName,
      branch: s.branch,
      enrolledAt: s.enrolledAt,
      revokedAt: s.revokedAt,
      lastSyncAt: src.pusher.lastSyncAt(),
      lastCheck: src.lastCheck(),
      relay: !running
        ? 'off'
        : src.relay.healthy()
          ? 'connected'
          : src.relay.hubCanVerify() === false
            ? 'no-keys'
            : 'not-connected',
      sync: running ? src.pusher.state() : 'off',
      warnings: this.warnings(s),
    };
  }

  /** Tells the screens (and so the status bar, which follows `hub.changed`), once per real change. */
  changed(): void {
    const v = this.view();
    const text = JSON.stringify(v);
    if (text === this.lastSent) return;
    this.lastSent = text;
    this.src.events.emit('hub.changed', v);
  }

  private warnings(s: HubSaved): string[] {
    const out: string[] = [];
    const plain = hubUrlWarning(s.url);
    if (plain) out.push(plain);
    const active = this.src.settings.activeProfile();
    const merchant = this.src.settings.profile(active).merchantId;
    if (s.revokedAt === null && merchant !== s.branch) {
      out.push(
        `This counter now uses the ${PROFILE_LABELS[active]} profile${merchant ? ` (merchant ${merchant})` : ''}, but it joined the Hub for branch ${s.branch}: that profile's notifications will not come through the Hub. Leave the Hub and join again with a new code.`,
      );
    }
    return out;
  }
}
