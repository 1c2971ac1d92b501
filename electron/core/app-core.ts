// The composition root: builds every core service from its dependencies, once, for either
// shell (Electron or browser). Transports only see `dispatch` and `hub`.
import { createDispatcher } from '../../shared/contract-kit';
import { calls, type StatusSnapshot } from '../../shared/contract';
import type { ProfileName } from '../../shared/settings';
import type { TerminalState } from '../../shared/terminal';
import type { Clock } from './clock';
import type { RecoveryNotice } from '../../shared/backups';
import { createBackupsModule, openJournalChecked, readDisk, type RestartWithJournal } from './backup';
import { startDemoSandbox, type DemoSandbox } from './demo';
import { createDeliveryChecks } from './delivery';
import { demoScreen } from './demo';
import { createDiagnosticsModule } from './diagnostics';
import { createEventHub, type EventHub } from './event-hub';
import { buildHandlers } from './handlers';
import type { Logger } from './log';
import type { LogFiles } from './logging';
import { createCheckoutService } from './orders';
import { createProviderLink } from './provider';
import { createRecordsModule } from './records';
import { createTopupsModule } from './topups';
import type { ModuleContext } from './core-module';
import type { SystemPrinter } from './records';
import { createSaleMemory } from './sale-memory';
import type { KeyValueStore } from './settings';
import type { SecretVault } from './settings';
import { createSettingsService } from './settings';
import { createTerminalLink, type TerminalLinkDeps } from './terminal';
import { createProfileTerminals } from './terminal';
import { createWebhookControl } from './webhook-control';

export interface CoreDeps {
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
  /** A hub that outlives this core (the shells rebuild the core after a restore). */
  hub?: EventHub;
  /** Files repaired or set aside before the core was built (settings, keys, a restore). */
  startupNotices?: RecoveryNotice[];
  /** Given by shells that can rebuild the core: lets Settings → Backups restore while running. */
  restartWithJournal?: RestartWithJournal;
}

function terminalPart(t: TerminalState): StatusSnapshot['terminal'] {
  const state = t.status === 'disconnected' ? 'not-connected' : t.status;
  const detail = t.lastError ?? (t.status === 'manual' ? 'Serial number typed by hand' : t.portPath ? `Serial port ${t.portPath}` : 'No terminal chosen yet');
  return { state, sn: t.sn, detail };
}

