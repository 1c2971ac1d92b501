// Client of the bills API (/api/v3): betting providers, beneficiary validation, batch top-ups and
// their status. Bodies are canonical JSON; the HMAC-SHA512 signature covers exactly the bytes sent.
import type { z } from 'zod';
import { AppError } from '../../shared/errors';
import { koboToWire } from '../../shared/money';
import type { Clock } from '../../shared/clock';
import { canonicalJson, hmacSha512 } from '../../protocol/crypto';
import type { Logger } from '../../shared/logger';
import {
  BettingProvidersWire,
  TopupResultsWire,
  ValidatedCustomerWire,
  toBettingProvider,
  toTopupResult,
  toValidatedCustomer,
} from './bills-schemas';
import { postOnce } from './http-transport';
import { endpointUrl, requireSetting, resolveConfig, type ConfigSource } from './provider-config';
import { readBillsAnswer } from './bills-answer';
import type { BillsClient, ServiceType, TopupItemInput } from './types';

interface BillsClientDeps {
  logger: Logger;
  /** Unused by the bills API today (no timestamps on the wire); accepted for a uniform factory. */
  clock?: Clock;
}

type Auth = 'publicKey' | 'signature';

export function createBillsClient(config: ConfigSource, deps: BillsClientDeps): BillsClient {
  async function call<S extends z.ZodType>(
    op: string,
    path: string,
    payload: Record<string, unknown> | undefined,
    auth: Auth,
    schema: S,
  ): Promise<z.infer<S>> {
    const cfg = resolveConfig(config);
    const url = endpointUrl(op, cfg, 'billsBaseUrl', path);
    const merchantId = requireSetting(op, cfg, 'billsMerchantId');
    const conv = cfg.conventions;
    const body =
      payload === undefined
        ? undefined
        : canonicalJson(payload, { recursive: conv.billsRecursiveKeySort, escaping: conv.jsonEscaping });
    const bearer =
      auth === 'publicKey'
        ? requireSetting(op, cfg, 'billsPublicKey')
        : hmacSha512(requireSetting(op, cfg, 'billsSecretKey'), body ?? '', conv.billsSignatureEncoding);
    const answer = await postOnce(
      {
        op,
        url,
        body,
        timeoutMs: cfg.requestTimeoutMs,
        headers: { Authorization: `Bearer ${bearer}`, MerchantId: merchantId, 'content-type': 'application/json' },
      },
      deps,
    );
    return readBillsAnswer({ op, url }, answer, schema, deps.logger);
  }

  return {
    async bettingProviders() {
      const list = await call(
        'bills.bettingProviders',
        '/bills/betting-providers',
        undefined,
        'publicKey',
        BettingProvidersWire,
      );
      return list.map(toBettingProvider);
    },

    async validate(input) {
      requireText('bills.validate', 'provider', input.provider);
      requireText('bills.validate', 'customerId', input.customerId);
      const v = await call(
        'bills.validate',
        '/bills/validate',
        { serviceType: 'betting', provider: input.provider, customerId: input.customerId },
        'publicKey',
        ValidatedCustomerWire,
      );
      return toValidatedCustomer(v);
    },

    async bulkBills(input) {
      const op = 'bills.bulkBills';
      checkServiceType(op, input.serviceType);
      requireText(op, 'callBackUrl', input.callBackUrl);
      if (input.items.length === 0)
        throw new AppError('BAD_ARGUMENTS', 'A top-up batch needs at least one item', { op });
      const bulkData = input.items.map((item) => toWireItem(op, item));
      const results = await call(
        op,
        '/bills/bulk-bills',
        { bulkData, callBackUrl: input.callBackUrl, serviceType: input.serviceType },
        'signature',
        TopupResultsWire,
      );
      return results.map(toTopupResult);
    },

    async bulkStatus(input) {
      const op = 'bills.bulkStatus';
      checkServiceType(op, input.serviceType);
      if (input.items.length === 0)
        throw new AppError('BAD_ARGUMENTS', 'A status inquiry needs at least one item', { op });
      const bulkStatusRequest = input.items.map((i) => {
        requireText(op, 'reference', i.reference);
        return i.orderNo ? { orderNo: i.orderNo, reference: i.reference } : { reference: i.reference };
      });
      const auth: Auth = resolveConfig(config).conventions.bulkStatusAuth;
      const results = await call(
        op,
        '/bills/bulk-status',
        { bulkStatusRequest, serviceType: input.serviceType },
        auth,
        TopupResultsWire,
      );
      return results.map(toTopupResult);
    },
  };
}

function toWireItem(op: string, item: TopupItemInput): Record<string, string> {
  requireText(op, 'reference', item.reference);
  requireText(op, 'provider', item.provider);
  requireText(op, 'customerId', item.customerId);
  if (!Number.isSafeInteger(item.amountKobo) || item.amountKobo <= 0) {
    throw new AppError(
      'BAD_ARGUMENTS',
      `Top-up ${item.reference}: the amount must be a positive whole number of kobo`,
      { op, reference: item.reference },
    );
  }
  return {
    amount: koboToWire(item.amountKobo),
    country: 'NG',
    currency: 'NGN',
    customerId: item.customerId,
    provider: item.provider,
    reference: item.reference,
  };
}

function checkServiceType(op: string, t: ServiceType): void {
  if (t !== 'betting' && t !== 'airtime')
    throw new AppError('BAD_ARGUMENTS', `Unknown service type "${String(t)}"`, { op });
}

function requireText(op: string, field: string, value: string): void {
  if (typeof value !== 'string' || value.trim() === '')
    throw new AppError('BAD_ARGUMENTS', `${field} is required`, { op, field });
}
