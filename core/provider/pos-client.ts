// Client of the POS payment API (openApi): create an order for a terminal, query it, and ask how
// the provider's deposit callback went. Requests are RSA-encrypted and signed; answers are opened
// by pos-response.ts (signature before decryption).
import type { z } from 'zod';
import { AppError } from '../../shared/errors';
import type { Conventions } from '../../shared/settings';
import { koboToNairaString } from '../../shared/money';
import { systemClock, type Clock } from '../../shared/clock';
import { canonicalJson, RsaError, rsaEncryptChunked, rsaSign } from '../../protocol/crypto';
import type { Logger } from '../../shared/logger';
import { describeIssues } from './answer-utils';
import { postOnce } from './http-transport';
import { CreateOrderDataWire, DepositCallbackDataWire, PosOrderWire, toPosOrderDetails } from './pos-schemas';
import { openPosResponse, type PosOpened } from './pos-response';
import { endpointUrl, requireKey, requireSetting, resolveConfig, type ConfigSource } from './provider-config';
import { offsetFromAnswer, type ProviderClock } from './provider-clock';
import { badResponseError } from './provider-errors';
import type { PosClient, PosCreateOrderInput, PosProductInfo } from './types';

const POS_API_VERSION = 'V1.0.1';

const POS_PATHS = {
  createOrder: '/openApi/order/checkout/createOrder',
  queryOrder: '/openApi/order/checkout/qryOrderDetail',
  depositCallbackStatus: '/openApi/order/checkout/depositStatisticAccountCallBack',
} as const;

interface PosClientDeps {
  logger: Logger;
  /** The request `timestamp` header (ms); fake it to test the provider's freshness check. */
  clock?: Clock;
  /**
   * The measured provider clock: when given, every answer's Date header updates it and requests
   * are stamped with its (corrected) time instead of `clock`.
   */
  skew?: ProviderClock;
}

