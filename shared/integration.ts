// The box-office integration's wire: what a ticketing system sends to ask for a charge, the charge
// it reads back, the callback it is told, and the errors it can get. One definition for the
// counter's integration API (core/integrations), its client (integrations/client) and the
// OpenAPI document (docs/integration-openapi.json, checked by a test). zod only.
import { z } from 'zod';
import { BasketTicketsSchema, ConcessionLineSchema, MAX_CONCESSION_LINES } from './basket';
import { OrderState, SaleFieldsView } from './orders';
import { SoldBasketSchema } from './sold-basket';

/** The booking reference's one rule (the OpenAPI document's pattern is this one's source). */
export const BOOKING_REF = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/**
 * The box office's booking reference: its idempotency key (one sale, one charge, forever).
 * @internal for tests
 */
export const BookingReference = z
  .string({ error: 'Send the booking reference' })
  .regex(
    BOOKING_REF,
    'The booking reference is 1 to 64 letters, digits, dots, colons, dashes or underscores, starting with a letter or digit',
  );

/**
 * A host no callback may go to, whoever names it: link-local addresses (169.254.0.0/16 — the
 * cloud metadata service lives there — and fe80::/10), the unspecified address, multicast and
 * broadcast. The URL parser has already turned 0x/decimal forms into dotted IPv4.
 */
