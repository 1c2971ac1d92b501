// Top-ups: airtime and betting, one at a time or in batches. (Filled in by the top-ups work.)
import type { topupCalls } from '../../../shared/contract-topups';
import type { CoreModule, ModuleContext } from '../core-module';

export function createTopupsModule(_ctx: ModuleContext): CoreModule<typeof topupCalls> {
  return { handlers: {} };
}
