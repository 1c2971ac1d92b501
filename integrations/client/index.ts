// A small TypeScript client of CounterPay's integration API, for a box office (Node 18+ or any
// runtime with fetch). It never imports the counter's engine: only the wire's definitions
// (shared/integration.ts) and the callback signature (protocol/crypto). See docs/integration.md.
import { signCallback, verifyCallback as checkSignature, type CallbackCheck } from '../../protocol/crypto';
import {
  CHARGE_LINK_LINES_FIELDS,
  CHARGE_LINK_MAX_CHARS,
  CHARGE_LINK_PREFIX,
  CHARGE_LINK_TOO_LONG,
  chargeLinkSigned,
  CALLBACK_HEADERS,
  CALLBACK_REPLAY_WINDOW_MS,
  CallbackBodySchema,
  type CallbackBody,
  type ChargeLinesRequest,
  type ChargeRequest,
  type ChargeRefundRequest,
  type ChargeView,
  type Delivery,
  type IntegrationError,
} from '../../shared/integration';

export type { CallbackBody, ChargeLinesRequest, ChargeRefundRequest, ChargeRequest, ChargeView, Delivery };

export class CounterPayError extends Error {
  constructor(
    readonly status: number,
    readonly code: IntegrationError['error']['code'] | 'NETWORK',
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'CounterPayError';
  }
}

interface CounterPayClientOptions {
  /** The address Settings → Integrations shows, e.g. http://127.0.0.1:17480 */
  baseUrl: string;
  /** The key shown once when this system was paired. */
  key: string;
  fetch?: typeof fetch;
}

