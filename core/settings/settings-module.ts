// Settings: the admin PIN and the provider profiles, saved and switched. A save or a switch
// answers once the core has followed it (receiver restarted, terminal of the profile chosen, ...).
import type { settingsCalls, StatusSnapshot } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { CoreModule } from '../core-module';
import { secretProblems, type SettingsService } from './settings-service';

interface SettingsModuleDeps {
  status: () => StatusSnapshot;
  /** Resolves once the services have followed the last settings change. */
  applied: () => Promise<void>;
}

/**
 * What the settings module takes of the core (its own words: the core's shared services are built
 * from this module, so it cannot name them): the sales still open, which block a profile switch.
 */
interface SettingsContext {
  settings: SettingsService;
  checkout: { listOpen(): { outOrderNo: string }[] };
}

export function createSettingsModule(ctx: SettingsContext, deps: SettingsModuleDeps): CoreModule<typeof settingsCalls> {
  const { settings, checkout } = ctx;
  return {
    // A key that does not parse shows beside a wrong field, not only after the fields are fixed.
    fieldChecks: {
      'settings.saveProfile': (a) =>
        secretProblems(typeof a === 'object' && a !== null && 'secrets' in a ? a.secrets : undefined),
    },
    handlers: {
      'settings.pinStatus': () => settings.pinStatus(),
      'settings.setPin': (a) => settings.setPin(a.newPin, a.currentPin),
      'settings.unlock': (a) => settings.unlock(a.pin),
      'settings.lock': () => settings.lock(),
      'settings.getProfile': (a) => settings.view(a.profile),
      'settings.saveProfile': async (a) => {
        const view = settings.save(a.profile, a.settings, a.secrets);
        await deps.applied();
        return view;
      },
      'settings.setActiveProfile': async (a) => {
        // Open orders are followed under the active profile's merchant and keys: switching now
        // would check them against the wrong merchant.
        const open = a.profile === settings.activeProfile() ? [] : checkout.listOpen();
        if (open.length > 0) {
          throw new AppError(
            'CONFLICT',
            `${open.length} sale${open.length === 1 ? ' is' : 's are'} not settled yet (${open
              .slice(0, 3)
              .map((o) => o.outOrderNo)
              .join(', ')}${open.length > 3 ? ', …' : ''}). Switch profiles once they are paid, failed or expired.`,
            { open: open.map((o) => o.outOrderNo) },
          );
        }
        settings.setActive(a.profile);
        await deps.applied();
        return deps.status();
      },
    },
  };
}