export async function createCore(deps: CoreDeps) {
  const { logger, clock } = deps;
  const hub = deps.hub ?? createEventHub();
  const settings = createSettingsService({ store: deps.store, vault: deps.vault, logger, clock });
  const journal = openJournalChecked(deps.dataDir, clock.now());
  const db = journal.db;
  const films = createSaleMemory(deps.store);

  // ---- the Demo profile's embedded provider ----
  let demo: DemoSandbox | null = null;
  let demoStarting: Promise<void> | null = null;
  const ensureDemo = () => {
    if (deps.embeddedSandbox === false || demo) return Promise.resolve();
    demoStarting ??= startDemoSandbox(deps.dataDir, logger)
      .then((d) => {
        demo = d;
        const m = d.merchant;
        settings.writeInternal('demo', { billsBaseUrl: d.sandbox.billsBaseUrl, posBaseUrl: d.sandbox.posBaseUrl, billsMerchantId: m.billsMerchantId, headMerchantId: m.headMerchantId, merchantId: m.merchantId }, {
          billsPublicKey: m.billsPublicKey, billsSecretKey: m.billsSecretKey, posClientAuthKey: m.clientAuthKey, merchantPrivateKey: m.merchantPrivateKeyPem, providerPublicKey: m.providerPublicKeyPem,
        });
        const push = () => hub.emit('demo.terminalChanged', demoScreen(demo, terminal.getState().sn));
        d.sandbox.events.on('pos-order-created', push);
        d.sandbox.events.on('pos-order-settled', push);
      })
      .catch((e) => {
        demoStarting = null;
        logger.error('demo sandbox could not start', { error: e instanceof Error ? e.message : String(e) });
      });
    return demoStarting;
  };

  // ---- the provider: measured clock, clients, measured status ----
  const provider = createProviderLink({
    config: () => settings.providerConfig(),
    blocked: () => (settings.activeProfile() === 'demo' && !demo ? { state: 'sandbox-not-running', detail: 'The Demo sandbox is not running' } : null),
    clock, logger,
    onStatus: () => publishStatus(),
    // The provider answers us again (clock fixed, keys fixed, network back): ask about open orders now.
    onBack: () => void checkout.recheckOpen(),
    // Requests stamped with the provider's time (or no longer, the PC clock fixed): ask again at once.
    onClock: () => void provider.check('clock').then(() => checkout.recheckOpen()),
  });
  const { pos, bills } = provider;
  let queue: StatusSnapshot['queue'] = { length: 0, online: true };

  // ---- terminal ----
  const terminal = createTerminalLink({ logger, ...(deps.serialPort ? { SerialPort: deps.serialPort } : {}) });
  const status = (): StatusSnapshot => {
    const name = settings.activeProfile();
    return { profile: name, counterName: settings.profile(name).counterName, provider: provider.providerPart(), clock: provider.clockPart(), terminal: terminalPart(terminal.getState()), queue, disk: readDisk(deps.dataDir) };
  };
  const publishStatus = () => hub.emit('status.changed', status());
  terminal.on('change', (t) => {
    hub.emit('terminal.changed', t);
    if (demo) hub.emit('demo.terminalChanged', demoScreen(demo, t.sn));
    publishStatus();
  });

  // ---- checkout ----
  const checkout = createCheckoutService({
    db,
    pos,
    clock,
    logger,
    settings: () => {
      const name = settings.activeProfile();
      const p = settings.profile(name);
      return { counterName: p.counterName, headMerchantId: p.headMerchantId, merchantId: p.merchantId, orderExpireSeconds: p.orderExpireSeconds, profile: name };
    },
  });
  checkout.on('order', (v) => {
    hub.emit('order.changed', v);
    if (v.state === 'paid') films.remember(v);
  });
  checkout.on('connectivity', (c) => {
    hub.emit('connectivity.changed', c);
    queue = { length: c.queueLength, online: c.online };
    publishStatus();
  });

  const webhooks = createWebhookControl({
    // Webhook timestamps are the provider's: judge them by the corrected clock too.
    db, settings, logger, clock: provider.clock, demo: () => demo,
    onPosNotification: (n) => checkout.onWebhook(n),
    onBillsCallback: (cb) => {
      for (const m of modules) if ('onBillsCallback' in m) m.onBillsCallback?.(cb);
    },
  });

  // ---- the terminal of the profile in use ----
  const terminals = createProfileTerminals({ store: deps.store, logger, demoSn: () => demo?.merchant.terminalSn ?? null });
  let terminalProfile: ProfileName | null = null;
  const useProfileTerminal = async (profile: ProfileName) => {
    if (terminalProfile === profile) return;
    terminalProfile = profile;
    try {
      await terminal.configure(terminals.load(profile));
    } catch (e) {
      logger.warn('saved terminal settings were not valid; starting without a terminal', { profile, error: e instanceof Error ? e.message : String(e) });
      await terminal.configure({});
    }
  };

  let applying: Promise<void> = Promise.resolve();
  settings.onChange((active) => {
    // New keys or a new address: old verdicts no longer hold, so probe at once (the status says
    // "checking" from this moment), and give open orders their answer as soon as it comes.
    let probing = provider.check('settings');
    applying = (async () => {
      if (active === 'demo' && !demo) {
        await ensureDemo();
        probing = provider.check('settings');
      }
      await useProfileTerminal(active);
      await webhooks.refresh();
      publishStatus();
      void probing.then(() => checkout.recheckOpen());
    })();
  });

  const moduleCtx: ModuleContext = {
    shell: deps.shell, dataDir: deps.dataDir, db, store: deps.store, settings, hub, logger, clock, pos, bills, checkout,
    demo: () => demo, webhookUrl: () => webhooks.url(),
  };
  const backups = createBackupsModule(moduleCtx, {
    notices: deps.startupNotices ?? [],
    onDiskChange: () => publishStatus(),
    ...(deps.restartWithJournal ? { restart: deps.restartWithJournal } : {}),
  });
  if (journal.damaged) backups.journalDamaged(journal.damaged.keptAs, journal.damaged.problem);
  const modules = [
    createTopupsModule(moduleCtx),
    createRecordsModule(moduleCtx, deps.systemPrinter ? { systemPrinter: deps.systemPrinter } : {}),
    createDiagnosticsModule(moduleCtx, { version: deps.version, secretStorage: deps.vault.note, status, logFiles: deps.logFiles ?? null }),
    backups,
  ] as const;
  const delivery = createDeliveryChecks({ db, pos, clock, logger, order: (id) => checkout.get(id), activeProfile: () => settings.activeProfile() });
  const handlers = {
    ...buildHandlers({ deps, settings, status, checkout, terminal, terminals, films, demo: () => demo, clock, logger, settingsApplied: () => applying, checkProvider: () => provider.check('asked') }),
    ...modules[0].handlers,
    ...modules[1].handlers,
    'delivery.check': (a: { orderId: number }) => delivery.check(a.orderId),
    'delivery.checkLastPaid': () => delivery.checkLastPaid(),
    ...modules[2].handlers,
    ...backups.handlers,
  };
  const dispatch = createDispatcher(calls, handlers, {
    log: (level, msg, fields) => logger[level](msg, fields),
    requireAdmin: () => settings.requireAdmin(),
  });

  // ---- start ----
  if (settings.activeProfile() === 'demo') await ensureDemo();
  terminals.migrateLegacy(settings.activeProfile());
  await useProfileTerminal(settings.activeProfile());
  await applying; // the Demo sandbox's first settings write may still be choosing the terminal
  await webhooks.refresh();
  void provider.check('start');
  checkout.resume();
  for (const m of modules) await m.start?.();

  return {
    dispatch,
    hub,
    settings,
    checkout,
    terminal,
    status,
    demo: () => demo,
    webhookUrl: () => webhooks.url(),
    providerIdle: () => provider.idle(),
    async stop() {
      provider.stop();
      for (const m of modules) await m.stop?.();
      await webhooks.stop();
      await checkout.stop();
      await terminal.close();
      if (demo) await demo.sandbox.close();
      db.close();
    },
  };
}
export type Core = Awaited<ReturnType<typeof createCore>>;