export function createCounterPayClient(o: CounterPayClientOptions) {
  const f = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  async function send<T>(method: string, path: string, body?: unknown): Promise<{ status: number; value: T }> {
    let res: Response;
    try {
      res = await f(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${o.key}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (e) {
      throw new CounterPayError(
        0,
        'NETWORK',
        `CounterPay could not be reached at ${base}: ${e instanceof Error ? e.message : String(e)}. Sending the same charge again is safe.`,
      );
    }
    const text = await res.text();
    const json = (text ? JSON.parse(text) : {}) as unknown;
    if (!res.ok) {
      const err = (json as Partial<IntegrationError>).error;
      throw new CounterPayError(res.status, err?.code ?? 'INTERNAL', err?.message ?? `HTTP ${res.status}`, err?.fields);
    }
    return { status: res.status, value: json as T };
  }
  const ref = (reference: string) => encodeURIComponent(reference);
  return {
    /**
     * Asks for a charge: one ticket type (`sale`, with the amount as a cross-check), or lines (a basket:
     * `tickets` with a ticket type per seat, `concessions`; paid by card; the answer's `basket` has the
     * counter's lines and amounts). Safe to repeat with the same reference: the same charge comes back (`created` false).
     * `QUEUE_FULL` (429): 3 of your charges (10 from all systems) already wait for the terminal; nothing
     * was charged — send it again once one has reached the terminal or ended.
     */
    async charge(req: ChargeRequest | ChargeLinesRequest): Promise<{ created: boolean; charge: ChargeView }> {
      const r = await send<ChargeView>('POST', '/v1/charges', req);
      return { created: r.status === 201, charge: r.value };
    },
    async get(reference: string): Promise<ChargeView> {
      return (await send<ChargeView>('GET', `/v1/charges/${ref(reference)}`)).value;
    },
    /** The charge once its version is past `after` (or as it is after `timeoutSeconds`, at most 60). */
    async wait(reference: string, after: number, timeoutSeconds = 25): Promise<ChargeView> {
      return (
        await send<ChargeView>(
          'GET',
          `/v1/charges/${ref(reference)}/wait?after=${after}&timeoutSeconds=${timeoutSeconds}`,
        )
      ).value;
    },
    /** Follows the charge until it is final (paid, failed, cancelled or expired). */
    async untilFinal(reference: string, onChange?: (c: ChargeView) => void): Promise<ChargeView> {
      let c = await this.get(reference);
      onChange?.(c);
      while (!c.final) {
        const next = await this.wait(reference, c.version);
        if (next.version !== c.version) onChange?.(next);
        c = next;
      }
      return c;
    },
    /** Cancels a charge that has not reached the terminal yet (CANNOT_CANCEL once it has). */
    async cancel(reference: string): Promise<ChargeView> {
      return (await send<ChargeView>('POST', `/v1/charges/${ref(reference)}/cancel`)).value;
    },
    /**
     * Cancels tickets of a paid charge (every seat still valid when `seats` is left out), with a
     * supervisor's approval (`{ code }` a manager issued on the Hub, or `{ pin }`): the seats are
     * released; the answer's `refunds` say what goes back to the customer. NOT_APPROVED (403):
     * nothing was cancelled.
     */
    async refund(reference: string, req: ChargeRefundRequest): Promise<ChargeView> {
      return (await send<ChargeView>('POST', `/v1/charges/${ref(reference)}/refund`, req)).value;
    },
    async deliveries(reference: string): Promise<Delivery[]> {
      return (await send<{ deliveries: Delivery[] }>('GET', `/v1/charges/${ref(reference)}/deliveries`)).value
        .deliveries;
    },
  };
}
export type CounterPayClient = ReturnType<typeof createCounterPayClient>;

/**
 * Checks a callback CounterPay POSTed to you: the signature over the exact body bytes (with your
 * key), and a timestamp within five minutes. Answer 2xx only when it returns ok, after you have
 * recorded the change (a repeated `event.eventId` is one you already have).
 */
export function readCallback(
  key: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  now = Date.now(),
): { ok: true; body: CallbackBody } | { ok: false; why: Exclude<CallbackCheck, { ok: true }>['why'] | 'bad-body' } {
  const h = (n: string) => {
    const v = headers[n];
    return Array.isArray(v) ? v[0] : v;
  };
  const check = checkSignature(
    key,
    { timestamp: h(CALLBACK_HEADERS.timestamp), signature: h(CALLBACK_HEADERS.signature) },
    rawBody,
    now,
    CALLBACK_REPLAY_WINDOW_MS,
  );
  if (!check.ok) return check;
  try {
    const body = CallbackBodySchema.safeParse(JSON.parse(rawBody));
    return body.success ? { ok: true, body: body.data } : { ok: false, why: 'bad-body' };
  } catch {
    return { ok: false, why: 'bad-body' };
  }
}

/**
 * A signed charge link (counterpay://charge?…) for `req`, for a system that can only open an
 * address; the outcome is POSTed to `returnUrl` as signed callbacks. Valid for ten minutes.
 * Either form: one ticket type (`sale`, flattened into parameters, as it always was) or lines
 * (`tickets`, `concessions`, paid by card: one `lines` parameter, JSON). A link longer than the
 * counter opens (CHARGE_LINK_MAX_CHARS) is refused here: send that basket with `charge` instead.
 */
export function chargeLink(
  key: string,
  req: Omit<ChargeRequest, 'callbackUrl'> | Omit<ChargeLinesRequest, 'callbackUrl'>,
  returnUrl?: string,
  now = Date.now(),
): string {
  const integration = /^cpk_([a-f0-9]{12})_/.exec(key)?.[1];
  if (!integration) throw new Error('That is not a CounterPay key (cpk_…).');
  const pair = (k: string, v: string): [string, string] => [k, v];
  const params: [string, string][] = [
    pair('integration', integration),
    pair('ts', String(now)),
    pair('reference', req.reference),
    ...(req.amountKobo !== undefined ? [pair('amountKobo', String(req.amountKobo))] : []),
    ...('sale' in req
      ? Object.entries(req.sale)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => pair(k, String(v)))
      : [pair('lines', JSON.stringify(linesOf(req)))]),
    ...(returnUrl ? [pair('returnUrl', returnUrl)] : []),
  ];
  const signed = chargeLinkSigned(params);
  const link = `${CHARGE_LINK_PREFIX}?${signed}&sig=${encodeURIComponent(signCallback(key, String(now), signed))}`;
  if (link.length > CHARGE_LINK_MAX_CHARS)
    throw new Error(`This charge makes a link of ${link.length} characters. ${CHARGE_LINK_TOO_LONG}.`);
  return link;
}

/** The lines form's basket fields a link's `lines` parameter holds (those sent). */
function linesOf(req: Omit<ChargeLinesRequest, 'callbackUrl'>): Record<string, unknown> {
  const r = req as Record<string, unknown>;
  return Object.fromEntries(CHARGE_LINK_LINES_FIELDS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
}
