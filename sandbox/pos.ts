// The POS API (/openApi/order/checkout/...): createOrder with a check of every field,
// qryOrderDetail and depositStatisticAccountCallBack, all inside the signed, encrypted envelope.
// Answer codes: see codes.ts.
import { nairaStringToKobo } from '../shared/money';
import { CODES, SandboxError, invalid } from './codes';
import type { PosMerchant } from './config';
import type { SandboxContext } from './context';
import { POS_PREFIX, PosNotFound, posOk, verifyPosRequest } from './pos-envelope';
import type { NewPosOrder, PosOrderStore } from './pos-orders';
import type { ApiRequest, ApiResult, ApiRoute } from './routes';
import type { SandboxPosOrder } from './types';

const MAX_EXPIRE_SECONDS = 366 * 24 * 3600;

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** headMerchantId must be the clientAuthKey's merchant and merchantId one of its branches. */
function checkMerchant(
  merchant: PosMerchant,
  p: Record<string, unknown>,
): { headMerchantId: string; merchantId: string } {
  if (!nonEmpty(p.headMerchantId)) throw invalid('headMerchantId is required');
  if (p.headMerchantId !== merchant.headMerchantId)
    throw invalid(`headMerchantId "${p.headMerchantId}" does not belong to this clientAuthKey`);
  if (!nonEmpty(p.merchantId)) throw invalid('merchantId is required');
  if (!merchant.merchantIds.includes(p.merchantId))
    throw invalid(`merchantId "${p.merchantId}" is not a branch of headMerchantId ${merchant.headMerchantId}`);
  return { headMerchantId: p.headMerchantId, merchantId: p.merchantId };
}

/** Exactly one of the two keys, as a non-empty string. */
function exactlyOne(p: Record<string, unknown>, a: string, b: string): { key: string; value: string } {
  const has = (k: string) => p[k] !== undefined && p[k] !== null && p[k] !== '';
  if (has(a) === has(b)) throw invalid(`pass exactly one of ${a} or ${b}`);
  const key = has(a) ? a : b;
  if (typeof p[key] !== 'string') throw invalid(`${key} must be a string`);
  return { key, value: p[key] };
}

