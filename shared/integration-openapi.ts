// The OpenAPI 3.1 document of the counter's integration API, built from the wire's own schemas
// (shared/integration.ts) and route list. docs/integration-openapi.json is this document written
// out (npm run docs:openapi); a test fails when the two differ, so the document stays true.
import { z } from 'zod';
import { BasketTicketsSchema, ConcessionLineSchema, MAX_CONCESSION_LINES } from './basket';
import {
  BOOKING_REF,
  BOX_OFFICE_CARD_ONLY,
  CHARGE_QUEUE_LIMITS,
  CallbackBodySchema,
  ChargeRefundRequestSchema,
  ChargeViewSchema,
  DeliverySchema,
  INTEGRATION_ROUTES,
  IntegrationErrorSchema,
} from './integration';
import { SaleInputSchema } from './orders';

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

/** The sale of a charge request: the Sell form's fields without the terminal's serial number. */
function chargeSale(): Json {
  const sale = schemaOf(SaleInputSchema, 'input');
  // Not the box office's: the terminal (the counter uses its own) and the cashier's decision to charge beside a waiting sale.
  const { sn: _sn, besideWaiting: _b, ...properties } = sale.properties as Json;
  return {
    ...sale,
    properties,
    required: (sale.required as string[]).filter((k) => k !== 'sn' && k !== 'besideWaiting'),
  };
}

/** A basket's tickets as a box office sends them: the show by film, date and time (the counter's showKey is not a charge's). */
function boxOfficeTickets(): Json {
  const t = schemaOf(BasketTicketsSchema, 'input');
  const { showKey: _k, ...properties } = t.properties as Json;
  return { ...t, properties };
}

/** The lines form of a charge request (ChargeLinesRequestSchema): a basket paid by card. */
function chargeLines(): Json {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['reference'],
    description:
      "A basket: tickets for one show (each seat with its ticket type, priced from the counter's programme) and concession lines (priced from the branch's catalogue), at least one of the two; paid by card. A body with `sale` is the single-type form (ChargeRequest).",
    properties: {
      reference: {
        type: 'string',
        pattern: BOOKING_REF.source,
        description: 'Your booking reference: the idempotency key',
      },
      amountKobo: {
        type: 'integer',
        minimum: 1,
        description:
          "Optional: the basket's total as you price it, in kobo; when sent, a basket the counter prices otherwise is refused (a cross-check)",
      },
      tickets: boxOfficeTickets(),
      concessions: {
        type: 'array',
        maxItems: MAX_CONCESSION_LINES,
        items: schemaOf(ConcessionLineSchema, 'input'),
        description:
          "Items and combos by their catalogue code, with a quantity and a combo's choices (component → item code)",
      },
      tender: {
        type: 'object',
        additionalProperties: false,
        required: ['kind'],
        properties: { kind: { const: 'card' } },
        description: `${BOX_OFFICE_CARD_ONLY}; left out: card`,
      },
      callbackUrl: {
        type: 'string',
        format: 'uri',
        description: "Where this charge's changes are POSTed (else the URL given at pairing)",
      },
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), json(ref('Error'), ERROR_TEXT[c] ?? 'Refused')]));
const ERROR_TEXT: Record<number, string> = {
  401: 'NOT_AUTHENTICATED: the key is missing, wrong or revoked',
  403: 'FORBIDDEN: a caller from the network while the counter answers only its own computer',
  404: 'NOT_FOUND: no charge with this booking reference from this system',
  409: 'REFERENCE_REUSED (another sale under this reference), NO_SHIFT (no cashier shift is open on the counter: nothing was charged) or CANNOT_CANCEL (already on the terminal, or final)',
  413: 'TOO_LARGE: the body is over 16 KiB',
  415: 'UNSUPPORTED_MEDIA_TYPE: send Content-Type: application/json',
  422: 'VALIDATION: one message per wrong field in error.fields',
  429: 'TOO_MANY_ATTEMPTS: too many requests without a valid key from this address; wait Retry-After seconds',
  503: 'NOT_READY or PROVIDER_NOT_CONFIGURED: nothing was charged; send the same request again later',
};

const REFERENCE_PARAM = {
  name: 'reference',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: BOOKING_REF.source },
  description: 'Your booking reference',
};

