// Receipts, order search and shifts. (Filled in by the receipts work.)
import type { recordCalls } from '../../../shared/contract-records';
import type { CoreModule, ModuleContext } from '../core-module';

export function createRecordsModule(_ctx: ModuleContext): CoreModule<typeof recordCalls> {
  return { handlers: {} };
}
