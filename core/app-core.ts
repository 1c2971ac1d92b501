// The composition root: builds the shared services and the core modules from their dependencies,
// once, for either shell (Electron or browser), and wires them together. It reads in dependency
// order: each part is built from parts above it; what a part asks of one built after it (the Hub
// link's seat holds, seat check, seats taken and relay health) goes through a port built before it (`hubPorts`);
// news that goes back up (the provider's status to the bar, a bills callback to the top-ups) is
// wired with `on…` once both ends exist. Transports only see `dispatch` and `events`. Each call is
// answered by the module that owns it (core/*/…-module.ts), merged by mergeHandlers.
import { createDispatcher } from '../shared/contract-kit';
import { calls } from '../shared/contract';
import type { FieldErrors } from '../shared/errors';
import type { RecoveryNotice } from '../shared/backups';
import { createBackupsModule, type RestartWithJournal } from './backup';
import { caseCounts, createCasesModule } from './cases';
import { createCatalogueModule } from './catalogue';
import { openJournalChecked } from './data-folder';
import type { Clock } from '../shared/clock';
import { mergeHandlers } from './core-module';
import type { CoreServices } from './core-services';
import { createDeliveryModule } from './delivery';
import { createDemoModule } from './demo';
import { createDiagnosticsModule } from './diagnostics';
import { createEventBus, type EventBus } from './events';
import { boxOfficeRules, createIntegrationsModule, type IntegrationsModuleDeps } from './integrations';
import { createHubLinkModule, createOutboxSink, HubOutbox } from './hub-link';
import type { Logger } from '../shared/logger';
import type { LogFiles } from './logging';
import { createCheckoutService, createOrdersModule, OrderJournalReads } from './orders';
import { hubPorts, type SeatSources } from './hub-ports';
import { createProgrammeModule, createSeatMapModule, programmeBasketShows, programmeSeatPlanner } from './programme';
import { createProviderLink } from './provider';
import { createRecordsModule, shiftCashierAt, shiftOpenAt, type SystemPrinter } from './records';
import { createSettingsModule, createSettingsService, type KeyValueStore, type SecretVault } from './settings';
import { createStatusBar, createStatusModule } from './status';
import { createTerminalLink, createTerminalModule, type TerminalLinkDeps } from './terminal';
import { createTopupsModule } from './topups';
import { SCHEMA } from './schema';
import { createWebhookControl } from './webhook-control';

interface CoreDeps {
  shell: 'electron' | 'browser';
  version: string;
  dataDir: string;
  store: KeyValueStore;
  vault: SecretVault;
  logger: Logger;
  clock: Clock;
  /** Tests pass a mock serial port class; the app uses serialport's. */
  serialPort?: TerminalLinkDeps['SerialPort'];
  /** Off in tests that bring their own sandbox. */
  embeddedSandbox?: boolean;
  /** Electron's system printing and PDF (electron/main/print-system.ts); absent in the browser shell. */
  systemPrinter?: SystemPrinter;
  /** The log files the logger writes (for Export diagnostics); absent when logs go to the console only. */
  logFiles?: LogFiles;
  /** An event bus that outlives this core (the shells rebuild the core after a restore). */
  events?: EventBus;
  /** Files repaired or set aside before the core was built (settings, keys, a restore). */
  startupNotices?: RecoveryNotice[];
  /** Given by shells that can rebuild the core: lets Settings → Backups restore while running. */
  restartWithJournal?: RestartWithJournal;
  /** Tests: where the box-office integration API listens (port 0: a free one). */
  integrations?: IntegrationsModuleDeps;
  /** Tests: seat holds and other counters' seats from a scripted Hub (null: the Hub link's, as without). */
  seatSources?: SeatSources;
}

