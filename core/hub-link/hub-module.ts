// The counter's link to a CounterPay Hub as a core module: joining with a one-time code, leaving,
// the sync pusher and the relay consumer run while enrolled, and what the status bar and Settings →
// Hub show. The Hub's address, the counter's id, branch and name are kept in settings (key `hub`);
// the credential in the vault (scope `hub`): never logged, never in a view or an event.
// With the link up it also keeps the counter's programme in step with the branch's on the Hub (told
// on the relay stream, fetched, handed to the programme module) and answers the seat check.
import type { hubCalls } from '../../shared/contract-hub-link';
import { AppError } from '../../shared/errors';
import { EnrollResponseSchema, MeResponseSchema } from '../../shared/hub-contract';
import { HubProgrammeSchema, SeatCheckResponseSchema } from '../../shared/hub-programme-contract';
import type { Programme, SeatConflict } from '../../shared/programme';
import { HUB_NOT_SET_UP, HUB_REVOKED_TEXT, hubUrlWarning, type HubLinkView, type HubStatus } from '../../shared/hub-link';
import { PROFILE_LABELS } from '../../shared/settings';
import { formatLagosDateTime } from '../../shared/time';
import type { CoreModule, ModuleContext } from '../core-module';
import type { SeatCheck } from '../programme';
import { systemTimers, type TimerHandle, type Timers } from '../lib';
import { createHubClient, HubCallError, type HubClient } from './hub-client';
import type { HubConnection, HubConnectionSource, RelayHealthSource } from './hub-types';
import { createRelayConsumer, type RelayConsumerDeps } from './relay-consumer';
import { createSyncPusher, type SyncState } from './sync-pusher';

export const HUB_SETTINGS_KEY = 'hub';
export const HUB_VAULT_SCOPE = 'hub';
const CREDENTIAL = 'credential';
/** While enrolled, the counter asks the Hub who it is this often (a revocation is seen within it). */
export const HUB_CHECK_EVERY_MS = 60_000;
const CHECK_TIMEOUT_MS = 8_000;
const ENROLL_TIMEOUT_MS = 15_000;
/** The programme module gives up at 300 ms anyway; this only bounds the request. */
const SEAT_CHECK_TIMEOUT_MS = 2_000;

/** What settings keep of an enrollment (no secret). */
interface HubSaved {
  url: string;
  counterId: string;
  branch: string;
  counterName: string;
  enrolledAt: number;
  revokedAt: number | null;
  revokedWhy: string | null;
}

export interface LastCheck {
  at: number;
  ok: boolean;
  message: string;
}

export interface HubModuleDeps {
  version: string;
  ingest: RelayConsumerDeps['ingest'];
  /** The relay's health while it runs (the poller backs off while healthy), null when it stops. */
  onRelayHealth(source: RelayHealthSource | null): void;
  /** Payments the counter is still waiting for (told to the Hub on every sync). */
  openPayments: () => number;
  /** The Hub part of the status bar changed. */
  onStatus: () => void;
  /** The counter's programme: the Hub version of its copy (null: none from the Hub), and the one way in. */
  programme?: {
    /** The Hub version of the copy, when it came with this enrollment (`counterId`). */
    heldVersion(counterId: string): number | null;
    replace(version: number, programme: Programme, counterId: string): void;
  };
  client?: HubClient;
  timers?: Timers;
  checkEveryMs?: number;
}

/** The last check's message when nothing answered at the address. */
const NO_ANSWER = 'no answer';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The status bar's Hub part from what the module knows: connected only while the relay stream is
 * healthy and sync is not failing; offline once the Hub failed to answer (or sync fails); until
 * then, connecting.
 */
