// What the bills API answers, as zod schemas, and their mapping to the app's kobo-based types.
// Both the wrapped form {code, message, data} and the bare form are accepted.
import { z } from 'zod';
import { wireToKobo } from '../../shared/money';
import type { BettingProvider, TopupResult, ValidatedCustomer } from './types';

const wireAmount = z.union([z.string(), z.number()]).transform((v, ctx) => {
  try {
    return wireToKobo(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${String(v)}" is not a whole number of kobo` });
    return z.NEVER;
  }
});

const limit = z.object({ currency: z.string().optional(), amount: wireAmount }).nullish();

const BettingProviderWire = z.object({
  provider: z.string().min(1),
  providerLogoUrl: z.string().nullish(),
  minAmount: limit,
  maxAmount: limit,
});

export const BettingProvidersWire = z.array(BettingProviderWire);

export function toBettingProvider(p: z.infer<typeof BettingProviderWire>): BettingProvider {
  return {
    provider: p.provider,
    providerLogoUrl: p.providerLogoUrl ?? '',
    minAmountKobo: p.minAmount?.amount ?? null,
    maxAmountKobo: p.maxAmount?.amount ?? null,
  };
}

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

export const ValidatedCustomerWire = z.object({
  provider: z.string().min(1),
  customerId: z.string().min(1),
  firstName: text,
  lastName: text,
  userName: text,
});

export function toValidatedCustomer(v: z.infer<typeof ValidatedCustomerWire>): ValidatedCustomer {
  return {
    provider: v.provider,
    customerId: v.customerId,
    firstName: v.firstName,
    lastName: v.lastName,
    userName: v.userName,
  };
}

const TopupResultWire = z.object({
  orderNo: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v == null || v === '' ? null : String(v))),
  reference: z.string().min(1),
  status: z.enum(['INITIAL', 'PENDING', 'SUCCESS', 'FAIL']).nullable(),
  errorMsg: text,
});

export const TopupResultsWire = z.array(TopupResultWire);

export function toTopupResult(r: z.infer<typeof TopupResultWire>): TopupResult {
  return { orderNo: r.orderNo, reference: r.reference, status: r.status, errorMsg: r.errorMsg };
}

/** The wrapped answer. `code` may come as a number from sloppy gateways; it is compared as text. */
export const BillsEnvelopeWire = z.object({
  code: z.union([z.string(), z.number()]).transform(String),
  message: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  data: z.unknown().optional(),
});

/** True when `value` looks like the wrapped form rather than a bare payload. */
export function isWrapped(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    'code' in value &&
    ('message' in value || 'data' in value)
  );
}