/** @internal for tests */
export async function createCore(deps: CoreDeps) {
  const { logger, clock } = deps;

  // ---- the shared services ----
  const events = deps.events ?? createEventBus();
  const settings = createSettingsService({ store: deps.store, vault: deps.vault, logger, clock });
  const journal = openJournalChecked(deps.dataDir, clock.now(), SCHEMA);
  const db = journal.db;
  const services: CoreServices = {
    shell: deps.shell,
    dataDir: deps.dataDir,
    db,
    store: deps.store,
    settings,
    vault: deps.vault,
    events,
    logger,
    clock,
  };

  // ---- the terminal, the Demo sandbox, the provider ----
  const terminal = createTerminalLink({ logger, ...(deps.serialPort ? { SerialPort: deps.serialPort } : {}) });
  const demo = createDemoModule({ ...services, terminal }, { embedded: deps.embeddedSandbox !== false });
  // The terminal module listens first: the screen learns of a terminal change before the Demo panel and the bar do.
  const terminalModule = createTerminalModule(
    { ...services, terminal },
    { demoSn: () => demo.current()?.merchant.terminalSn ?? null },
  );
  terminal.on('change', () => demo.terminalChanged());
  const provider = createProviderLink({
    config: () => settings.providerConfig(),
    blocked: () =>
      settings.activeProfile() === 'demo' && !demo.current()
        ? { state: 'sandbox-not-running', detail: 'The Demo sandbox is not running' }
        : null,
    clock,
    logger,
  });
  const { pos, bills } = provider;

  // ---- the checkout, writing every journal event to the Hub's outbox too ----
  // In its own transaction, Hub or not (a counter enrolled later sends its history from the first
  // event). A sale names the cashier on shift.
  const cashierAt = shiftCashierAt(db);
  const journalSink = createOutboxSink(new HubOutbox(db), { cashierAt, logger });
  // Charging needs an open shift, so every sale lands in a Z report.
  const shiftOpen = () => cashierAt(clock.now()) !== '';
  // The checkout applies it (and one unpaid order per terminal) below every door to a charge.
  // The Hub link is built after the checkout, the programme and the seat map: they ask it through these.
  const hub = hubPorts(deps.seatSources);
  // The branch's concessions catalogue (the Demo's without an import; a paid sale's items leave its stock).
  const catalogue = createCatalogueModule(services, { demo: () => settings.activeProfile() === 'demo' });
  const checkout = createCheckoutService({
    db,
    pos,
    clock,
    logger,
    journalSink,
    shiftOpen,
    // A queued sale goes only to the terminal the counter charges on when it is sent.
    terminalSn: () => terminal.getState().sn ?? null,
    // A box office's queued charge gives way to the cashier's own sale, and is not offered Try again.
    ...boxOfficeRules(db),
    // The seat rules of the programme's shows with a seat map; the holds through the Hub when the counter has one (asked per sale).
    seats: { planner: programmeSeatPlanner(db), holds: hub.seatHolds },
    basket: { show: programmeBasketShows(db), catalogue: () => catalogue.current() },
    // While the Hub's relay stream is healthy, status checks are the safety net only.
    relayHealth: hub.relayHealth,
    // An undo after the sale: the admin PIN (the settings' guard) or a Hub approval code, in a shift.
    undo: { checkPin: (pin) => settings.approveByPin(pin), approvalCodes: hub.approvalCodes, shiftAt: shiftOpenAt(db) },
    settings: () => {
      const name = settings.activeProfile();
      const p = settings.profile(name);
      return {
        counterName: p.counterName,
        headMerchantId: p.headMerchantId,
        merchantId: p.merchantId,
        orderExpireSeconds: p.orderExpireSeconds,
        profile: name,
      };
    },
  });
  checkout.on('order', (v) => catalogue.orderChanged(v));
  // The provider answers us again (clock fixed, keys fixed, network back): ask about open orders now.
  provider.on('back', () => void checkout.recheckOpen());
  // Requests stamped with the provider's time (or no longer, the PC clock fixed): ask again at once.
  provider.on('clock', () => void provider.check('clock').then(() => checkout.recheckOpen()));

  // ---- the webhook receiver, the programme and the Hub link ----
  const webhooks = createWebhookControl({
    // Webhook timestamps are the provider's: judge them by the corrected clock too.
    db,
    settings,
    logger,
    clock: provider.clock,
    demo: () => demo.current(),
    onPosNotification: (n) => checkout.onWebhook(n),
    ownsPosOrder: (n) => checkout.ownsOrder(n),
  });
  const ctx = { ...services, pos, bills, checkout, terminal, journalSink, webhookUrl: () => webhooks.url() };
  // The seat check goes through the Hub link when the counter has one.
  const programme = createProgrammeModule(ctx, { seatCheck: hub.seatCheck });
  // Seat maps: other counters' seats through the Hub when the counter has one (asked per map).
  const seatMap = createSeatMapModule(
    {
      ...ctx,
      practice: () => settings.activeProfile() !== 'production',
      demo: () => settings.activeProfile() === 'demo',
    },
    {
      store: programme.store,
      layouts: programme.layouts,
      replaceProgramme: programme.replaceProgramme,
      seatTaken: hub.seatTaken,
    },
  );
  const hubLink = createHubLinkModule(ctx, {
    version: deps.version,
    // A relayed notification goes through the same verify → record → handle path as a direct one.
    ingest: (n) => webhooks.ingestRelayed(n),
    onRelayHealth: (s) => hub.relayHealth.set(s),
    openPayments: () => checkout.countOpen(),
    // The Hub said a show's seats changed at another counter: the seat maps showing it ask again.
    onSeatsChanged: (showKey) => seatMap.seatsChanged(showKey),
    catalogue: catalogue.hubPort, // the Hub's catalogue and programme come in by the doors of a file import
    programme: {
      heldVersion: (counterId) => {
        const s = programme.store.source();
        return s?.kind === 'hub' && s.counterId === counterId ? s.version : null;
      },
      replace: (version, p, counterId) =>
        void programme.replaceProgramme({ kind: 'hub', version, receivedAt: clock.now(), counterId }, p),
    },
  });
  hub.link(hubLink);

  // ---- the status bar: provider, clock, terminal, sale queue, disk, Hub ----
  const bar = createStatusBar({
    dataDir: deps.dataDir,
    settings,
    provider: () => provider,
    terminal,
    events,
    hubLink: () => hubLink.status(),
  });
  provider.on('status', () => bar.publish());
  terminal.on('change', () => {
    bar.publish();
    checkout.terminalChanged();
  });
  const offHubStatus = events.subscribe((name) => {
    if (name === 'hub.changed') bar.publish();
    // A shift opened: sales queued while none was open may go now.
    if (name === 'shift.changed') void checkout.recheckOpen();
  });

  // ---- following a settings change: the Demo sandbox, the profile's terminal, the receiver ----
  let applying: Promise<void> = Promise.resolve();
  settings.onChange((active) => {
    // New keys or a new address: old verdicts no longer hold, so probe at once (the status says
    // "checking" from this moment), and give open orders their answer as soon as it comes.
    let probing = provider.check('settings');
    applying = (async () => {
      if (active === 'demo' && !demo.current()) {
        await demo.ensure();
        probing = provider.check('settings');
      }
      await terminalModule.useProfile(active);
      await webhooks.refresh();
      bar.publish();
      void probing.then(() => checkout.recheckOpen());
    })();
  });

  // ---- the modules: each answers its share of the contract ----
  const topups = createTopupsModule(ctx);
  // Bills callbacks are the top-ups' own (the only module that sends bills orders).
  webhooks.onBillsCallback((cb) => topups.service.onCallback(cb));
  const status = createStatusModule({
    info: {
      version: deps.version,
      shell: deps.shell,
      dataDir: deps.dataDir,
      secretStorage: { kind: deps.vault.kind, note: deps.vault.note },
    },
    bar,
    checkProvider: () => provider.check('asked'),
  });
  const backups = createBackupsModule(ctx, {
    notices: deps.startupNotices ?? [],
    onDiskChange: () => bar.publish(),
    ...(deps.restartWithJournal ? { restart: deps.restartWithJournal } : {}),
  });
  if (journal.damaged) backups.journalDamaged(journal.damaged.keptAs, journal.damaged.problem);
  const orders = createOrdersModule(ctx, {
    onConnectivity: (c) => bar.setQueue({ length: c.queueLength, online: c.online }),
  });
  const integrations = createIntegrationsModule(ctx, deps.integrations ?? {});
  const records = createRecordsModule(ctx, {
    beforeZ: () => orders.sweep.run(),
    programmeSale: (id) => programme.store.saleOf(id),
    // Refund slips and exchange receipts read the refunds owed and a sale's links from the orders module.
    refunds: { refund: (id) => checkout.undo.refund(id), links: (id) => checkout.undo.ofOrder(id).links },
    // The X/Z's complaint cases: counted from the cases module's table, through its port.
    cases: caseCounts(db),
    ...(deps.systemPrinter ? { systemPrinter: deps.systemPrinter } : {}),
  });
  // The complaint desk: this counter's journal, the branch's through the Hub, the slip through the print jobs.
  const reads = new OrderJournalReads(db);
  const cases = createCasesModule(ctx, {
    createdBetween: (from, to, limit) => reads.createdBetween(from, to, limit),
    branch: () => hubLink.caseSearch(),
    printSlip: records.printCaseSlip,
  });
  const modules = [
    status,
    createSettingsModule(ctx, { status: bar.snapshot, applied: () => applying }),
    orders,
    terminalModule,
    demo,
    topups,
    records,
    createDeliveryModule(ctx),
    createDiagnosticsModule(ctx, {
      version: deps.version,
      secretStorage: deps.vault.note,
      status: bar.snapshot,
      logFiles: deps.logFiles ?? null,
    }),
    backups,
    programme,
    seatMap,
    catalogue,
    hubLink,
    integrations,
    cases,
  ] as const;
  const handlers = mergeHandlers(modules);
  const fieldChecks: Record<string, ((args: unknown) => FieldErrors) | undefined> = Object.assign(
    {},
    ...modules.map((m) => ('fieldChecks' in m ? m.fieldChecks : {})),
  );
  const dispatch = createDispatcher(calls, handlers, {
    log: (level, msg, fields) => logger[level](msg, fields),
    requireAdmin: () => settings.requireAdmin(),
    moreFieldErrors: (call, args) => fieldChecks[call]?.(args) ?? {},
  });

  // ---- start ----
  if (settings.activeProfile() === 'demo') await demo.ensure();
  terminalModule.migrateLegacy(settings.activeProfile());
  await terminalModule.useProfile(settings.activeProfile());
  await applying; // the Demo sandbox's first settings write may still be choosing the terminal
  await webhooks.refresh();
  void provider.check('start');
  checkout.resume();
  for (const m of modules) await m.start?.();

  return {
    dispatch,
    events,
    settings,
    checkout,
    terminal,
    status: bar.snapshot,
    demo: () => demo.current(),
    webhookUrl: () => webhooks.url(),
    providerIdle: () => provider.idle(),
    /** The programme's one way in (a CSV import or the Hub's programme). */
    replaceProgramme: programme.replaceProgramme,
    catalogue: { current: catalogue.current }, // what baskets are priced against (stock: what is left)
    /** The counter's Hub link: the journal sink, the connection (the credential stays in the core). */
    hubLink,
    /** Seat maps: `seatsChanged(showKey)` for the Hub link's "seats changed" signal. */
    seatMap,
    /** The box-office integrations (pairing, charges, callbacks, the local API). */
    integrations: integrations.integrations,
    async stop() {
      offHubStatus();
      provider.stop();
      // The Demo sandbox closes last of all: open orders may still be asking it until checkout stops.
      for (const m of modules) if (m !== demo) await m.stop?.();
      await webhooks.stop();
      await checkout.stop();
      await terminal.close();
      await demo.stop?.();
      db.close();
    },
  };
}
/** @internal for tests */
export type Core = Awaited<ReturnType<typeof createCore>>;

interface RestartableCore {
  readonly core: Core;
}

/**
 * What the shells hold instead of a core: a restore from Settings → Backups stops the core, swaps
 * the journal file and builds a new core behind the same transport and event bus. If the swap
 * fails, the journal in use was not touched and a core is built on it again.
 */
export async function startRestartableCore(
  deps: Omit<CoreDeps, 'restartWithJournal' | 'events'> & { events: EventBus },
  notices: RecoveryNotice[],
): Promise<RestartableCore> {
  const build = (startupNotices: RecoveryNotice[]) => createCore({ ...deps, startupNotices, restartWithJournal });
  let core: Core;
  async function restartWithJournal(swap: () => void, notice: RecoveryNotice): Promise<void> {
    await core.stop();
    try {
      swap();
    } catch (e) {
      core = await build([]);
      throw e;
    }
    core = await build([notice]);
    deps.events.emit('status.changed', core.status());
  }
  core = await build(notices);
  return {
    get core() {
      return core;
    },
  };
}