export function hubLinkStatus(i: {
  saved: Pick<HubSaved, 'url' | 'revokedAt' | 'revokedWhy'> | null;
  relayHealthy: boolean;
  sync: SyncState;
  toSync: number;
  lastCheck: LastCheck | null;
  /** The sync pusher stopped for good (see SyncPusher.problem). */
  syncProblem?: string | null;
}): HubStatus {
  if (!i.saved) return HUB_NOT_SET_UP;
  const { url } = i.saved;
  const waiting = i.toSync > 0 ? `${plural(i.toSync, 'event')} ${i.toSync === 1 ? 'waits' : 'wait'} to be sent` : 'nothing waits to be sent';
  if (i.saved.revokedAt !== null) return { state: 'revoked', toSync: i.toSync, detail: i.saved.revokedWhy ?? HUB_REVOKED_TEXT };
  if (i.syncProblem) {
    return {
      state: 'offline', toSync: i.toSync,
      detail: `This counter's journal no longer matches the Hub's copy, so syncing stopped (${i.syncProblem.replace(/ Syncing stopped; tell the Hub administrator\.$/, '')}). Sales go on. To send this counter's records again, the manager revokes it on the Hub and you join again with a new code (Settings → Hub → Leave, then Join).`,
    };
  }
  if (i.relayHealthy && i.sync !== 'offline') {
    return { state: 'connected', toSync: i.toSync, detail: `Connected to the Hub at ${url}: payment notifications come through it; ${waiting}.` };
  }
  if (i.sync === 'offline' || i.lastCheck?.ok === false) {
    // "No answer" is what "cannot be reached" already says; any other failure is worth its words.
    const why = i.lastCheck?.ok === false && i.lastCheck.message !== NO_ANSWER ? ` (${i.lastCheck.message})` : '';
    return {
      state: 'offline', toSync: i.toSync,
      detail: `The Hub at ${url} cannot be reached${why}. Sales go on; ${i.toSync > 0 ? `${waiting} and ${i.toSync === 1 ? 'goes' : 'go'} when the Hub is back` : waiting}. If this lasts, check this PC's network or tell the manager.`,
    };
  }
  return { state: 'connecting', toSync: i.toSync, detail: `Connecting to the Hub at ${url}…` };
}

function readSaved(raw: unknown): HubSaved | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : null);
  const url = str('url');
  const counterId = str('counterId');
  const branch = str('branch');
  if (!url || !counterId || !branch) return null;
  return {
    url, counterId, branch,
    counterName: str('counterName') ?? '',
    enrolledAt: typeof r.enrolledAt === 'number' ? r.enrolledAt : 0,
    revokedAt: typeof r.revokedAt === 'number' ? r.revokedAt : null,
    revokedWhy: str('revokedWhy'),
  };
}

/** What the cashier is told when the Hub refuses or cannot be asked to enroll. */
function enrollRefusal(e: unknown, url: string): unknown {
  if (!(e instanceof HubCallError)) return e;
  switch (e.code) {
    case 'HUB_UNREACHABLE':
      return new AppError('HUB_UNREACHABLE', `No Hub answered at ${url}. Check the address, that the Hub is running, and that this PC is on the network; then try again.`, { reason: e.message });
    case 'HUB_BAD_ANSWER':
    case 'HUB_NOT_FOUND':
      return new AppError('HUB_NOT_A_HUB', `${url} answered, but it is not a CounterPay Hub. Check the address: the Hub prints it when it starts.`, {
        fields: { hubUrl: 'This address is not a CounterPay Hub' }, reason: e.message,
      });
    case 'HUB_ENROLL_CODE_INVALID':
      return new AppError('HUB_CODE_INVALID', 'The Hub does not accept this code: it is unknown, already used or expired. Ask the manager for a new code.', {
        fields: { code: 'Unknown, already used or expired: ask the manager for a new code' },
      });
    case 'HUB_RATE_LIMITED':
      return new AppError('HUB_REFUSED', 'The Hub is getting too many requests from this PC. Wait a minute, then try again.');
    default:
      return new AppError('HUB_REFUSED', `The Hub refused to enroll this counter: ${e.message}`, { hubCode: e.code });
  }
}

/** The Hub will never take this credential again: the counter was removed (or the Hub forgot it). */
const refusedForGood = (e: HubCallError) => e.code === 'HUB_COUNTER_REVOKED' || e.code === 'HUB_UNAUTHENTICATED';

