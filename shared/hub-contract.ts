// The CounterPay Hub's HTTP contract: every call's request and answer, the relay stream's events,
// the journal-sync event kinds and the Hub's error codes. The Hub server validates with these; the
// counter's Hub client uses the same schemas, so both sides agree by construction.
import { z } from 'zod';
import { ORDER_STATES } from './orders';
import { TOPUP_STATES } from './topups';
import { HubSoldBasketSchema } from './hub-basket-contract';
import { AFTER_SALE_SYNC_PAYLOADS } from './hub-after-sale-contract';
import { counterText as Text, Kobo } from './hub-text';

export const HUB_API_PREFIX = '/api/v1';

/** Stable codes of every error the Hub answers with (`{code, message, details?}`). */
const HUB_ERROR_CODES = [
  'HUB_BAD_REQUEST', // a field is missing or wrong: details.issues says which
  'HUB_UNAUTHENTICATED', // no or unknown credential
  'HUB_COUNTER_REVOKED', // this counter was removed from the Hub by its manager
  'HUB_ENROLL_CODE_INVALID', // unknown, used or expired enrollment code
  'HUB_COUNTER_CODE_TAKEN', // enroll: the counter's name gives the code (sale-number prefix) of another live counter
  'HUB_CLAIM_NOT_YOURS', // order claim: a reference or orderNo is a reference made with another live counter's code (details.keys)
  'HUB_ADMIN_DISABLED', // the admin API has no token configured
  'HUB_FORBIDDEN',
  'HUB_NOT_FOUND',
  'HUB_RATE_LIMITED', // details.retryAfterMs
  'HUB_TOO_LARGE',
  'HUB_SYNC_GAP', // details.expectedSeq: resend from there
  'HUB_SYNC_CONFLICT', // a sequence number already holds a different event
  'HUB_NOT_READY',
  'HUB_INTERNAL',
  'HUB_LOGIN_FAILED', // dashboard: wrong manager name or password (details.retryAfterMs when the next try must wait)
  'HUB_CSRF', // dashboard: a write without the session's x-csrf-token, or from another site (Origin)
  'HUB_SEATS_UNKNOWN', // seats: the show is not in the branch's programme, its screen has no seat map, or a seat is not in it (or blocked); details say which
  'HUB_HOLD_LIMIT', // seats: this counter holds too many seats at once, or the sale's payment time is over (details.reason)
  'HUB_APPROVAL_REFUSED', // approval code: unknown, used, expired or of another branch (details.reason)
  'HUB_HOST', // dashboard: asked under a Host name that is not one of the Hub's public addresses (--public-url)
] as const;
export type HubErrorCode = (typeof HUB_ERROR_CODES)[number];

export const HubErrorSchema = z.object({
  code: z.enum(HUB_ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export { brokenText } from './hub-text';
const Name = Text(80)
  .transform((s) => s.trim())
  .pipe(z.string().min(1, 'must not be empty'));
const Id = z.string().min(1).max(64);
/** A time in ms since 1970, within what a Date can hold (the Hub also keeps events within a day of its clock). */
const Ms = z.number().int().nonnegative().max(8_640_000_000_000_000, 'not a time');

// ---- Enrollment ------------------------------------------------------------------------------

export const EnrollRequestSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'an enrollment code looks like ABCD-EFGH-JKLM'),
    counterName: Name,
    /** The POS branch id (the provider's merchantId of this counter's branch). */
    branch: Text(64)
      .transform((s) => s.trim())
      .pipe(z.string().min(1)),
    appVersion: Text(32).pipe(z.string().min(1)),
  })
  .strict();
export type EnrollRequest = z.infer<typeof EnrollRequestSchema>;

export const EnrollResponseSchema = z.object({
  counterId: Id,
  /** 256-bit random, base64url. Shown once; the Hub keeps only its SHA-256. Send as `Authorization: Bearer`. */
  credential: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  branch: z.string(),
});
export type EnrollResponse = z.infer<typeof EnrollResponseSchema>;

