// The outer shape of a POS payment notification and how old it may be: checked the same way by a
// counter's webhook receiver and by the Hub that relays notifications to counters.
import { z } from 'zod';

export const POS_WEBHOOK_MAX_AGE_MS = 5 * 60 * 1000;

export const PosWebhookBody = z.object({
  clientAuthKey: z.string(),
  version: z.string().optional(),
  bodyFormat: z.string().optional(),
  timestamp: z.union([z.string(), z.number()]).transform(String),
  paramContent: z.string().min(1),
  sign: z.string().min(1),
});
