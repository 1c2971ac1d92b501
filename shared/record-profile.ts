// The profile a record (order, top-up, shift, print job) was made under. Records made before the
// app kept this are "unrecorded" and count as real: a counter's history must stay in its totals.
import { z } from 'zod';
import { PROFILE_NAMES } from './settings';

const RECORD_PROFILES = [...PROFILE_NAMES, 'unrecorded'] as const;
export const RecordProfile = z.enum(RECORD_PROFILES);
export type RecordProfile = z.infer<typeof RecordProfile>;

/** Demo records are play money: never in a real shift's totals, nor in a search unless asked for. */
export function isDemoRecord(p: RecordProfile | string | undefined): boolean {
  return p === 'demo';
}

/** Printed in large type on every rendering of a Demo receipt. */
export const DEMO_RECEIPT_BANNER = 'DEMO — NOT A PAYMENT';

/** Which records a total counts: a real shift leaves Demo ones (play money) out. */
export interface RecordScope {
  excludeDemo: boolean;
}
