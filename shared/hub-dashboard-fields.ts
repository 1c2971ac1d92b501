// Field schemas the dashboard's contract files share (hub-dashboard-contract.ts,
// hub-dashboard-accounts.ts): instants, money, Lagos days, branch ids.
import { z } from 'zod';

/** An instant: epoch milliseconds. */
export const Ms = z.number().int().nonnegative();
/** Money: integer kobo. */
export const Kobo = z.number().int();
/** A Lagos calendar day, yyyy-MM-dd. */
export const DaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day looks like 2025-03-31')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar day');
/** A branch: the provider's merchant id. */
export const BranchId = z.string().trim().min(1).max(64);
