// Checks a sale before anything is recorded: the form (per-field messages for the cashier) and
// the settings the order needs (merchant ids, a sane expiry); and the cashier's words when the
// journal cannot take it.
import { AppError, issueFields, validationError } from '../../shared/errors';
import { SALE_INVALID, SaleInputSchema, type Sale } from '../../shared/orders';
import type { RecordProfile } from '../../shared/record-profile';

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
  checkCardSettings(s);
  return parsed.data;
}

/** The settings a card order needs (merchant ids, a sane expiry); throws PROVIDER_NOT_CONFIGURED or VALIDATION. */
export function checkCardSettings(s: SaleSettings): void {
  if (!s.headMerchantId || !s.merchantId) {
    throw new AppError(
      'PROVIDER_NOT_CONFIGURED',
      'The merchant ids are not set. Ask the administrator to fill them in Settings before selling.',
    );
  }
  // Settings keep this to 30..3600 s; the core only needs a sane whole number.
  if (!Number.isInteger(s.orderExpireSeconds) || s.orderExpireSeconds < 1 || s.orderExpireSeconds > 86_400) {
    throw new AppError('VALIDATION', 'The order expiry in Settings must be a whole number of seconds (30 to 3600).', {
      orderExpireSeconds: s.orderExpireSeconds,
    });
  }
}

/** The journal could not take a sale (so nothing was sent): what the cashier can do about it. */
export function saleNotRecorded(err: unknown): AppError {
  const full = (err as { code?: unknown }).code === 'SQLITE_FULL';
  return new AppError(
    'INTERNAL',
    full
      ? 'The sale could not be recorded because the disk of this computer is full, so nothing was sent to the terminal. Free some disk space, then try again.'
      : 'The sale could not be recorded on this computer (the database could not be written), so nothing was sent to the terminal. Try again; if it repeats, call support.',
    full ? { cause: 'disk-full' } : undefined,
  );
}