function isRefusedCallbackHost(hostname: string): boolean {
  let h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const a = parseInt(mapped[1]!, 16);
    const b = parseInt(mapped[2]!, 16);
    h = `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  h = h.replace(/^::ffff:/, '');
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || (a === 169 && b === 254) || a >= 224;
  }
  if (h.includes(':')) return h === '::' || /^fe[89ab][0-9a-f]?:/.test(h) || h.startsWith('ff');
  return h === 'metadata.google.internal' || h === 'metadata';
}

export const CallbackUrl = z
  .string()
  .max(500, 'The callback URL is at most 500 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'The callback URL must be an http:// or https:// address without a user name or password')
  .refine((v) => {
    try {
      return !isRefusedCallbackHost(new URL(v).hostname);
    } catch {
      return true;
    }
  }, "The callback URL must not point at a link-local, metadata, multicast or broadcast address: use the box office's own address");

const kobo = (what: string) =>
  z.number({ error: `Send the ${what} in kobo (a whole number)` }).int(`The ${what} must be a whole number of kobo`);

export const ChargeRequestSchema = z
  .object({
    reference: BookingReference,
    /** What the customer pays, in kobo: must equal tickets × priceKobo + bookingFeeKobo (a cross-check). */
    amountKobo: kobo('amount').positive('The amount must be more than 0 kobo'),
    /** The sale as the box office sends it: the Sell form's fields without the terminal (the counter uses its own); checked by the Sell form's rules. */
    sale: z
      .object(
        {
          filmName: z.unknown(),
          filmTitle: z.unknown(),
          showDate: z.unknown(),
          showTime: z.unknown(),
          seats: z.unknown(),
          tickets: z.unknown(),
          priceKobo: z.unknown(),
          bookingFeeKobo: z.unknown().optional(),
        },
        { error: 'Send the sale: filmName, filmTitle, showDate, showTime, seats, tickets, priceKobo, bookingFeeKobo' },
      )
      .strict(),
    /** Where this charge's state changes are POSTed; absent: the integration's own callback URL, if any. */
    callbackUrl: CallbackUrl.optional(),
  })
  .strict();
export type ChargeRequest = z.infer<typeof ChargeRequestSchema>;

/**
 * Why a box office's charge is card only: the cash of a basket is taken by the cashier, who keeps
 * the drawer; a box office has no drawer, so it cannot say what was tendered or hand back change.
 */
export const BOX_OFFICE_CARD_ONLY =
  'A box office charge is paid by card on the counter\'s terminal (a box office has no cash drawer): send "tender": {"kind": "card"} or leave it out';

/** The tender of a box office's basket: card, or left out (card). Cash and split are refused, naming `tender.kind`. */
const BoxOfficeTender = z
  .unknown()
  .superRefine((v, ctx) => {
    const o = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    if (o?.kind === 'card' && Object.keys(o).length === 1) return;
    if (o && typeof o.kind === 'string' && o.kind !== 'card')
      ctx.addIssue({
        code: 'custom',
        path: ['kind'],
        message: `${BOX_OFFICE_CARD_ONLY}, not "${o.kind.slice(0, 20)}"`,
      });
    else ctx.addIssue({ code: 'custom', message: BOX_OFFICE_CARD_ONLY });
  })
  .transform(() => ({ kind: 'card' as const }));

/**
 * The lines form of a charge request: a basket of tickets for one show (each seat with its ticket
 * type, priced from the counter's programme) and concession lines (priced from the branch's
 * catalogue), paid by card. Beside the single-type form (`ChargeRequestSchema`), which is unchanged;
 * a body with `sale` is that form, any other this one.
 */
export const ChargeLinesRequestSchema = z
  .object({
    reference: BookingReference,
    /** Optional: the total the box office expects, in kobo; when sent, a basket the counter prices otherwise is refused. */
    amountKobo: kobo('amount').positive('The amount must be more than 0 kobo').optional(),
    tickets: BasketTicketsSchema.optional(),
    concessions: z
      .array(ConcessionLineSchema)
      .max(MAX_CONCESSION_LINES, `At most ${MAX_CONCESSION_LINES} concession lines in one charge`)
      .default([]),
    tender: BoxOfficeTender.optional(),
    callbackUrl: CallbackUrl.optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    // The counter's own key of a programme show: a box office names the show by film, date and time.
    if (r.tickets?.showKey !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tickets', 'showKey'],
        message: 'Name the show by filmName, showDate and showTime: showKey is not a field of a charge',
      });
    if (!r.tickets && r.concessions.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['tickets'],
        message: 'Send tickets (the show and its seats, each with a ticket type), concessions, or both',
      });
  });
/** The lines form as a box office writes it (codes and seats in any case; the tender left out or card). */
type LinesInput = z.input<typeof ChargeLinesRequestSchema>;
export type ChargeLinesRequest = Omit<LinesInput, 'tender' | 'tickets'> & {
  tickets?: Omit<NonNullable<LinesInput['tickets']>, 'showKey'>;
  tender?: { kind: 'card' };
};
/** The lines form as the counter reads it: codes and seats in capitals, the tender card. */
export type ChargeLines = z.output<typeof ChargeLinesRequestSchema>;

/**
 * How many charges may wait for the counter's terminal (`queued`) at once: per paired system, and
 * from all systems together. One more is refused 429 QUEUE_FULL (nothing charged); a charge on the
 * terminal, and the cashier's own sales, do not count.
 */
export const CHARGE_QUEUE_LIMITS = { perIntegration: 3, total: 10 } as const;

/** The first words of the reason of a queued charge the cashier cancelled at the counter. */
export const CANCELLED_AT_COUNTER = 'Cancelled at the counter before it reached the terminal';

/**
 * Why the counter itself ended a charge that never reached the terminal: the cashier cancelled it
 * (CANCELLED_AT_COUNTER), or the counter charged on another terminal when its turn came than the one
 * it was asked for (TERMINAL_CHANGED). Nothing was charged either way; ask again with a new reference.
 */
export const ChargeEndCode = z.enum(['CANCELLED_AT_COUNTER', 'TERMINAL_CHANGED']);

export const ChargeViewSchema = z.object({
  reference: z.string(),
  /** The integration that asked (its name as paired). */
  integration: z.string(),
  /** The order's state, as the cashier sees it: queued, creating, waiting, unknown; final: paid, failed, cancelled, expired. */
  state: OrderState,
  final: z.boolean(),
  /** Grows by one with every state change: pass it to /wait as `after`. */
  version: z.number().int().positive(),
  amountKobo: z.number().int(),
  /** The sale fields a charge carries (checked by the counter with the Sell form's own rules); of a basket, its film part. */
  sale: SaleFieldsView,
  /** A charge asked in the lines form: its priced lines, its tender (card) and its amounts; `amountKobo` is their card part. */
  basket: SoldBasketSchema.optional(),
  /** CounterPay's order number (on the receipt and in the Hub). */
  outOrderNo: z.string(),
  /** The provider's order and payment numbers, once known. */
  orderNo: z.string().optional(),
  payNo: z.string().optional(),
  /** The payer's account, masked (at most the last four digits show). */
  payerAccount: z.string().optional(),
  payerName: z.string().optional(),
  /** Why the charge is queued, unknown, failed, cancelled or expired. */
  reason: z.string().optional(),
  /** Set when the counter itself ended the charge before it reached the terminal (see ChargeEndCode). */
  endCode: ChargeEndCode.optional(),
  createdAt: z.number(),
  expiresAt: z.number(),
  completedAt: z.number().optional(),
  /**
   * A payment the provider took after the charge closed (failed, cancelled or expired): the state
   * stays final as it was; the customer was debited all the same, so issue the tickets (or arrange
   * the refund). `at` is when the provider took the money (shared/late-payments.ts lateAt).
   */
  latePayment: z
    .object({
      payNo: z.string().optional(),
      amountKobo: z.number().int(),
      at: z.number(),
    })
    .optional(),
  /**
   * Seats of a paid charge cancelled since (at the counter or by POST …/refund): no longer valid
   * tickets; they are free again for sale.
   */
  cancelledSeats: z.array(z.string()).optional(),
  /** What goes back to the customer for them, by tender: cash paid out at the counter at once; card owed until returned. */
  refunds: z
    .array(
      z.object({
        refundNo: z.string(),
        tender: z.enum(['cash', 'card']),
        amountKobo: z.number().int(),
        seats: z.array(z.string()),
        at: z.number(),
        /** Set once the money is back with the customer (cash at once; card when the counter records it). */
        returnedAt: z.number().optional(),
      }),
    )
    .optional(),
  /** The sales its tickets were exchanged into at the counter (their CounterPay order numbers). */
  exchangedTo: z.array(z.string()).optional(),
});
export type ChargeView = z.infer<typeof ChargeViewSchema>;
export { ChargeRefundRequestSchema, type ChargeRefundRequest } from './integration-refund';

const ChargeEventSchema = z.object({
  /** `<reference>:<sequence>`: the same event delivered twice has the same id. */
  eventId: z.string(),
  sequence: z.number().int().positive(),
  from: OrderState.nullable(),
  to: OrderState,
  at: z.number(),
  note: z.string(),
});

/** The body POSTed to a callback URL. `charge` is the charge as it stands when the delivery is sent. */
export const CallbackBodySchema = z.object({
  event: ChargeEventSchema,
  charge: ChargeViewSchema,
});
export type CallbackBody = z.infer<typeof CallbackBodySchema>;

export const DeliverySchema = z.object({
  sequence: z.number().int(),
  to: OrderState,
  url: z.string(),
  state: z.enum(['pending', 'delivered']),
  attempts: z.number().int(),
  lastError: z.string().optional(),
  nextAttemptAt: z.number().optional(),
  deliveredAt: z.number().optional(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

const INTEGRATION_ERROR_CODES = [
  'NOT_AUTHENTICATED',
  'NOT_FOUND',
  'VALIDATION',
  'REFERENCE_REUSED',
  'CANNOT_CANCEL',
  'NOT_APPROVED',
  'NO_SHIFT',
  'NOT_READY',
  'PROVIDER_NOT_CONFIGURED',
  'TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'METHOD_NOT_ALLOWED',
  'FORBIDDEN',
  'TOO_MANY_ATTEMPTS',
  'QUEUE_FULL',
  'INTERNAL',
] as const;
export const IntegrationErrorSchema = z.object({
  error: z.object({
    code: z.enum(INTEGRATION_ERROR_CODES),
    message: z.string(),
    /** One message per wrong field, by its dotted path (sale.seats). */
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type IntegrationError = z.infer<typeof IntegrationErrorSchema>;

/** The headers of a signed callback; the signature is `v1=` + hex HMAC-SHA256(key, timestamp + "." + body). */
export const CALLBACK_HEADERS = {
  timestamp: 'x-counterpay-timestamp',
  signature: 'x-counterpay-signature',
  event: 'x-counterpay-event',
} as const;
/**
 * A receiver should refuse a callback whose timestamp is further than this from its clock.
 * @internal for tests
 */
export const CALLBACK_REPLAY_WINDOW_MS = 5 * 60_000;

/** The integration API's routes: the one list the server answers and the OpenAPI document describes. */
export const INTEGRATION_ROUTES = [
  {
    name: 'charge',
    method: 'POST',
    path: '/v1/charges',
    summary: 'Ask for a charge by booking reference (the same reference again returns the same charge)',
  },
  {
    name: 'read',
    method: 'GET',
    path: '/v1/charges/{reference}',
    summary: 'Read a charge by its booking reference, at any time',
  },
  {
    name: 'wait',
    method: 'GET',
    path: '/v1/charges/{reference}/wait',
    summary: 'Wait (long-poll) until the charge changes past a version you hold',
  },
  {
    name: 'cancel',
    method: 'POST',
    path: '/v1/charges/{reference}/cancel',
    summary: 'Cancel a charge that has not reached the terminal yet',
  },
  {
    name: 'refund',
    method: 'POST',
    path: '/v1/charges/{reference}/refund',
    summary:
      'Cancel tickets of a paid charge, with a supervisor’s approval: the seats are released and a refund is owed',
  },
  {
    name: 'deliveries',
    method: 'GET',
    path: '/v1/charges/{reference}/deliveries',
    summary: "The delivery log of the charge's callbacks",
  },
  {
    name: 'ping',
    method: 'GET',
    path: '/v1/ping',
    summary: 'Check the key: answers the name this system was paired under',
  },
] as const;

/**
 * A charge link (`counterpay://charge?…`), for systems that can only open an address: the charge
 * request's fields as query parameters, the paired system's id, a timestamp and a signature
 * `sig` = `v1=` + hex HMAC-SHA256(key, ts + "." + the other parameters sorted by name, encoded
 * as `name=value&…` with encodeURIComponent). The outcome goes to `returnUrl` as signed callbacks.
 * The single-type form's sale is flattened (CHARGE_LINK_SALE_FIELDS); the lines form travels as
 * one parameter, `lines` (CHARGE_LINK_LINES_FIELDS of the lines form, as JSON).
 */
export const CHARGE_LINK_PREFIX = 'counterpay://charge';
/**
 * The longest charge link the counter opens, whole: a link is for a booking's few lines (some
 * systems cut addresses much shorter); a larger basket goes over the HTTP API.
 */
export const CHARGE_LINK_MAX_CHARS = 4000;
export const CHARGE_LINK_TOO_LONG = `A charge link is at most ${CHARGE_LINK_MAX_CHARS} characters: send a larger basket over the HTTP API (POST /v1/charges)`;
/** The fields of the lines form a link's `lines` parameter holds (the others are parameters of their own). */
export const CHARGE_LINK_LINES_FIELDS = ['tickets', 'concessions', 'tender'] as const;
export const CHARGE_LINK_SALE_FIELDS = [
  'filmName',
  'filmTitle',
  'showDate',
  'showTime',
  'seats',
  'tickets',
  'priceKobo',
  'bookingFeeKobo',
] as const;
export const CHARGE_LINK_NUMBERS = new Set(['amountKobo', 'tickets', 'priceKobo', 'bookingFeeKobo']);
/** A link older (or newer) than this is refused: a link seen once cannot be replayed later. */
export const CHARGE_LINK_WINDOW_MS = 10 * 60_000;

/** What a charge link's signature covers: every parameter but `sig`, sorted by name. */
export function chargeLinkSigned(params: Iterable<[string, string]>): string {
  return [...params]
    .filter(([k]) => k !== 'sig')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}
