// Top-ups (airtime and betting, single and batches): this part of the one contract.
// Merged into `calls`/`events` in contract.ts; edit here, not there.
import type { CallsSpec, EventsSpec } from './contract-kit';

export const topupCalls = {} satisfies CallsSpec;
export const topupEvents = {} satisfies EventsSpec;
