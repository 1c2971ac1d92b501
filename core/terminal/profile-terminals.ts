// Which terminal each profile uses. A terminal belongs to a profile: the Demo terminal must never
// follow the counter into Sandbox or Production, where a sale would go to a terminal that does
// not exist. Kept in the settings store under `terminals.<profile>`.
//
// Older versions kept one terminal for the whole counter under `terminal`. It is handed over once:
// a Demo terminal goes to Demo only; any other terminal to the profile in use at that start (the
// one it was chosen under, or the closest guess), then the old key is removed.
import type { ProfileName } from '../../shared/settings';
import { upgradeSnPattern, type TerminalSettings, type TerminalSettingsInput } from '../../shared/terminal';
import type { Logger } from '../../shared/logger';
import type { KeyValueStore } from '../settings';

const LEGACY_KEY = 'terminal';
const key = (p: ProfileName) => `terminals.${p}`;

interface ProfileTerminalsDeps {
  store: KeyValueStore;
  logger: Logger;
  /** The Demo sandbox's terminal sn, when the sandbox runs. */
  demoSn: () => string | null;
}

const isDemoTerminalSn = (sn: unknown) => typeof sn === 'string' && /^DEMO-/i.test(sn);

export function createProfileTerminals(deps: ProfileTerminalsDeps) {
  const { store, logger } = deps;

  return {
    /** Moves the older single terminal to its profile; safe to call on every start. */
    migrateLegacy(active: ProfileName): void {
      const old = store.get(LEGACY_KEY);
      if (old === undefined) return;
      const sn = old && typeof old === 'object' ? (old as { manualSn?: unknown }).manualSn : undefined;
      const target: ProfileName =
        isDemoTerminalSn(sn) && (old as { source?: unknown }).source === 'manual' ? 'demo' : active;
      if (store.get(key(target)) === undefined) store.set(key(target), old);
      store.delete(LEGACY_KEY);
      logger.info('terminal setting moved to its profile', { profile: target });
    },

    /** What to configure the link with for `profile`: its own terminal, or a fresh start. */
    load(profile: ProfileName): TerminalSettingsInput {
      const saved = store.get(key(profile));
      if (saved && typeof saved === 'object') {
        const t = saved as TerminalSettingsInput;
        const pattern = upgradeSnPattern(t.pattern);
        if (pattern === t.pattern) return t;
        // Older versions took a regular expression; it cannot be trusted to run in bounded time.
        logger.warn('the saved serial number pattern is not a format this version reads; using the built-in one', {
          profile,
          pattern: t.pattern,
        });
        return { ...t, pattern };
      }
      // A new counter in Demo is offered the Demo terminal, so there is nothing to type.
      const demo = profile === 'demo' ? deps.demoSn() : null;
      return demo ? { source: 'manual', manualSn: demo } : {};
    },

    save(profile: ProfileName, settings: TerminalSettings): void {
      store.set(key(profile), settings);
    },
  };
}