const OPERATIONS: Record<(typeof INTEGRATION_ROUTES)[number]['name'], Json> = {
  charge: {
    requestBody: {
      required: true,
      description:
        'The single-type form (one ticket type, `sale`) or the lines form (a basket of tickets and concessions)',
      content: { 'application/json': { schema: { oneOf: [ref('ChargeRequest'), ref('ChargeLinesRequest')] } } },
    },
    responses: {
      201: json(
        ref('Charge'),
        'A new charge: the order is on its way to the terminal (or queued, waiting for the terminal or the network)',
      ),
      200: json(ref('Charge'), 'This reference was charged before with the same sale: that charge'),
      ...errors(401, 403, 429, 409, 413, 415, 422, 503),
      429: json(
        ref('Error'),
        `${ERROR_TEXT[429]}; or QUEUE_FULL: ${CHARGE_QUEUE_LIMITS.perIntegration} charges of this system (${CHARGE_QUEUE_LIMITS.total} from all systems) already wait for the terminal — nothing was charged; send it again once one has reached the terminal or ended`,
      ),
    },
  },
  read: {
    parameters: [REFERENCE_PARAM],
    responses: { 200: json(ref('Charge'), 'The charge as it is now'), ...errors(401, 403, 429, 404) },
  },
  wait: {
    parameters: [
      REFERENCE_PARAM,
      {
        name: 'after',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 0 },
        description: 'The version you hold (answers at once when the charge is past it, or final)',
      },
      {
        name: 'timeoutSeconds',
        in: 'query',
        required: false,
        schema: { type: 'number', minimum: 0, maximum: 60, default: 25 },
        description: 'How long to wait for a change',
      },
    ],
    responses: {
      200: json(ref('Charge'), 'The charge once changed, or as it is when the time runs out'),
      ...errors(401, 403, 429, 404, 422),
    },
  },
  cancel: {
    parameters: [REFERENCE_PARAM],
    responses: {
      200: json(ref('Charge'), 'Cancelled: it will never reach the terminal'),
      ...errors(401, 403, 429, 404, 409),
    },
  },
  refund: {
    parameters: [REFERENCE_PARAM],
    requestBody: {
      required: true,
      description:
        'The seats to cancel (left out: every seat still valid), a reason, and a supervisor’s approval: a one-time approval code a manager issued on the Hub, or the counter’s admin PIN',
      content: { 'application/json': { schema: ref('ChargeRefundRequest') } },
    },
    responses: {
      200: json(
        ref('Charge'),
        'Cancelled: the seats are free again, `cancelledSeats` and `refunds` say what goes back to the customer (card: owed until the counter records it returned); your callback is told too',
      ),
      ...errors(401, 403, 429, 404, 409, 413, 415, 422),
      403: json(
        ref('Error'),
        `${ERROR_TEXT[403]}; or NOT_APPROVED: the approval code is unknown, used or expired, or the PIN is wrong or locked — nothing was cancelled`,
      ),
      409: json(
        ref('Error'),
        'CANNOT_CANCEL: the charge is not paid, or a seat is not one of it or is already cancelled; NO_SHIFT: no cashier shift is open — nothing was cancelled',
      ),
    },
  },
  deliveries: {
    parameters: [REFERENCE_PARAM],
    responses: {
      200: json(
        {
          type: 'object',
          properties: { reference: { type: 'string' }, deliveries: { type: 'array', items: ref('Delivery') } },
          required: ['reference', 'deliveries'],
          additionalProperties: false,
        },
        'One row per state change, in order',
      ),
      ...errors(401, 403, 429, 404),
    },
  },
  ping: {
    responses: {
      200: json(
        {
          type: 'object',
          properties: { integration: { type: 'string' } },
          required: ['integration'],
          additionalProperties: false,
        },
        'The key is good',
      ),
      ...errors(401, 403, 429),
    },
  },
};

export function integrationOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const r of INTEGRATION_ROUTES) {
    paths[r.path] = {
      ...(paths[r.path] ?? {}),
      [r.method.toLowerCase()]: { operationId: r.name, summary: r.summary, ...OPERATIONS[r.name] },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CounterPay integration API',
      version: '1',
      description: "The counter's local API for a box office. See docs/integration.md.",
    },
    servers: [
      { url: 'http://127.0.0.1:17480', description: 'The counter itself (the address Settings → Integrations shows)' },
    ],
    security: [{ key: [] }],
    paths,
    components: {
      securitySchemes: {
        key: { type: 'http', scheme: 'bearer', description: 'The key given once when this system was paired (cpk_…)' },
      },
      schemas: {
        ChargeRequest: {
          type: 'object',
          additionalProperties: false,
          required: ['reference', 'amountKobo', 'sale'],
          properties: {
            reference: {
              type: 'string',
              pattern: BOOKING_REF.source,
              description: 'Your booking reference: the idempotency key',
            },
            amountKobo: {
              type: 'integer',
              minimum: 1,
              description: 'tickets × priceKobo + bookingFeeKobo, in kobo (a cross-check)',
            },
            sale: chargeSale(),
            callbackUrl: {
              type: 'string',
              format: 'uri',
              description: "Where this charge's changes are POSTed (else the URL given at pairing)",
            },
          },
        },
        ChargeLinesRequest: chargeLines(),
        ChargeRefundRequest: schemaOf(ChargeRefundRequestSchema, 'input'),
        Charge: schemaOf(ChargeViewSchema),
        CallbackBody: schemaOf(CallbackBodySchema),
        Delivery: schemaOf(DeliverySchema),
        Error: schemaOf(IntegrationErrorSchema),
      },
    },
  };
}
