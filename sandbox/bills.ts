// The bills API (/api/v3/bills/...): bearer auth (public key or HMAC-SHA512 of the raw body),
// betting providers, customer validation, bulk top-ups judged item by item, and bulk status.
// Answer codes: see codes.ts.
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { canonicalJson, safeEqual } from '../protocol/crypto';
import { CODES, SUCCESS_MESSAGE, SandboxError, authError, invalid } from './codes';
import type { BillsMerchant } from './config';
import type { SandboxContext } from './context';
import { header } from '../protocol/http';
import { parseJsonObject } from './http-util';
import type { ApiRequest, ApiResult, ApiRoute } from './routes';
import type { NewTopup, TopupStore } from './topups';

export const BILLS_PREFIX = '/api/v3/bills';
export const AIRTIME_PROVIDERS = ['AIR', 'MTN', 'GLO', 'ETI'] as const;
const NIGERIAN_MOBILE = /^\+234[789]\d{9}$/;
const SERVICE_TYPE_MESSAGE = 'Not support this merchant service type. [A.A.I.00003]';

type AuthMode = 'publicKey' | 'signature' | 'either';

export function billsErrorResult(e: SandboxError): ApiResult {
  return { status: e.status, body: { code: e.code, message: e.message, data: null }, headers: e.headers };
}

/** The merchant a bills request comes from, by its public key or its body's signature (as `mode` allows). */
function authenticateBills(ctx: SandboxContext, req: IncomingMessage, body: Buffer, mode: AuthMode): BillsMerchant {
  const cfg = () => ctx.config.bills;
  const merchantId = header(req, 'merchantid');
  if (!merchantId) throw authError('missing MerchantId header');
  const merchant = cfg().merchants.find((m) => m.merchantId === merchantId);
  if (!merchant) throw authError(`unknown MerchantId "${merchantId}"`);
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  if (!m?.[1]) throw authError('missing "Authorization: Bearer ..." header');
  const token = m[1];
  const isPublicKey = safeEqual(token, merchant.publicKey);
  const isSignature = safeEqual(token, createHmac('sha512', merchant.secretKey).update(body).digest('hex'));
  if (mode === 'publicKey' && !isPublicKey) throw authError("Authorization does not carry this merchant's public key");
  if (mode === 'signature' && !isSignature)
    throw authError(
      'signature does not match the request body (HMAC-SHA512, lowercase hex, of the exact body bytes with the secret key)',
    );
  if (mode === 'either' && !isPublicKey && !isSignature)
    throw authError("Authorization carries neither this merchant's public key nor a valid signature of the body");
  if (isSignature && !isPublicKey && cfg().requireCanonicalBody) {
    const text = body.toString('utf8');
    const parsed = parseJsonObject(req, body);
    if (text !== canonicalJson(parsed) && text !== canonicalJson(parsed, { escaping: 'escape-slash-and-non-ascii' }))
      throw authError(
        'signature refused: the signed body is not canonical JSON (keys sorted recursively, no whitespace)',
      );
  }
  return merchant;
}

