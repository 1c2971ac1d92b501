// Settings → Integrations: pairing box-office systems with the counter's integration API (this
// part of the one contract). A pairing's key is answered once, by `integrations.pair`, and never
// again: the list shows a fingerprint. The payment panel asks who asked for an order.
// Merged into `calls` in contract.ts; edit here, not there.
import { z } from 'zod';
import { Empty, type CallsSpec, type EventsSpec } from './contract-kit';
import { OrderViewSchema } from './orders';
import { CallbackUrl, CHARGE_LINK_MAX_CHARS, CHARGE_LINK_TOO_LONG } from './integration';

const INTEGRATION_PAIR_INVALID = 'Check the pairing: some fields need fixing';

const IntegrationPairSchema = z
  .object({
    name: z
      .string({ error: 'Name the system' })
      .trim()
      .min(1, 'Name the system (for example "Box office")')
      .max(60, 'The name is at most 60 characters'),
    callbackUrl: z.union([z.literal(''), CallbackUrl]).default(''),
  })
  .strict();

const IntegrationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  callbackUrl: z.string().nullable(),
  keyFingerprint: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().optional(),
  /** The folder drop of this system: inbox/, outbox/, rejected/ inside. */
  dropFolder: z.string().optional(),
});

const IntegrationApiSettingsSchema = z
  .object({
    port: z
      .number({ error: 'Enter a port from 1024 to 65535' })
      .int('Enter a port from 1024 to 65535')
      .min(1024, 'Enter a port from 1024 to 65535')
      .max(65535, 'Enter a port from 1024 to 65535'),
    lan: z.boolean(),
  })
  .strict();

const IntegrationsViewSchema = z.object({
  api: z.object({
    port: z.number().int().nonnegative(),
    lan: z.boolean(),
    /** Where box offices call (null: not running — nothing paired, or the port is taken). */
    url: z.string().nullable(),
    /** The port was given when CounterPay started (--integration-port): Settings cannot change it. */
    fixed: z.boolean().optional(),
    /** Why it is not running, or what to be careful about (the network is on, over plain HTTP). */
    warning: z.string().optional(),
  }),
  integrations: z.array(IntegrationSummarySchema),
});
export type IntegrationsView = z.infer<typeof IntegrationsViewSchema>;

const IntegrationPairedSchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  keyFingerprint: z.string(),
});

const OrderOriginSchema = z
  .object({ integration: z.string(), reference: z.string(), source: z.enum(['api', 'link', 'folder']) })
  .nullable();
export type OrderOrigin = NonNullable<z.infer<typeof OrderOriginSchema>>;

/** A box office's charge waiting for the counter's terminal, as the cashier's queue shows it. */
const QueuedChargeSchema = z.object({
  orderId: z.number().int().positive(),
  outOrderNo: z.string(),
  /** The paired system's name. */
  integration: z.string(),
  reference: z.string(),
  source: z.enum(['api', 'link', 'folder']),
  amountKobo: z.number().int(),
  sn: z.string(),
  /** When it was asked for (how long it has waited). */
  queuedAt: z.number(),
});
export type QueuedCharge = z.infer<typeof QueuedChargeSchema>;
const ChargeQueueSchema = z.array(QueuedChargeSchema);

const ChargeOpenedSchema = z.object({
  created: z.boolean(),
  reference: z.string(),
  state: z.string(),
  outOrderNo: z.string(),
});

export const integrationCalls = {
  'integrations.list': { args: Empty, result: IntegrationsViewSchema, admin: true },
  /** The answer carries the key: shown once, then never again. */
  'integrations.pair': {
    args: IntegrationPairSchema,
    result: IntegrationPairedSchema,
    admin: true,
    invalid: INTEGRATION_PAIR_INVALID,
  },
  'integrations.revoke': {
    args: z.object({ id: z.string().regex(/^[a-f0-9]{12}$/, 'Not a paired system') }).strict(),
    result: IntegrationsViewSchema,
    admin: true,
  },
  'integrations.setApi': {
    args: IntegrationApiSettingsSchema,
    result: IntegrationsViewSchema,
    admin: true,
    invalid: 'Check the integration API settings',
  },
  /**
   * A charge link (counterpay://charge?…) handed to the app by the operating system or typed as an
   * address in the browser shell: checked by its signature, charged, and shown on the payment panel.
   * A refusal says what is wrong with the link (BAD_ARGUMENTS never carries the link's values).
   */
  'integrations.openLink': {
    args: z.object({ url: z.string().max(CHARGE_LINK_MAX_CHARS, CHARGE_LINK_TOO_LONG) }).strict(),
    result: ChargeOpenedSchema,
  },
  /** Which system asked for this order, and its booking reference (null: the cashier's own sale). */
  'integrations.originOf': {
    args: z.object({ orderId: z.number().int().positive() }).strict(),
    result: OrderOriginSchema,
  },
  /** The box offices' charges waiting for the terminal, oldest first (the Sell screen's queue). */
  'integrations.queue': { args: Empty, result: ChargeQueueSchema },
  /**
   * The cashier cancels a queued charge before it reaches the terminal; the box office is told by its
   * signed callback. NOT_FOUND: no box office asked for it; CONFLICT: it has left the queue.
   */
  'integrations.cancelQueued': {
    args: z.object({ orderId: z.number().int().positive() }).strict(),
    result: OrderViewSchema,
  },
} satisfies CallsSpec;

/** A box office asked for a charge: the Sell screen opens its payment panel, naming who asked. */
const IntegrationChargeEventSchema = z.object({ order: OrderViewSchema, origin: OrderOriginSchema.unwrap() });

export const integrationEvents = {
  'integrations.charge': IntegrationChargeEventSchema,
  /** The integration API started or stopped by itself (a taken port came free): Settings shows where it answers. */
  'integrations.changed': IntegrationsViewSchema,
  /** The queue of box-office charges changed (one asked, sent, cancelled or ended): the whole queue. */
  'integrations.queue': ChargeQueueSchema,
} satisfies EventsSpec;