export function createPosRoutes(ctx: SandboxContext, store: PosOrderStore): ApiRoute[] {
  const notFound = () => new PosNotFound(ctx.config.pos.notFoundCode);

  function createOrder(r: ApiRequest): ApiResult {
    const { merchant, params: p } = verifyPosRequest(ctx, r);
    const { headMerchantId, merchantId } = checkMerchant(merchant, p);
    if (!nonEmpty(p.outOrderNo) || p.outOrderNo.length > 64)
      throw invalid('outOrderNo is required (1 to 64 characters)');
    if (p.sceneEnum !== 'CASH_API')
      throw invalid(`sceneEnum must be CASH_API (got ${JSON.stringify(p.sceneEnum ?? null)})`);
    if (!nonEmpty(p.subSceneEnum)) throw invalid('subSceneEnum is required');
    const allowed = ctx.config.pos.allowedSubScenes;
    if (allowed && !allowed.includes(p.subSceneEnum))
      throw invalid(
        `subSceneEnum "${p.subSceneEnum}" is not enabled for this merchant (allowed: ${allowed.join(', ')})`,
      );
    if (p.isSplit !== 'Y' && p.isSplit !== 'N')
      throw invalid(`isSplit must be Y or N (got ${JSON.stringify(p.isSplit ?? null)})`);
    if (p.currency !== 'NGN') throw invalid(`currency must be NGN (got ${JSON.stringify(p.currency ?? null)})`);
    let amountKobo = 0;
    if (typeof p.amount === 'string' && /^\d{1,13}(\.\d{1,2})?$/.test(p.amount))
      amountKobo = nairaStringToKobo(p.amount);
    if (amountKobo <= 0)
      throw invalid(
        `amount must be a Naira amount above 0 with at most two decimals, as a string such as "3500.00" (got ${JSON.stringify(p.amount ?? null)})`,
      );
    const expire = p.orderExpireTime;
    if (typeof expire !== 'number' || !Number.isInteger(expire) || expire <= 0 || expire > MAX_EXPIRE_SECONDS)
      throw invalid(
        `orderExpireTime must be a whole number of seconds from 1 to ${MAX_EXPIRE_SECONDS} (got ${JSON.stringify(expire ?? null)})`,
      );
    if (!nonEmpty(p.sn)) throw invalid('sn is required');
    const terminal = ctx.config.pos.terminals.find((t) => t.sn === p.sn);
    if (!terminal || terminal.merchantId !== merchantId)
      throw invalid(`sn "${p.sn}" is not a terminal of branch ${merchantId}`);
    let productInfo: Record<string, unknown> | null = null;
    if (p.productInfo !== undefined && p.productInfo !== null) {
      if (
        typeof p.productInfo !== 'object' ||
        Array.isArray(p.productInfo) ||
        Object.values(p.productInfo).some((v) => typeof v !== 'string')
      )
        throw invalid('productInfo must be an object whose values are strings');
      productInfo = p.productInfo as Record<string, unknown>;
    }
    if (p.remark !== undefined && p.remark !== null && typeof p.remark !== 'string')
      throw invalid('remark must be a string');
    if (store.existsOut(headMerchantId, p.outOrderNo))
      throw new SandboxError(200, CODES.EXISTS, `order already exists: outOrderNo "${p.outOrderNo}" was used before`);
    const input: NewPosOrder = {
      outOrderNo: p.outOrderNo,
      headMerchantId,
      merchantId,
      sn: p.sn,
      amountKobo,
      orderExpireSeconds: expire,
      subSceneEnum: p.subSceneEnum,
      isSplit: p.isSplit,
      splitInfo: p.splitInfo ?? null,
      productInfo,
      remark: typeof p.remark === 'string' ? p.remark : null,
    };
    const o = store.create(input);
    return posOk(ctx, merchant, { orderNo: o.orderNo });
  }

  function ownOrder(head: string, merchantId: string, o: SandboxPosOrder | undefined): SandboxPosOrder {
    if (!o || o.headMerchantId !== head || o.merchantId !== merchantId) throw notFound();
    return o;
  }

  function qryOrderDetail(r: ApiRequest): ApiResult {
    const { merchant, params: p } = verifyPosRequest(ctx, r);
    const { headMerchantId, merchantId } = checkMerchant(merchant, p);
    const by = exactlyOne(p, 'outOrderNo', 'orderNo');
    const found =
      by.key === 'orderNo' ? store.find({ orderNo: by.value }) : store.find({ outOrderNo: by.value, headMerchantId });
    const o = ownOrder(headMerchantId, merchantId, found);
    store.noteQuery(o.orderNo);
    return posOk(ctx, merchant, store.details(o));
  }

  /** opayOrderNo is the provider's orderNo; checkoutOrderNo is matched against orderNo, then outOrderNo. */
  function depositCallBack(r: ApiRequest): ApiResult {
    const { merchant, params: p } = verifyPosRequest(ctx, r);
    const { headMerchantId, merchantId } = checkMerchant(merchant, p);
    const by = exactlyOne(p, 'checkoutOrderNo', 'opayOrderNo');
    let found = store.find({ orderNo: by.value });
    if (!found && by.key === 'checkoutOrderNo') found = store.find({ outOrderNo: by.value, headMerchantId });
    const o = ownOrder(headMerchantId, merchantId, found);
    return posOk(ctx, merchant, {
      headMerchantId: o.headMerchantId,
      httpCode: o.webhook.httpCode,
      httpMessage: o.webhook.httpMessage,
    });
  }

  return [
    { path: `${POS_PREFIX}/createOrder`, family: 'pos', handle: createOrder },
    { path: `${POS_PREFIX}/qryOrderDetail`, family: 'pos', handle: qryOrderDetail },
    { path: `${POS_PREFIX}/depositStatisticAccountCallBack`, family: 'pos', handle: depositCallBack },
  ];
}