export function createHubModule(ctx: Pick<ModuleContext, 'db' | 'store' | 'vault' | 'settings' | 'events' | 'logger' | 'clock' | 'journalSink'>, deps: HubModuleDeps) {
  const { logger, clock } = ctx;
  const client = deps.client ?? createHubClient();
  const timers = deps.timers ?? systemTimers;
  const checkEvery = deps.checkEveryMs ?? HUB_CHECK_EVERY_MS;

  const saved = () => readSaved(ctx.store.get(HUB_SETTINGS_KEY));
  // The credential is read from the vault once per enrollment, not on every call.
  let conn: HubConnection | null | undefined;
  const connection: HubConnectionSource = () => {
    if (conn !== undefined) return conn;
    const s = saved();
    const credential = s && s.revokedAt === null ? ctx.vault.get(HUB_VAULT_SCOPE, CREDENTIAL) : null;
    conn = s && credential ? { url: s.url, counterId: s.counterId, credential, branch: s.branch } : null;
    return conn;
  };

  let lastCheck: LastCheck | null = null;
  let running = false;
  let epoch = 0; // bumped by enroll and leave: an answer to an older question is dropped
  let checkTimer: TimerHandle | null = null;
  let enrolling = false;
  let lastSent = '';

  const pusher = createSyncPusher({
    db: ctx.db, connection, client, clock, timers, logger,
    // The app's one sink: every journal append kicks the pusher.
    journalSink: ctx.journalSink,
    status: () => ({ appVersion: deps.version, profile: ctx.settings.activeProfile(), openPayments: deps.openPayments() }),
    onChange: () => changed(),
    onRefused: (e) => refused(e),
  });
  const relay = createRelayConsumer({
    db: ctx.db, connection, client, clock, timers, logger, ingest: deps.ingest, onRefused: (e) => refused(e),
    onProgramme: (version) => programmeTold(version),
  });

  // ---- the programme: told on the stream (on connect and on every change), fetched when newer ----
  let programmeWanted = 0;
  let programmeFetch: Promise<void> | null = null;
  function programmeTold(version: number): void {
    if (!deps.programme) return;
    programmeWanted = Math.max(programmeWanted, version);
    if (!programmeFetch) programmeFetch = fetchProgramme().finally(() => (programmeFetch = null));
  }
  async function fetchProgramme(): Promise<void> {
    const p = deps.programme!;
    // Until the copy is at the version told (a change told while fetching is fetched next).
    for (let tries = 0; tries < 5; tries++) {
      const c = connection();
      if (!c || !running) return;
      const held = p.heldVersion(c.counterId);
      if (held !== null && held >= programmeWanted) return;
      try {
        const got = await client.call(c, 'GET', '/programme', undefined, HubProgrammeSchema, { timeoutMs: CHECK_TIMEOUT_MS });
        if (got.programme === null || got.version === 0) return;
        if (held === null || got.version > held) {
          p.replace(got.version, got.programme, c.counterId);
          logger.info('hub: programme received', { version: got.version, shows: got.programme.shows.length });
        }
        if (got.version >= programmeWanted) return;
      } catch (e) {
        // The next connect tells the version again, so a failed fetch is retried then.
        logger.warn('hub: the programme could not be fetched; the counter keeps its copy', { code: e instanceof HubCallError ? e.code : e instanceof Error ? e.message : 'INTERNAL' });
        return;
      }
    }
  }

  /** The seat check over the Hub, or null without one (the programme module then says "skipped"). */
  function seatCheck(): SeatCheck | null {
    const c = connection();
    if (!c) return null;
    return {
      async conflicts(q, signal) {
        const profile = ctx.settings.activeProfile();
        const body = {
          show: { filmName: q.show.filmName, filmTitle: q.show.filmTitle, date: q.show.date, time: q.show.time, screen: q.show.screen },
          seats: q.seats.slice(0, 100),
          practice: profile === 'demo' || profile === 'sandbox',
        };
        const r = await client.call(c, 'POST', '/seats/check', body, SeatCheckResponseSchema, { signal, timeoutMs: SEAT_CHECK_TIMEOUT_MS });
        return r.conflicts.map((x): SeatConflict => ({ seat: x.seat, counterName: x.counterId === c.counterId ? `${x.counterName} (this counter)` : x.counterName, state: x.state, at: x.at }));
      },
    };
  }
  relay.onChange((healthy) => {
    changed();
    // The stream dropped: is the Hub gone, or did it just close this stream? Ask at once.
    if (!healthy && running) void check();
  });

  const statusPart = (): HubStatus => {
    const s = saved();
    if (!s) return HUB_NOT_SET_UP;
    return hubLinkStatus({ saved: s, relayHealthy: running && relay.healthy(), sync: running ? pusher.state() : 'off', toSync: pusher.queueLength(), lastCheck, syncProblem: running ? pusher.problem() : null });
  };

  const warnings = (s: HubSaved): string[] => {
    const out: string[] = [];
    const plain = hubUrlWarning(s.url);
    if (plain) out.push(plain);
    const active = ctx.settings.activeProfile();
    const merchant = ctx.settings.profile(active).merchantId;
    if (s.revokedAt === null && merchant !== s.branch) {
      out.push(`This counter now uses the ${PROFILE_LABELS[active]} profile${merchant ? ` (merchant ${merchant})` : ''}, but it joined the Hub for branch ${s.branch}: that profile's notifications will not come through the Hub. Leave the Hub and join again with a new code.`);
    }
    return out;
  };

  const view = (): HubLinkView => {
    const s = saved();
    const status = statusPart();
    if (!s) {
      return { ...status, hubUrl: null, counterId: null, counterName: null, branch: null, enrolledAt: null, revokedAt: null, lastSyncAt: null, lastCheck: null, relay: 'off', sync: 'off', warnings: [] };
    }
    return {
      ...status,
      hubUrl: s.url, counterId: s.counterId, counterName: s.counterName, branch: s.branch, enrolledAt: s.enrolledAt, revokedAt: s.revokedAt,
      lastSyncAt: pusher.lastSyncAt(), lastCheck,
      relay: !running ? 'off' : relay.healthy() ? 'connected' : 'not-connected',
      sync: running ? pusher.state() : 'off',
      warnings: warnings(s),
    };
  };

  /** Tells the screens and the status bar, once per real change. */
  function changed(): void {
    const v = view();
    const text = JSON.stringify(v);
    if (text === lastSent) return;
    lastSent = text;
    ctx.events.emit('hub.changed', v);
    deps.onStatus();
  }

  function scheduleCheck(): void {
    if (checkTimer !== null) timers.clearTimeout(checkTimer);
    checkTimer = running ? timers.setTimeout(() => void check(), checkEvery) : null;
  }

  /** Asks the Hub who this counter is: an answer proves it is reachable; a refusal for good means removed. */
  async function check(): Promise<void> {
    const c = connection();
    if (!c) return;
    const asked = epoch;
    let result: LastCheck;
    try {
      const me = await client.call(c, 'GET', '/me', undefined, MeResponseSchema, { timeoutMs: CHECK_TIMEOUT_MS });
      result = { at: clock.now(), ok: true, message: `The Hub knows this counter as ${me.name} (branch ${me.branch})` };
    } catch (e) {
      if (asked !== epoch) return;
      if (e instanceof HubCallError && refusedForGood(e)) {
        refused(e);
        return;
      }
      const message = e instanceof HubCallError && e.code === 'HUB_UNREACHABLE' ? NO_ANSWER
        : e instanceof HubCallError && e.code === 'HUB_BAD_ANSWER' ? 'its answer could not be read: is the address still a CounterPay Hub?'
          : e instanceof Error ? e.message : String(e);
      result = { at: clock.now(), ok: false, message };
    }
    if (asked !== epoch) return;
    lastCheck = result;
    scheduleCheck();
    changed();
  }

  async function startLinks(): Promise<void> {
    if (running) return;
    await stopping;
    if (running) return;
    running = true;
    pusher.start();
    relay.start();
    deps.onRelayHealth(relay);
    void check();
  }

  // A stop still under way (a revocation stops the links without waiting) is waited for before
  // anything starts them again.
  let stopping: Promise<void> = Promise.resolve();
  function stopLinks(): Promise<void> {
    if (!running) return stopping;
    running = false;
    scheduleCheck();
    deps.onRelayHealth(null);
    stopping = Promise.all([pusher.stop(), relay.stop()]).then(() => undefined);
    return stopping;
  }

  /** The Hub refused our credential for good: stop, forget the credential, tell the cashier. */
  function refused(e: HubCallError): void {
    if (!refusedForGood(e)) return;
    const s = saved();
    if (!s || s.revokedAt !== null) return;
    const why = e.code === 'HUB_COUNTER_REVOKED'
      ? HUB_REVOKED_TEXT
      : 'The Hub no longer knows this counter (its records may have been reset). Sales go on; ask the manager for a new code and join again.';
    epoch += 1;
    ctx.store.set(HUB_SETTINGS_KEY, { ...s, revokedAt: clock.now(), revokedWhy: why });
    ctx.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: null });
    conn = undefined;
    logger.warn('hub: this counter was refused by the Hub for good; link stopped', { hub: s.url, counterId: s.counterId, code: e.code });
    void stopLinks().then(changed, (err: unknown) => logger.error('hub: stopping the link failed', { error: err instanceof Error ? err.message : String(err) }));
    changed();
  }

  const handlers: CoreModule<typeof hubCalls>['handlers'] = {
    'hub.status': () => view(),

    'hub.enroll': async (a) => {
      const current = saved();
      if (current && current.revokedAt === null) {
        throw new AppError('CONFLICT', `This counter is already joined to the Hub at ${current.url}. Leave that Hub first, then join again.`);
      }
      if (enrolling) throw new AppError('CONFLICT', 'This counter is already joining a Hub; wait for the answer.');
      const profile = ctx.settings.activeProfile();
      const p = ctx.settings.profile(profile);
      if (!p.merchantId) {
        throw new AppError('NOT_READY', `Set the merchant ID of the ${PROFILE_LABELS[profile]} profile first (Settings → Edit ${PROFILE_LABELS[profile]}): the Hub files this counter under that branch.`);
      }
      enrolling = true;
      try {
        let r;
        try {
          r = await client.callAnonymous(a.hubUrl, 'POST', '/enroll', { code: a.code, counterName: p.counterName, branch: p.merchantId, appVersion: deps.version }, EnrollResponseSchema, { timeoutMs: ENROLL_TIMEOUT_MS });
        } catch (e) {
          logger.warn('hub: enrollment refused', { hub: a.hubUrl, code: e instanceof HubCallError ? e.code : 'INTERNAL' });
          throw enrollRefusal(e, a.hubUrl);
        }
        epoch += 1;
        await stopLinks();
        // The credential first, then the settings that point to it: a failed write leaves no half enrollment.
        ctx.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: r.credential });
        try {
          const s: HubSaved = { url: a.hubUrl, counterId: r.counterId, branch: r.branch, counterName: p.counterName, enrolledAt: clock.now(), revokedAt: null, revokedWhy: null };
          ctx.store.set(HUB_SETTINGS_KEY, s);
        } catch (e) {
          ctx.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: null });
          throw e;
        }
        conn = undefined;
        // A new Hub holds nothing of this counter yet: the outbox goes again from its first event.
        pusher.reset();
        relay.reset();
        lastCheck = null;
        logger.info('hub: counter enrolled', { hub: a.hubUrl, counterId: r.counterId, branch: r.branch });
        await startLinks();
        scheduleCheck();
        changed();
        return view();
      } finally {
        enrolling = false;
      }
    },

    'hub.leave': async () => {
      const s = saved();
      if (!s) return view();
      epoch += 1;
      await stopLinks();
      pusher.reset();
      relay.reset();
      ctx.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: null });
      ctx.store.delete(HUB_SETTINGS_KEY);
      conn = undefined;
      lastCheck = null;
      logger.info('hub: left the Hub; the outbox is kept', { hub: s.url, counterId: s.counterId });
      changed();
      return view();
    },

    'hub.checkNow': async () => {
      if (connection()) {
        relay.reconnect();
        pusher.kick();
        await check();
      }
      return view();
    },
  };

  return {
    handlers,
    /** The journal sink the journal owners append to (inside their own transactions). */
    sink: pusher.sink,
    connection,
    seatCheck,
    /** Send the outbox now (a sale was just made: other counters' seat checks see it sooner). */
    syncSoon: () => {
      if (running) pusher.kick();
    },
    /** The status bar's Hub part. */
    status: statusPart,
    view,
    /** "Enrolled as Counter 2 since 18:02": for logs and diagnostics, no secret. */
    describe(): string {
      const s = saved();
      return s ? `enrolled as ${s.counterName} (${s.counterId}, branch ${s.branch}) on ${s.url} since ${formatLagosDateTime(s.enrolledAt)}${s.revokedAt ? ', removed by the Hub' : ''}` : 'not joined to a Hub';
    },
    async start(): Promise<void> {
      if (connection()) await startLinks();
      scheduleCheck();
    },
    async stop(): Promise<void> {
      epoch += 1;
      await stopLinks();
    },
  };
}
export type HubModule = ReturnType<typeof createHubModule>;