export function createPosClient(config: ConfigSource, deps: PosClientDeps): PosClient {
  const clock: Clock = deps.skew ?? deps.clock ?? systemClock;

  async function call(
    op: string,
    path: string,
    build: (ids: { headMerchantId: string; merchantId: string }, conv: Conventions) => Record<string, unknown>,
    notFoundMeansNull: boolean,
  ): Promise<PosOpened> {
    const cfg = resolveConfig(config);
    const url = endpointUrl(op, cfg, 'posBaseUrl', path);
    const ids = {
      headMerchantId: requireSetting(op, cfg, 'headMerchantId'),
      merchantId: requireSetting(op, cfg, 'merchantId'),
    };
    const clientAuthKey = requireSetting(op, cfg, 'posClientAuthKey');
    const providerPublicKey = requireKey(op, cfg, 'providerPublicKey');
    const merchantPrivateKey = requireKey(op, cfg, 'merchantPrivateKey');
    const conv = cfg.conventions;

    const timestamp = String(clock.now());
    const plaintext = canonicalJson(build(ids, conv), { escaping: conv.jsonEscaping });
    let paramContent: string;
    try {
      paramContent = rsaEncryptChunked(providerPublicKey, plaintext, conv.posEncryptChunked);
    } catch (e) {
      if (e instanceof RsaError) {
        throw new AppError(
          'BAD_ARGUMENTS',
          'The request is too long to encrypt in one RSA block. Turn on chunked encryption in Settings, or shorten the product details.',
          { op },
        );
      }
      throw e;
    }
    const sign = rsaSign(merchantPrivateKey, paramContent + timestamp, conv.posSignHash);
    const sentAt = deps.skew?.localNow() ?? 0;
    const answer = await postOnce(
      {
        op,
        url,
        timeoutMs: cfg.requestTimeoutMs,
        body: canonicalJson({ paramContent, sign }),
        headers: {
          clientAuthKey,
          version: POS_API_VERSION,
          bodyFormat: 'JSON',
          timestamp,
          'Content-Type': 'application/json',
        },
      },
      deps,
    );
    const receivedAt = deps.skew?.localNow() ?? 0;
    // The Date header first: it sets the corrected clock the answer's own timestamp is judged by.
    deps.skew?.observeDateHeader(answer.date, sentAt, receivedAt);
    const opened = openPosResponse(answer, {
      ctx: { op, url },
      conventions: conv,
      providerPublicKey,
      merchantPrivateKey,
      logger: deps.logger,
      notFoundMeansNull,
      now: clock.now(),
      skew: deps.skew?.state() ?? null,
    });
    // A verified timestamp is the provider's own word, to the millisecond: it refines the offset.
    if (!opened.notFound && opened.signedAt !== undefined)
      deps.skew?.observe(offsetFromAnswer(opened.signedAt, sentAt, receivedAt));
    return opened;
  }

  function readData<S extends z.ZodType>(op: string, opened: PosOpened, schema: S): z.infer<S> {
    if (opened.notFound) throw new Error('unreachable: not-found only on queries');
    const result = schema.safeParse(opened.data);
    if (!result.success) {
      deps.logger.warn('pos answer has an unexpected shape', { op, issues: describeIssues(result.error) });
      throw badResponseError({ op }, 'schema', { issues: describeIssues(result.error) });
    }
    return result.data;
  }

  return {
    async createOrder(input) {
      const op = 'pos.createOrder';
      checkCreateInput(op, input);
      const opened = await call(
        op,
        POS_PATHS.createOrder,
        (ids, conv) => ({
          headMerchantId: ids.headMerchantId,
          merchantId: ids.merchantId,
          outOrderNo: input.outOrderNo,
          amount: koboToNairaString(input.amountKobo),
          currency: 'NGN',
          orderExpireTime: input.orderExpireSeconds,
          sceneEnum: 'CASH_API',
          subSceneEnum: conv.posSubScene,
          sn: input.sn,
          isSplit: 'N',
          splitInfo: null,
          ...(input.productInfo ? { productInfo: cleanProductInfo(input.productInfo) } : {}),
          ...(input.remark !== undefined ? { remark: input.remark } : {}),
        }),
        false,
      );
      const data = readData(op, opened, CreateOrderDataWire);
      deps.logger.info('pos order created', { outOrderNo: input.outOrderNo, orderNo: data.orderNo });
      return { orderNo: data.orderNo };
    },

    async queryOrder(by) {
      const op = 'pos.queryOrder';
      const key = exactlyOne(op, by as Record<string, unknown>, ['outOrderNo', 'orderNo']);
      const opened = await call(op, POS_PATHS.queryOrder, (ids) => ({ ...ids, [key.name]: key.value }), true);
      if (opened.notFound) return null;
      return toPosOrderDetails(readData(op, opened, PosOrderWire));
    },

    async depositCallbackStatus(by) {
      const op = 'pos.depositCallbackStatus';
      const key = exactlyOne(op, by as Record<string, unknown>, ['opayOrderNo', 'checkoutOrderNo']);
      const opened = await call(
        op,
        POS_PATHS.depositCallbackStatus,
        (ids) => ({ ...ids, [key.name]: key.value }),
        false,
      );
      return readData(op, opened, DepositCallbackDataWire);
    },
  };
}

function checkCreateInput(op: string, i: PosCreateOrderInput): void {
  const bad = (message: string, field: string): never => {
    throw new AppError('BAD_ARGUMENTS', message, { op, field });
  };
  if (typeof i.outOrderNo !== 'string' || !i.outOrderNo.trim()) bad('The order number is required', 'outOrderNo');
  if (typeof i.sn !== 'string' || !i.sn.trim()) bad('The POS terminal serial number is required', 'sn');
  if (!Number.isSafeInteger(i.amountKobo) || i.amountKobo <= 0)
    bad('The amount must be a positive whole number of kobo', 'amountKobo');
  if (!Number.isSafeInteger(i.orderExpireSeconds) || i.orderExpireSeconds <= 0)
    bad('The order expiry must be a positive number of seconds', 'orderExpireSeconds');
}

function cleanProductInfo(p: PosProductInfo): PosProductInfo {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => typeof v === 'string')) as PosProductInfo;
}

function exactlyOne(op: string, by: Record<string, unknown>, names: [string, string]): { name: string; value: string } {
  const given = names.filter((n) => typeof by[n] === 'string' && (by[n] as string).trim() !== '');
  if (given.length !== 1) {
    throw new AppError('BAD_ARGUMENTS', `Pass exactly one of ${names.join(' or ')}`, { op, given });
  }
  const name = given[0]!;
  return { name, value: by[name] as string };
}