/** `GET /api/v1/me`: who the credential belongs to (HUB_COUNTER_REVOKED once the manager removed it). */
export const MeResponseSchema = z.object({ counterId: Id, name: z.string(), branch: z.string() });

// ---- Journal sync ----------------------------------------------------------------------------

/**
 * A count the Hub keeps in a 32-bit column (tickets, a Z report's number, a queue): larger is refused with a 400, not a 500.
 * @internal for tests
 */
export const INT32_MAX = 2_147_483_647;
const Count = z
  .number()
  .int()
  .nonnegative()
  .max(INT32_MAX, `too large: at most ${INT32_MAX.toLocaleString('en-US')}`);
const OrderRef = { reference: Text(64).pipe(z.string().min(1)), orderNo: Text(64).optional() };

/** Payload schema of each journal event kind the counter sends. */
export const SYNC_PAYLOADS = {
  'order.created': z
    .object({
      ...OrderRef,
      amountKobo: Kobo,
      sn: Text(64),
      cashier: Text(80).optional(),
      /** What was sold, as the counter recorded it (for the manager's search and per-show totals). */
      sale: z
        .object({
          filmName: Text(100),
          filmTitle: Text(100),
          showDate: Text(10),
          showTime: Text(5),
          seats: Text(400),
          tickets: Count,
          priceKobo: Kobo,
          bookingFeeKobo: Kobo,
        })
        .strict()
        .optional(),
      /** A basket sale's lines, tender and amounts as the counter's engine priced them (absent: one ticket type by card). */
      basket: HubSoldBasketSchema.optional(),
      /** The counter's profile when the sale was made (demo sales are kept apart from takings). */
      profile: Text(32).optional(),
      merchantId: Text(64).optional(),
      expiresAt: Ms.optional(),
    })
    .strict()
    .refine((o) => !o.basket || o.amountKobo === o.basket.amounts?.cardKobo, {
      path: ['amountKobo'],
      message: "a basket sale's amount is its card part",
    }),
  'order.status': z
    .object({ ...OrderRef, status: z.enum(ORDER_STATES), payNo: Text(64).optional(), note: Text(200).optional() })
    .strict(),
  /** The provider's outcome contradicts a closed order: money taken after closing, or a paid order reported otherwise (docs/late-payments.md). */
  'order.late': z
    .object({
      ...OrderRef,
      kind: z.enum(['paid-after-closing', 'reported-otherwise']),
      closedAs: z.enum(ORDER_STATES),
      providerStatus: Text(32).pipe(z.string().min(1)),
      amountKobo: Kobo,
      payNo: Text(64).optional(),
      providerAt: Ms.optional(),
      source: z.enum(['webhook', 'relay', 'query', 'sweep']),
    })
    .strict(),
  /** The counter settled the late outcome with the customer. */
  'order.late.handled': z
    .object({
      reference: Text(64).pipe(z.string().min(1)),
      how: z.enum(['tickets-given', 'refund']),
      by: Text(80).pipe(z.string().min(1)),
      note: Text(200).optional(),
    })
    .strict(),
  ...AFTER_SALE_SYNC_PAYLOADS,
  'topup.submitted': z
    .object({
      reference: Text(64).pipe(z.string().min(1)),
      kind: z.enum(['airtime', 'betting']),
      amountKobo: Kobo,
      provider: Text(64),
      customerId: Text(128),
      profile: Text(32).optional(),
    })
    .strict(),
  'topup.status': z
    .object({ reference: Text(64).pipe(z.string().min(1)), orderNo: Text(64).optional(), status: z.enum(TOPUP_STATES) })
    .strict(),
  'shift.opened': z
    .object({
      shiftId: Text(64).pipe(z.string().min(1)),
      cashier: Text(80),
      floatKobo: Kobo.optional(),
      profile: Text(32).optional(),
    })
    .strict(),
  // cardTotalKobo was takingsKobo before issue 37: a journal written by an older counter still says so.
  'shift.closed': z.preprocess(
    (v) => {
      if (!v || typeof v !== 'object' || !('takingsKobo' in v) || 'cardTotalKobo' in v) return v;
      const { takingsKobo, ...rest } = v as Record<string, unknown>;
      return { ...rest, cardTotalKobo: takingsKobo };
    },
    z.object({ shiftId: Text(64).pipe(z.string().min(1)), cashier: Text(80), cardTotalKobo: Kobo }).strict(),
  ),
  zreport: z
    .object({
      shiftId: Text(64).pipe(z.string().min(1)).optional(),
      reportNo: Count.min(1),
      from: Ms,
      to: Ms,
      totalKobo: Kobo,
      count: Count,
      lines: z.array(z.object({ label: Text(80), kobo: Kobo, count: Count }).strict()).max(200),
    })
    .strict(),
} as const;
export type SyncKind = keyof typeof SYNC_PAYLOADS;