export function createBillsRoutes(ctx: SandboxContext, store: TopupStore): ApiRoute[] {
  const cfg = () => ctx.config.bills;

  const ok = (data: unknown): ApiResult => ({
    status: 200,
    body: cfg().responseForm === 'wrapped' ? { code: CODES.OK, message: SUCCESS_MESSAGE, data } : data,
  });

  const authenticate = (req: IncomingMessage, body: Buffer, mode: AuthMode) => authenticateBills(ctx, req, body, mode);

  function serviceTypeOf(body: Record<string, unknown>): 'betting' | 'airtime' {
    const st = body.serviceType ?? 'betting';
    if (st !== 'betting' && st !== 'airtime') throw new SandboxError(200, CODES.SERVICE_TYPE, SERVICE_TYPE_MESSAGE);
    return st;
  }

  function bettingProviders(r: ApiRequest): ApiResult {
    authenticate(r.req, r.body, 'publicKey');
    parseJsonObject(r.req, r.body, true);
    return ok(
      cfg().bettingProviders.map((p) => ({
        provider: p.provider,
        providerLogoUrl: p.providerLogoUrl,
        ...(p.minAmount ? { minAmount: p.minAmount } : {}),
        ...(p.maxAmount ? { maxAmount: p.maxAmount } : {}),
      })),
    );
  }

  function validate(r: ApiRequest): ApiResult {
    authenticate(r.req, r.body, 'publicKey');
    const body = parseJsonObject(r.req, r.body);
    if (body.serviceType !== 'betting') {
      if (body.serviceType === undefined) throw invalid('serviceType is required (betting)');
      throw new SandboxError(200, CODES.SERVICE_TYPE, SERVICE_TYPE_MESSAGE);
    }
    if (typeof body.provider !== 'string' || !body.provider) throw invalid('provider is required');
    if (typeof body.customerId !== 'string' || !body.customerId) throw invalid('customerId is required');
    const { provider, customerId } = body;
    if (!cfg().bettingProviders.some((p) => p.provider === provider))
      throw new SandboxError(200, CODES.CUSTOMER, `unknown betting provider "${provider}"`);
    const c = cfg().bettingCustomers.find((x) => x.provider === provider && x.customerId === customerId);
    if (!c) throw new SandboxError(200, CODES.CUSTOMER, `customer "${customerId}" not found at ${provider}`);
    return ok({
      provider: c.provider,
      customerId: c.customerId,
      firstName: c.firstName,
      lastName: c.lastName,
      userName: c.userName,
    });
  }

  /** Why one item is refused, or null when it is accepted. */
  function judge(item: NewTopup, raw: Record<string, unknown>): string | null {
    if (item.amountKobo === null)
      return `amount must be a positive whole number of kobo written as a string (got ${JSON.stringify(raw.amount ?? null)})`;
    if (raw.currency !== undefined && raw.currency !== 'NGN')
      return `currency must be NGN (got ${JSON.stringify(raw.currency)})`;
    if (raw.country !== undefined && raw.country !== 'NG')
      return `country must be NG (got ${JSON.stringify(raw.country)})`;
    if (!item.provider) return 'provider is required';
    if (!item.customerId) return 'customerId is required';
    if (item.serviceType === 'airtime') {
      if (!(AIRTIME_PROVIDERS as readonly string[]).includes(item.provider))
        return `provider "${item.provider}" is not an airtime provider (AIR, MTN, GLO or ETI)`;
      if (!NIGERIAN_MOBILE.test(item.customerId))
        return `customerId "${item.customerId}" is not a Nigerian mobile number in +234 form (for example +2348012345678)`;
      return null;
    }
    const p = cfg().bettingProviders.find((x) => x.provider === item.provider);
    if (!p) return `unknown betting provider "${item.provider}"`;
    if (!cfg().bettingCustomers.some((c) => c.provider === item.provider && c.customerId === item.customerId))
      return `customer "${item.customerId}" not found at ${item.provider}`;
    if (p.minAmount && item.amountKobo < p.minAmount.amount)
      return `amount ${item.amountKobo} kobo is below ${p.provider}'s minimum of ${p.minAmount.amount} kobo`;
    if (p.maxAmount && item.amountKobo > p.maxAmount.amount)
      return `amount ${item.amountKobo} kobo is above ${p.provider}'s maximum of ${p.maxAmount.amount} kobo`;
    return null;
  }

  function bulkBills(r: ApiRequest): ApiResult {
    const merchant = authenticate(r.req, r.body, 'signature');
    const body = parseJsonObject(r.req, r.body);
    const serviceType = serviceTypeOf(body);
    const items = body.bulkData;
    if (!Array.isArray(items) || items.length === 0 || items.length > cfg().maxBatchItems)
      throw invalid(`bulkData must be an array of 1 to ${cfg().maxBatchItems} items`);
    let callBackUrl: string | null = null;
    if (body.callBackUrl !== undefined && body.callBackUrl !== null && body.callBackUrl !== '') {
      if (
        typeof body.callBackUrl !== 'string' ||
        !/^https?:\/\/[^\s]+$/i.test(body.callBackUrl) ||
        !URL.canParse(body.callBackUrl)
      )
        throw invalid('callBackUrl must be a full http:// or https:// address');
      callBackUrl = body.callBackUrl;
    }
    const results = items.map((raw: unknown) => {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
        return { orderNo: '', reference: '', status: 'FAIL', errorMsg: 'item must be a JSON object' };
      const o = raw as Record<string, unknown>;
      const reference = typeof o.reference === 'string' ? o.reference.trim() : '';
      if (!reference || reference.length > 64)
        return { orderNo: '', reference, status: 'FAIL', errorMsg: 'reference is required (1 to 64 characters)' };
      if (store.hasReference(merchant.merchantId, reference))
        return {
          orderNo: '',
          reference,
          status: 'FAIL',
          errorMsg: `reference "${reference}" was already used by this merchant`,
        };
      const amount = typeof o.amount === 'string' && /^\d{1,15}$/.test(o.amount) ? Number(o.amount) : null;
      const item: NewTopup = {
        reference,
        merchantId: merchant.merchantId,
        serviceType,
        provider: typeof o.provider === 'string' ? o.provider : '',
        customerId: typeof o.customerId === 'string' ? o.customerId : '',
        amountKobo: amount !== null && amount > 0 ? amount : null,
        callBackUrl,
      };
      const refusal = judge(item, o);
      const t = refusal === null ? store.addAccepted(item) : store.addRejected(item, refusal);
      return { orderNo: t.orderNo, reference: t.reference, status: t.status, errorMsg: t.errorMsg };
    });
    ctx.logger.info('sandbox: bulk-bills', { merchantId: merchant.merchantId, items: results.length });
    return ok(results);
  }

  function bulkStatus(r: ApiRequest): ApiResult {
    const merchant = authenticate(r.req, r.body, cfg().bulkStatusAuth);
    const body = parseJsonObject(r.req, r.body);
    const serviceType = serviceTypeOf(body);
    const items = body.bulkStatusRequest;
    if (!Array.isArray(items) || items.length === 0 || items.length > cfg().maxBatchItems)
      throw invalid(`bulkStatusRequest must be an array of 1 to ${cfg().maxBatchItems} items`);
    const results = items.map((raw: unknown, i) => {
      const o = (raw ?? {}) as Record<string, unknown>;
      if (typeof raw !== 'object' || typeof o.reference !== 'string' || !o.reference)
        throw invalid(`bulkStatusRequest[${i}].reference is required`);
      if (o.orderNo !== undefined && o.orderNo !== null && typeof o.orderNo !== 'string')
        throw invalid(`bulkStatusRequest[${i}].orderNo must be a string`);
      const asked = typeof o.orderNo === 'string' && o.orderNo ? o.orderNo : null;
      const t = store.get(merchant.merchantId, o.reference);
      if (!t || t.serviceType !== serviceType || (asked !== null && asked !== t.orderNo))
        return { orderNo: asked ?? '', reference: o.reference, status: null, errorMsg: 'order does not exist' };
      return { orderNo: t.orderNo, reference: t.reference, status: t.status, errorMsg: t.errorMsg };
    });
    return ok(results);
  }

  return [
    { path: `${BILLS_PREFIX}/betting-providers`, family: 'bills', handle: bettingProviders },
    { path: `${BILLS_PREFIX}/validate`, family: 'bills', handle: validate },
    { path: `${BILLS_PREFIX}/bulk-bills`, family: 'bills', handle: bulkBills },
    { path: `${BILLS_PREFIX}/bulk-status`, family: 'bills', handle: bulkStatus },
  ];
}
