// The app and its status bar: what this build is, and the status snapshot (read, or asked for
// after probing the provider at once).
import type { AppInfo, statusCalls } from '../../shared/contract';
import type { CoreModule } from '../core-module';
import type { StatusBar } from './status-bar';

interface StatusModuleDeps {
  info: AppInfo;
  bar: StatusBar;
  /** Probes the provider now; resolves when it answered (or failed). */
  checkProvider: () => Promise<void>;
}

export function createStatusModule(deps: StatusModuleDeps): CoreModule<typeof statusCalls> {
  return {
    handlers: {
      'app.info': () => deps.info,
      'status.get': () => deps.bar.snapshot(),
      'status.checkProvider': async () => {
        await deps.checkProvider();
        return deps.bar.snapshot();
      },
    },
  };
}