const syncVariant = <K extends SyncKind>(kind: K) =>
  z.object({ seq: z.number().int().positive(), kind: z.literal(kind), at: Ms, payload: SYNC_PAYLOADS[kind] }).strict();

/** @internal for tests */
export const SyncEventSchema = z.discriminatedUnion('kind', [
  syncVariant('order.created'),
  syncVariant('order.status'),
  syncVariant('order.late'),
  syncVariant('order.late.handled'),
  syncVariant('order.cancelled'),
  syncVariant('refund.returned'),
  syncVariant('case.opened'),
  syncVariant('case.resolved'),
  syncVariant('topup.submitted'),
  syncVariant('topup.status'),
  syncVariant('shift.opened'),
  syncVariant('shift.closed'),
  syncVariant('zreport'),
]);
export type SyncEvent = z.infer<typeof SyncEventSchema>;

export const MAX_SYNC_BATCH = 500;

/** What the counter says about itself on every sync (kept per counter for the manager). */
const CounterStatusSchema = z
  .object({
    appVersion: Text(32).pipe(z.string().min(1)),
    profile: Text(32),
    /** The counter's clock when it sent the batch: the Hub derives the clock offset from it. */
    sentAt: Ms,
    /** Events still waiting in the counter's outbox after this batch. */
    queueLength: Count,
    openPayments: Count,
  })
  .strict();
export type CounterStatus = z.infer<typeof CounterStatusSchema>;

export const SyncRequestSchema = z
  .object({
    events: z.array(SyncEventSchema).max(MAX_SYNC_BATCH, `at most ${MAX_SYNC_BATCH} events per batch`),
    status: CounterStatusSchema,
  })
  .strict();
export type SyncRequest = z.infer<typeof SyncRequestSchema>;

export const SyncResponseSchema = z.object({
  /** The last sequence number of this counter's journal the Hub holds, contiguously from 1. */
  lastSeq: z.number().int().nonnegative(),
  /** How many events of this batch were new (a repeated batch gives 0). */
  stored: z.number().int().nonnegative(),
});
export type SyncResponse = z.infer<typeof SyncResponseSchema>;

// ---- Order claims ----------------------------------------------------------------------------

/**
 * `POST /api/v1/orders/claim`: the provider's order number of a sale, the moment the counter learns
 * it, on a call of its own (the journal's sync may be busy with an earlier batch), so the Hub can
 * route the sale's POS webhook, which names the order by that number only, to this counter on
 * arrival. It claims the orderNo under the rules of a sync's order.created (hub/store/journal.ts):
 * nothing for a reference made with another live counter's code.
 */
export const ORDER_CLAIM_PATH = `${HUB_API_PREFIX}/orders/claim`;
export const MAX_ORDER_CLAIMS = 50;
export const OrderClaimRequestSchema = z
  .object({
    orders: z
      .array(
        z.object({ reference: Text(64).pipe(z.string().min(1)), orderNo: Text(64).pipe(z.string().min(1)) }).strict(),
      )
      .min(1)
      .max(MAX_ORDER_CLAIMS, `at most ${MAX_ORDER_CLAIMS} orders per claim`),
  })
  .strict();
export type OrderClaimRequest = z.infer<typeof OrderClaimRequestSchema>;
export const OrderClaimResponseSchema = z.object({
  /** Orders of the request now claimed by this counter (all of them: a claim naming another counter's reference is refused whole, 403 HUB_CLAIM_NOT_YOURS). */
  claimed: z.number().int().nonnegative(),
});

