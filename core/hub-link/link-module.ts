// The counter's link to a CounterPay Hub as a core module: built from its parts — what is kept of
// the enrollment (enrollment-store.ts), joining and leaving (enrollment.ts), the links while
// enrolled with their check timer and the revocation (link-runner.ts), what the status bar and
// Settings → Hub show (link-status.ts), the branch's programme (programme-link.ts) and the seat
// check (link-seat-check.ts). A counter with no Hub works exactly as without.
import type { hubCalls } from '../../shared/contract-hub-link';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { JournalSink } from '../journal-sink';
import type { SeatCheck } from '../programme';
import { systemTimers, type Timers } from '../lib';
import { EnrollmentStore } from './enrollment-store';
import { Enrollment } from './enrollment';
import { createHubClient, type HubClient } from './link-client';
import { hubSeatCheck } from './link-seat-check';
import { hubApprovalCodes, type HubApprovalCodes } from './link-approvals';
import { hubSeatHolds, hubSeatTaken, SEAT_HOLD_MARGIN_MS } from './link-seat-holds';
import type { SeatHolds, SeatTakenSource } from '../../shared/seats';
import type { RelayHealthSource } from '../orders';
import type { HubConnectionSource } from './link-types';
import { HUB_CHECK_EVERY_MS, LinkRunner } from './link-runner';
import { LinkStatus } from './link-status';
import { ProgrammeLink, type ProgrammePort } from './programme-link';
import { CatalogueLink, type CataloguePort } from './catalogue-link';
import { createRelayConsumer, type RelayConsumerDeps } from './relay-consumer';
import { createSyncPusher } from './sync-pusher';

export { HUB_SETTINGS_KEY, HUB_VAULT_SCOPE } from './enrollment-store';
export { hubLinkStatus, type LastCheck } from './link-status';
export { HUB_CHECK_EVERY_MS } from './link-runner';

interface HubLinkModuleDeps {
  version: string;
  ingest: RelayConsumerDeps['ingest'];
  /** The relay's health while it runs (the poller backs off while healthy), null when it stops. */
  onRelayHealth(source: RelayHealthSource | null): void;
  /** Payments the counter is still waiting for (told to the Hub on every sync). */
  openPayments: () => number;
  /** The counter's programme: the Hub version of its copy (null: none from the Hub), and the one way in. */
  programme?: ProgrammePort;
  /** The counter's concessions catalogue (core/catalogue, `source: 'hub'`): pulled whenever the programme's version is told. */
  catalogue?: CataloguePort;
  /** The Hub says a show's seats changed (`event: seats`): the seat map emits `seats.changed`. */
  onSeatsChanged?: (showKey: string) => void;
  /** This counter's own seat holds, asked without a Hub or when it does not answer in time. */
  localSeatHolds?: SeatHolds;
  client?: HubClient;
  timers?: Timers;
  checkEveryMs?: number;
}

/** What the Hub link takes of the core: the journal sink is its own outbox's, handed back by the root. */
type HubLinkContext = Pick<CoreServices, 'db' | 'store' | 'vault' | 'settings' | 'events' | 'logger' | 'clock'> & {
  journalSink: JournalSink;
};

