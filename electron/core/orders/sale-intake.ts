// Checks a sale before anything is recorded: the form (per-field messages for the cashier) and
// the settings the order needs (merchant ids, a sane expiry).
import { AppError, issueFields, validationError } from '../../../shared/errors';
import { SALE_INVALID, SaleInputSchema, type Sale } from '../../../shared/orders';
import type { RecordProfile } from '../../../shared/record-profile';

export interface SaleSettings {
  counterName: string;
  headMerchantId: string;
  merchantId: string;
  orderExpireSeconds: number;
  /** The active profile, written on each order (absent: "unrecorded", counted as real). */
  profile?: RecordProfile;
}

/** The checked sale; throws VALIDATION (with `details.fields`) or PROVIDER_NOT_CONFIGURED. */
export function checkSale(input: unknown, s: SaleSettings): Sale {
  const parsed = SaleInputSchema.safeParse(input);
  if (!parsed.success) throw validationError(issueFields(parsed.error.issues, { root: 'sale' }), SALE_INVALID);
  if (!s.headMerchantId || !s.merchantId) {
    throw new AppError('PROVIDER_NOT_CONFIGURED', 'The merchant ids are not set. Ask the administrator to fill them in Settings before selling.');
  }
  // Settings keep this to 30..3600 s; the core only needs a sane whole number.
  if (!Number.isInteger(s.orderExpireSeconds) || s.orderExpireSeconds < 1 || s.orderExpireSeconds > 86_400) {
    throw new AppError('VALIDATION', 'The order expiry in Settings must be a whole number of seconds (30 to 3600).', { orderExpireSeconds: s.orderExpireSeconds });
  }
  return parsed.data;
}