// ---- Relay stream ----------------------------------------------------------------------------

/** Path of the server-sent-events stream; resume with the `Last-Event-ID` header. */
export const RELAY_STREAM_PATH = `${HUB_API_PREFIX}/relay/stream`;

/** SSE `event: notification`: one provider notification, still encrypted, as the provider sent it. */
export const RelayNotificationSchema = z.object({
  /** Delivery id: also the SSE `id:`; ack it, and de-duplicate on it. */
  eventId: z.string().regex(/^\d+$/),
  notificationId: z.string().regex(/^\d+$/),
  kind: z.enum(['pos', 'bills']),
  receivedAt: Ms,
  /** The provider's request headers the counter needs (e.g. the transaction id and branch). */
  headers: z.record(z.string(), z.string()),
  /** The raw request body: the counter verifies and decrypts it exactly as a direct webhook. */
  body: z.string(),
  replay: z.boolean(),
});
export type RelayNotification = z.infer<typeof RelayNotificationSchema>;

/** SSE `event: heartbeat`, every few seconds: the stream is healthy while these arrive. */
export const RelayHeartbeatSchema = z.object({
  at: Ms,
  intervalMs: z.number().int().positive(),
  /** Whether the Hub holds the merchant keys and so verifies and passes on webhooks (absent: an older Hub, unknown). */
  canVerify: z.boolean().optional(),
});

export const AckRequestSchema = z.object({ eventIds: z.array(z.string().regex(/^\d+$/)).min(1).max(1000) }).strict();
export const AckResponseSchema = z.object({ acked: z.number().int().nonnegative() });

// ---- Admin API (Authorization: Bearer <admin token>) ------------------------------------------

/**
 * A code is for one branch (the counter's merchant id must match it): say which. `anyBranch: true`
 * asks for a code the counter may use for whatever branch it names (the administrator's choice,
 * kept for scripts that enroll counters of several branches).
 */
export const IssueCodeRequestSchema = z
  .object({
    ttlMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(60),
    branch: Text(64)
      .transform((s) => s.trim())
      .pipe(z.string().min(1))
      .optional(),
    anyBranch: z.literal(true).optional(),
  })
  .strict()
  .refine((r) => (r.branch === undefined) !== (r.anyBranch === undefined), {
    message:
      'say which branch the code is for ({"branch": "<its merchant id>"}), or {"anyBranch": true} for a code any branch may use',
    path: ['branch'],
  });

export const IssueCodeResponseSchema = z.object({ code: z.string(), expiresAt: Ms, branch: z.string().nullable() });

export const CounterViewSchema = z.object({
  id: Id,
  name: z.string(),
  branch: z.string(),
  enrolledAt: Ms,
  revokedAt: Ms.nullable(),
  lastSeenAt: Ms.nullable(),
  appVersion: z.string().nullable(),
  profile: z.string().nullable(),
  clockOffsetMs: z.number().int().nullable(),
  queueLength: z.number().int().nullable(),
  openPayments: z.number().int().nullable(),
  lastSeq: z.number().int(),
  connected: z.boolean(),
});
export type CounterView = z.infer<typeof CounterViewSchema>;

const DeliveryStepSchema = z.object({
  at: Ms,
  /** held: its order is not known yet, kept for the counter that creates it; dropped: sent to no counter (see detail). */
  step: z.enum([
    'received',
    'verified',
    'refused',
    'duplicate',
    'routed',
    'held',
    'dropped',
    'relayed',
    'acknowledged',
    'replayed',
  ]),
  counterId: z.string().nullable(),
  detail: z.string(),
});
export const NotificationLogSchema = z.object({
  id: z.string(),
  kind: z.enum(['pos', 'bills']),
  receivedAt: Ms,
  orderNo: z.string().nullable(),
  branch: z.string().nullable(),
  steps: z.array(DeliveryStepSchema),
});
export type NotificationLog = z.infer<typeof NotificationLogSchema>;
export const ReplayResponseSchema = z.object({ deliveries: z.number().int().nonnegative() });