export function createHubLinkModule(ctx: HubLinkContext, deps: HubLinkModuleDeps) {
  const { logger, clock, settings } = ctx;
  const client = deps.client ?? createHubClient();
  const timers = deps.timers ?? systemTimers;

  // The credential is read from the vault once per enrollment, not on every call.
  const enrollment = new EnrollmentStore(ctx);
  const connection: HubConnectionSource = () => enrollment.connection();
  /** The seat maps of a practice profile (Demo, Sandbox) are apart from real ones (app-core's `practice`). */
  const practice = () => settings.activeProfile() !== 'production';

  // The parts tell each other through these closures; all of them are built before any runs.
  const programme = deps.programme
    ? new ProgrammeLink({ programme: deps.programme, connection, client, logger, running: () => runner.isRunning() })
    : null;
  const catalogue = deps.catalogue
    ? new CatalogueLink({ catalogue: deps.catalogue, connection, client, logger, running: () => runner.isRunning() })
    : null;
  const pusher = createSyncPusher({
    db: ctx.db,
    connection,
    client,
    clock,
    timers,
    logger,
    // The app's one sink: every journal append kicks the pusher.
    journalSink: ctx.journalSink,
    status: () => ({ appVersion: deps.version, profile: settings.activeProfile(), openPayments: deps.openPayments() }),
    onChange: () => status.changed(),
    onRefused: (e) => runner.refused(e),
  });
  const relay = createRelayConsumer({
    db: ctx.db,
    connection,
    client,
    clock,
    timers,
    logger,
    ingest: deps.ingest,
    onRefused: (e) => runner.refused(e),
    onProgramme: (version) => {
      programme?.told(version);
      void catalogue?.told();
    },
    practice,
    onSeats: (showKey) => {
      try {
        deps.onSeatsChanged?.(showKey);
      } catch (e) {
        logger.error('seats changed listener failed', { error: e instanceof Error ? e.message : String(e) });
      }
    },
  });
  const runner = new LinkRunner({
    enrollment,
    pusher,
    relay,
    client,
    clock,
    logger,
    timers,
    checkEveryMs: deps.checkEveryMs ?? HUB_CHECK_EVERY_MS,
    onRelayHealth: (s) => deps.onRelayHealth(s),
    changed: () => status.changed(),
  });
  const status = new LinkStatus({
    enrollment,
    settings,
    events: ctx.events,
    pusher,
    relay,
    running: () => runner.isRunning(),
    lastCheck: () => runner.lastCheck(),
  });
  const joining = new Enrollment({
    version: deps.version,
    enrollment,
    settings,
    client,
    clock,
    logger,
    runner,
    pusher,
    relay,
    status,
  });

  // The stream asks for the seat changes of the kind this counter shows: a switch between a practice
  // profile (Demo, Sandbox) and Production opens it again, asking for the other kind.
  let practiceNow = practice();
  const offPractice = settings.onChange(() => {
    if (practice() === practiceNow) return;
    practiceNow = practice();
    if (connection()) relay.reconnect();
  });

  relay.onChange((healthy) => {
    status.changed();
    // Connected: the branch's catalogue may have changed meanwhile (a branch with no programme is told nothing).
    if (healthy) void catalogue?.told();
    // The stream dropped: is the Hub gone, or did it just close this stream? Ask at once.
    if (!healthy && runner.isRunning()) void runner.check();
  });

  const handlers: CoreModule<typeof hubCalls>['handlers'] = {
    'hub.status': () => status.view(),
    'hub.enroll': (a) => joining.join(a),
    'hub.leave': () => joining.leave(),
    'hub.checkNow': async () => {
      if (connection()) {
        relay.reconnect();
        pusher.kick();
        await runner.check();
      }
      return status.view();
    },
  };

  return {
    handlers,
    /** The journal sink the journal owners append to (inside their own transactions). */
    sink: pusher.sink,
    connection,
    /** The seat check over the Hub, or null without one (the programme module then says "skipped"). */
    seatCheck: (): SeatCheck | null => hubSeatCheck({ connection, client, settings }),
    /** The checkout's seat holds: through the Hub when enrolled (bounded wait), else this counter's own. */
    seatHolds: (): SeatHolds =>
      hubSeatHolds({
        connection,
        client,
        logger,
        local: deps.localSeatHolds,
        holdMs: () => settings.profile(settings.activeProfile()).orderExpireSeconds * 1000 + SEAT_HOLD_MARGIN_MS,
      }),
    /** A manager's one-time approval codes, redeemed at the Hub (the engine's ApprovalCodes port); null without a Hub. */
    approvalCodes: (): HubApprovalCodes | null => hubApprovalCodes({ connection, client }),
    /** The seats other counters took, for the seat map (throws without a Hub: the map then shows its own sales). */
    seatTaken: (): SeatTakenSource => hubSeatTaken({ connection, client }),
    /** Send the outbox now (a sale was just made: other counters' seat checks see it sooner). */
    syncSoon: () => {
      if (runner.isRunning()) pusher.kick();
    },
    /** The status bar's Hub part. */
    status: () => status.status(),
    view: () => status.view(),
    /** "Enrolled as Counter 2 since 18:02": for logs and diagnostics, no secret. */
    describe: () => enrollment.describe(),
    async start(): Promise<void> {
      if (connection()) await runner.start();
      runner.scheduleCheck();
    },
    async stop(): Promise<void> {
      offPractice();
      runner.newQuestion();
      await runner.stop();
    },
  };
}
