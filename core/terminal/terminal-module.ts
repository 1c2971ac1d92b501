// The counter's terminal: its settings per profile (port, query, or a serial number typed by
// hand), the live link pushed to the screen, and the admin's say over what reaches the device.
import type { terminalCalls } from '../../shared/contract';
import { validationError } from '../../shared/errors';
import type { ProfileName } from '../../shared/settings';
import { parseTerminalSettings, terminalAdminChanges } from '../../shared/terminal';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import { createProfileTerminals } from './profile-terminals';
import type { TerminalLink } from './terminal-link';

/** What the terminal module takes of the core: the one live link to the device. */
type TerminalContext = Pick<CoreServices, 'settings' | 'store' | 'events' | 'logger'> & {
  terminal: TerminalLink;
};

interface TerminalModuleDeps {
  /** The Demo sandbox's terminal, offered to the Demo profile. */
  demoSn: () => string | null;
}

export function createTerminalModule(ctx: TerminalContext, deps: TerminalModuleDeps) {
  const { terminal, settings, logger } = ctx;
  const terminals = createProfileTerminals({ store: ctx.store, logger, demoSn: deps.demoSn });
  terminal.on('change', (t) => ctx.events.emit('terminal.changed', t));
  const view = () => ({ settings: terminal.getSettings(), state: terminal.getState() });
  let inUse: ProfileName | null = null;

  const module: CoreModule<typeof terminalCalls> = {
    handlers: {
      'terminal.get': () => view(),
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
          logger.info('terminal serial number typed by hand', {
            profile: settings.activeProfile(),
            sn: next.manualSn,
            previous: prev.source === 'manual' ? prev.manualSn : null,
          });
        }
        terminals.save(settings.activeProfile(), next);
        return view();
      },
    },
  };

  return {
    ...module,
    /** Settings kept from before terminals were per profile become the profile's own. */
    migrateLegacy: (profile: ProfileName) => terminals.migrateLegacy(profile),
    /** Connects the terminal saved for this profile (once per profile change). */
    async useProfile(profile: ProfileName): Promise<void> {
      if (inUse === profile) return;
      inUse = profile;
      try {
        await terminal.configure(terminals.load(profile));
      } catch (e) {
        logger.warn('saved terminal settings were not valid; starting without a terminal', {
          profile,
          error: e instanceof Error ? e.message : String(e),
        });
        await terminal.configure({});
      }
    },
  };
}
