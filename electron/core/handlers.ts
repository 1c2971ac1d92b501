// The contract's handlers: thin adapters from calls to the core services.
import type { Handlers } from '../../shared/contract-kit';
import type { coreCalls, StatusSnapshot } from '../../shared/contract';
import { AppError, validationError } from '../../shared/errors';
import { parseTerminalSettings, terminalAdminChanges } from '../../shared/terminal';
import type { CoreDeps } from './app-core';
import type { Clock } from './clock';
import type { Logger } from './log';
import type { DemoSandbox } from './demo/demo-sandbox';
import { demoScreen } from './demo/demo-screen';
import type { CheckoutService } from './orders/checkout-service';
import type { createSaleMemory } from './sale-memory';
import type { SettingsService } from './settings/settings-service';
import type { TerminalLink } from './terminal';
import type { ProfileTerminals } from './terminal/profile-terminals';

export interface HandlerContext {
  deps: CoreDeps;
  settings: SettingsService;
  status: () => StatusSnapshot;
  checkout: CheckoutService;
  terminal: TerminalLink;
  terminals: ProfileTerminals;
  films: ReturnType<typeof createSaleMemory>;
  demo: () => DemoSandbox | null;
  clock: Clock;
  logger: Logger;
  /** Resolves once the services have followed the last settings change (receiver restarted, …). */
  settingsApplied: () => Promise<void>;
  /** Probes the provider now; resolves when it answered (or failed). */
  checkProvider: () => Promise<void>;
}

export function buildHandlers(c: HandlerContext): Handlers<typeof coreCalls> {
  const { settings, checkout, terminal } = c;
  const order = (id: number) => {
    const v = checkout.get(id);
    if (!v) throw new AppError('NOT_FOUND', `There is no order ${id} on this counter.`, { id });
    return v;
  };
  const terminalView = () => ({ settings: terminal.getSettings(), state: terminal.getState() });
  const requireDemo = () => {
    const d = c.demo();
    if (!d || settings.activeProfile() !== 'demo') throw new AppError('NOT_READY', 'The Demo terminal works only in the Demo profile.');
    return d;
  };

  return {
    'app.info': () => ({
      version: c.deps.version,
      shell: c.deps.shell,
      dataDir: c.deps.dataDir,
      secretStorage: { kind: c.deps.vault.kind, note: c.deps.vault.note },
    }),
    'status.get': () => c.status(),
    'status.checkProvider': async () => {
      await c.checkProvider();
      return c.status();
    },

    'settings.pinStatus': () => settings.pinStatus(),
    'settings.setPin': (a) => settings.setPin(a.newPin, a.currentPin),
    'settings.unlock': (a) => settings.unlock(a.pin),
    'settings.lock': () => settings.lock(),
    'settings.getProfile': (a) => settings.view(a.profile),
    'settings.saveProfile': async (a) => {
      const view = settings.save(a.profile, a.settings, a.secrets);
      await c.settingsApplied();
      return view;
    },
    'settings.setActiveProfile': async (a) => {
      // Open orders are followed under the active profile's merchant and keys: switching now
      // would check them against the wrong merchant.
      const open = a.profile === settings.activeProfile() ? [] : checkout.listOpen();
      if (open.length > 0) {
        throw new AppError('CONFLICT', `${open.length} sale${open.length === 1 ? ' is' : 's are'} not settled yet (${open.slice(0, 3).map((o) => o.outOrderNo).join(', ')}${open.length > 3 ? ', …' : ''}). Switch profiles once they are paid, failed or expired.`, { open: open.map((o) => o.outOrderNo) });
      }
      settings.setActive(a.profile);
      await c.settingsApplied();
      return c.status();
    },

    'sale.defaults': () => c.films.defaults(c.clock.now(), terminal.getState().sn),
    'sale.charge': (a) => checkout.sell(a),
    'orders.get': (a) => order(a.id),
    'orders.history': (a) => checkout.history(a.id),
    'orders.listToday': () => checkout.listToday(),
    'orders.listQueued': () => checkout.listQueued(),
    'orders.retry': (a) => checkout.retrySale(a.id),
    'orders.checkNow': (a) => checkout.checkNow(a.id),

    'terminal.get': () => terminalView(),
    'terminal.listPorts': () => terminal.listPorts(),
    'terminal.configure': async (a) => {
      const prev = terminal.getSettings();
      const parsed = parseTerminalSettings({ ...prev, ...a });
      if (!parsed.ok) throw validationError(parsed.fields, 'The terminal settings need fixing');
      // Port, speed, query and format reach a serial device or decide how its answers are read:
      // the admin's. A typed sn is the cashier's fallback when the cable fails; it is only logged.
      if (terminalAdminChanges(prev, parsed.settings).length > 0) settings.requireAdmin();
      await terminal.configure(parsed.settings);
      const next = terminal.getSettings();
      if (next.source === 'manual' && (prev.source !== 'manual' || prev.manualSn !== next.manualSn)) {
        c.logger.info('terminal serial number typed by hand', { profile: settings.activeProfile(), sn: next.manualSn, previous: prev.source === 'manual' ? prev.manualSn : null });
      }
      c.terminals.save(settings.activeProfile(), next);
      return terminalView();
    },

    'demo.terminalScreen': () => demoScreen(settings.activeProfile() === 'demo' ? c.demo() : null, terminal.getState().sn),
    'demo.present': (a) => {
      const d = requireDemo();
      const sn = terminal.getState().sn;
      const screen = demoScreen(d, sn);
      if (!screen.available || !sn) throw new AppError('NOT_READY', screen.message);
      if (!screen.pending) throw new AppError('CONFLICT', 'No payment is waiting on the Demo terminal.');
      d.sandbox.present(sn, a.outcome);
      return demoScreen(d, sn);
    },
  };
}
