// Receipts, order search and shifts: this part of the one contract.
// Merged into `calls`/`events` in contract.ts; edit here, not there.
import type { CallsSpec, EventsSpec } from './contract-kit';

export const recordCalls = {} satisfies CallsSpec;
export const recordEvents = {} satisfies EventsSpec;
