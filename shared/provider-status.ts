// What the status bar shows about the payment provider and about this computer's clock, as the
// renderer receives it. zod only.
import { z } from 'zod';

/**
 * checking: a probe is under way and no answer has come yet (never "online" before an answer).
 * online: an authenticated answer came back. unreachable: no answer (DNS, refused, timeout, TLS,
 * the provider's own server errors). refusing: the provider answered but refused us (keys,
 * clientAuthKey, signature, clock) or its answers cannot be verified.
 */
export const ProviderReach = z.enum([
  'checking',
  'online',
  'unreachable',
  'refusing',
  'not-configured',
  'sandbox-not-running',
]);
export type ProviderReach = z.infer<typeof ProviderReach>;

export const ProviderStatusSchema = z.object({
  state: ProviderReach,
  /** One or two sentences for the cashier: what is happening. */
  detail: z.string(),
  /** The provider's own code and message, when it refused. */
  code: z.string().optional(),
  providerMessage: z.string().optional(),
  /** What to do about it (for a key problem: the administrator's line). */
  action: z.string().optional(),
  /** When the last answer (or failure) was seen, and when the next probe is due (ms epoch). */
  checkedAt: z.number().optional(),
  nextCheckAt: z.number().optional(),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

export const ClockStatusSchema = z.object({
  /** provider time − this computer's time (ms); null until measured. */
  offsetMs: z.number().nullable(),
  /** Requests are being stamped with the provider's time. */
  correcting: z.boolean(),
  /** Shown when the offset is over a minute. */
  detail: z.string(),
});
