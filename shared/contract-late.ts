// Payments after closing ("debited, but the screen said failed"), from the counter: the list the
// alert and the status bar count follow, marking one handled, and the reconciliation sweep now.
// Merged into `calls` and `events` in contract.ts; edit here, not there.
import { Empty, type CallsSpec, type EventsSpec } from './contract-kit';
import { LateListSchema, MARK_HANDLED_INVALID, MarkLateHandledSchema, SweepResultSchema } from './late-payments';
import { OrderViewSchema } from './orders';

export const lateCalls = {
  /** Unhandled late outcomes (oldest first), then the last handled ones. */
  'orders.late': { args: Empty, result: LateListSchema },
  /** Tickets given, or refund to be arranged: who and (now) when. */
  'orders.markLateHandled': { args: MarkLateHandledSchema, result: OrderViewSchema, invalid: MARK_HANDLED_INVALID },
  /** Asks the provider again about the closed orders of the last 24 hours now. */
  'orders.sweep': { args: Empty, result: SweepResultSchema },
} satisfies CallsSpec;

export const lateEvents = {
  /** A late outcome was recorded or handled: the alert and the status bar count follow. */
  'orders.lateChanged': LateListSchema,
} satisfies EventsSpec;
