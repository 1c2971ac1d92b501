// Airtime and betting top-ups as both sides see them: networks, Nigerian mobile numbers, amounts
// and their bounds, the item and batch views with their states in cashier words. zod only.
import { z } from 'zod';
import { formatNaira, parseNaira } from './money';

// ---- services and providers ----

export const SERVICE_TYPES = ['airtime', 'betting'] as const;
const ServiceTypeSchema = z.enum(SERVICE_TYPES);
export type ServiceType = z.infer<typeof ServiceTypeSchema>;

/** The provider's airtime codes, in the order the screen offers them. */
export const AIRTIME_NETWORKS = [
  { code: 'MTN', name: 'MTN' },
  { code: 'AIR', name: 'Airtel' },
  { code: 'GLO', name: 'Glo' },
  { code: 'ETI', name: '9mobile' },
] as const;
export type AirtimeNetwork = (typeof AIRTIME_NETWORKS)[number]['code'];

/** Names people write for the networks (CSV files, old habits) -> the provider's code. */
const NETWORK_ALIASES: Record<string, AirtimeNetwork> = {
  MTN: 'MTN',
  AIR: 'AIR',
  AIRTEL: 'AIR',
  GLO: 'GLO',
  GLOBACOM: 'GLO',
  ETI: 'ETI',
  '9MOBILE': 'ETI',
  ETISALAT: 'ETI',
  NINEMOBILE: 'ETI',
};

export function airtimeNetworkOf(text: string): AirtimeNetwork | null {
  return (
    NETWORK_ALIASES[
      text
        .trim()
        .toUpperCase()
        .replace(/[\s_-]+/g, '')
    ] ?? null
  );
}

/** The network a Nigerian mobile number was issued by, from its first four digits (0803 → MTN). Ported numbers keep their old prefix, so the cashier can change it. */
const PREFIXES: Record<AirtimeNetwork, readonly string[]> = {
  MTN: ['0703', '0704', '0706', '0803', '0806', '0810', '0813', '0814', '0816', '0903', '0906', '0913', '0916'],
  AIR: ['0701', '0708', '0802', '0808', '0812', '0901', '0902', '0904', '0907', '0911', '0912'],
  GLO: ['0705', '0805', '0807', '0811', '0815', '0905', '0915'],
  ETI: ['0809', '0817', '0818', '0908', '0909'],
};

/** The network of a typed number once its first four digits are known (0803…, +234 803…, 234803…), or null. */
export function networkFromPrefix(phone: string): AirtimeNetwork | null {
  let digits = phone.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.startsWith('234')) digits = `0${digits.slice(3).replace(/^0/, '')}`;
  const head = digits.slice(0, 4);
  if (head.length < 4) return null;
  for (const [code, list] of Object.entries(PREFIXES) as [AirtimeNetwork, readonly string[]][])
    if (list.includes(head)) return code;
  return null;
}

export function networkName(code: string): string {
  return AIRTIME_NETWORKS.find((n) => n.code === code)?.name ?? code;
}

/**
 * The counter's own airtime limits (the provider publishes none): a typo guard so that "50000"
 * typed for ₦500 is caught before anything is sent.
 */
const AIRTIME_MIN_KOBO = 5_000;
const AIRTIME_MAX_KOBO = 5_000_000;

export const BettingProviderViewSchema = z.object({
  provider: z.string(),
  providerLogoUrl: z.string(),
  minAmountKobo: z.number().int().nullable(),
  maxAmountKobo: z.number().int().nullable(),
});
export type BettingProviderView = z.infer<typeof BettingProviderViewSchema>;

export const ProvidersViewSchema = z.object({
  providers: z.array(BettingProviderViewSchema),
  /** When the list was last fetched from the provider; null when it never was. */
  fetchedAt: z.number().nullable(),
  /** Why the last refresh failed (the cached list is still shown), or null. */
  refreshError: z.string().nullable(),
});
export type ProvidersView = z.infer<typeof ProvidersViewSchema>;

export const ValidatedCustomerSchema = z.object({
  provider: z.string(),
  customerId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  userName: z.string(),
});
export type ValidatedCustomer = z.infer<typeof ValidatedCustomerSchema>;

// ---- phone numbers ----

type PhoneCheck = { ok: true; e164: string; display: string } | { ok: false; reason: string };

const EXAMPLE = 'for example 0803 123 4567';

/**
 * A Nigerian mobile number as people type it ("0803 123 4567", "08031234567", "234803…",
 * "+234 (0) 803…", "803 123 4567") -> "+2348031234567", or the reason it is not one.
 */
export function normalizeNigerianMobile(input: string): PhoneCheck {
  const raw = input.trim();
  if (raw === '') return { ok: false, reason: `Enter the phone number, ${EXAMPLE}` };
  if (/[A-Za-z]/.test(raw)) return { ok: false, reason: `A phone number has digits only (${EXAMPLE})` };
  if (!/^\+?[\d\s().-]+$/.test(raw))
    return { ok: false, reason: `Only digits, spaces and a leading + please (${EXAMPLE})` };
  const plus = raw.startsWith('+');
  let digits = raw.replace(/\D/g, '');
  if (!plus && digits.startsWith('00')) digits = digits.slice(2);
  let national: string;
  if (plus || digits.startsWith('234')) {
    if (!digits.startsWith('234')) return { ok: false, reason: 'Only Nigerian numbers (+234) can be topped up here' };
    national = digits.slice(3);
    if (national.length === 11 && national.startsWith('0')) national = national.slice(1);
  } else if (digits.startsWith('0')) {
    national = digits.slice(1);
  } else {
    national = digits;
  }
  if (national.length < 10)
    return { ok: false, reason: `Too short: a Nigerian mobile number has 11 digits (${EXAMPLE})` };
  if (national.length > 10)
    return { ok: false, reason: `Too long: a Nigerian mobile number has 11 digits (${EXAMPLE})` };
  if (!/^[789][01]/.test(national)) {
    return {
      ok: false,
      reason: `0${national.slice(0, 2)} is not a Nigerian mobile prefix (mobiles start with 070, 080, 081, 090 or 091)`,
    };
  }
  const e164 = `+234${national}`;
  return { ok: true, e164, display: `+234 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}` };
}

/** "+2348031234567" -> "0803 123 4567" (how a cashier reads it back to the customer). */
export function localPhone(e164: string): string {
  const m = /^\+234(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `0${m[1]} ${m[2]} ${m[3]}` : e164;
}

// ---- betting customer ids ----

/**
 * Betting customer ids: letters, digits and . _ @ + - only. "/" and non-ASCII are kept out of
 * signed bodies on purpose (their JSON escaping is an open question with the provider).
 */
export function checkBettingCustomerId(input: string): { ok: true; value: string } | { ok: false; reason: string } {
  const v = input.trim();
  if (v === '') return { ok: false, reason: 'Enter the customer id the betting site shows the customer' };
  if (v.length > 64) return { ok: false, reason: 'A customer id is at most 64 characters' };
  if (!/^[A-Za-z0-9._@+-]+$/.test(v))
    return { ok: false, reason: 'A customer id has letters, digits and . _ @ + - only (no spaces)' };
  return { ok: true, value: v };
}

// ---- amounts ----

export interface AmountBounds {
  minKobo: number | null;
  maxKobo: number | null;
}

export function boundsText(b: AmountBounds): string {
  if (b.minKobo !== null && b.maxKobo !== null) return `${formatNaira(b.minKobo)} to ${formatNaira(b.maxKobo)}`;
  if (b.minKobo !== null) return `at least ${formatNaira(b.minKobo)}`;
  if (b.maxKobo !== null) return `up to ${formatNaira(b.maxKobo)}`;
  return 'any amount';
}

/** A typed ₦ amount -> kobo within the bounds, or the reason it is refused (`who`: "MTN airtime"). */
export function checkAmount(
  input: string,
  bounds: AmountBounds,
  who: string,
): { ok: true; kobo: number } | { ok: false; reason: string } {
  if (input.trim() === '') return { ok: false, reason: 'Enter the amount in naira, for example 500' };
  let kobo: number;
  try {
    kobo = parseNaira(input);
  } catch {
    return { ok: false, reason: `"${input.trim()}" is not an amount in naira (for example 500 or 1,500.50)` };
  }
  if (kobo <= 0) return { ok: false, reason: 'The amount must be more than ₦0.00' };
  if (bounds.minKobo !== null && kobo < bounds.minKobo)
    return { ok: false, reason: `${who}: the smallest amount is ${formatNaira(bounds.minKobo)}` };
  if (bounds.maxKobo !== null && kobo > bounds.maxKobo)
    return { ok: false, reason: `${who}: the largest amount is ${formatNaira(bounds.maxKobo)}` };
  return { ok: true, kobo };
}

export const AIRTIME_BOUNDS: AmountBounds = { minKobo: AIRTIME_MIN_KOBO, maxKobo: AIRTIME_MAX_KOBO };

// ---- the single top-up form ----

/** What the cashier is told when the top-up form has a wrong field. */
export const TOPUP_INVALID = 'Check the top-up: some fields need fixing';

/** What the Single tab sends; main checks every field again (the renderer is not trusted). */
export const TopupInputSchema = z.object({
  serviceType: ServiceTypeSchema,
  provider: z.string().max(64),
  customerId: z.string().max(128),
  /** ₦ as typed ("1,500" or "1500.50"). */
  amount: z.string().max(32),
});

// ---- items ----

export const TOPUP_STATES = [
  'draft',
  'queued',
  'sending',
  'unknown',
  'pending',
  'success',
  'fail',
  'not_sent',
  'cancelled',
] as const;
const TopupStateSchema = z.enum(TOPUP_STATES);
export type TopupState = z.infer<typeof TopupStateSchema>;

export const FINAL_TOPUP_STATES: readonly TopupState[] = ['success', 'fail', 'not_sent', 'cancelled'];
/** States that still need the provider (sending, or following its answer). */
export const OPEN_TOPUP_STATES: readonly TopupState[] = ['queued', 'sending', 'unknown', 'pending'];

export function isFinalTopupState(s: TopupState): boolean {
  return FINAL_TOPUP_STATES.includes(s);
}

export const TOPUP_STATE_LABELS: Record<TopupState, string> = {
  draft: 'Ready to send',
  queued: 'Waiting to send',
  sending: 'Sending',
  unknown: 'Checking with the provider',
  pending: 'In progress',
  success: 'Successful',
  fail: 'Failed',
  not_sent: 'Not sent',
  cancelled: 'Cancelled',
};

/** The status column of the results CSV. */
export const TOPUP_EXPORT_STATUS: Record<TopupState, string> = {
  draft: 'NOT_SENT',
  queued: 'QUEUED',
  sending: 'UNKNOWN',
  unknown: 'UNKNOWN',
  pending: 'PENDING',
  success: 'SUCCESS',
  fail: 'FAIL',
  not_sent: 'NOT_SENT',
  cancelled: 'CANCELLED',
};

export const ProviderStatusSchema = z.enum(['INITIAL', 'PENDING', 'SUCCESS', 'FAIL']);

export const TopupViewSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  batchId: z.number().int().nullable(),
  /** The line of the batch file the item came from (the spreadsheet row); null for a single. */
  line: z.number().int().nullable(),
  serviceType: ServiceTypeSchema,
  provider: z.string(),
  customerId: z.string(),
  /** The beneficiary's name as the provider confirmed it (betting), if it was checked. */
  customerName: z.string().nullable(),
  amountKobo: z.number().int(),
  state: TopupStateSchema,
  providerStatus: ProviderStatusSchema.nullable(),
  orderNo: z.string().nullable(),
  /** The provider's reason on FAIL, or why it was not sent. */
  errorMsg: z.string(),
  attempts: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TopupView = z.infer<typeof TopupViewSchema>;

// ---- batches ----

export const BATCH_STATES = ['draft', 'running', 'paused', 'done', 'discarded'] as const;
const BatchStateSchema = z.enum(BATCH_STATES);
export type BatchState = z.infer<typeof BatchStateSchema>;

export const BATCH_STATE_LABELS: Record<BatchState, string> = {
  draft: 'Checked, not sent yet',
  running: 'Sending',
  paused: 'Paused',
  done: 'Finished',
  discarded: 'Discarded',
};

/** A batch's check of its customers' names (betting) before sending. */
export const BATCH_CHECK_STATES = ['none', 'running', 'done'] as const;

export const MAX_BATCH_ROWS = 10_000;
/** The CSV travels as text in one call; the browser shell takes bodies up to 1 MiB. */
export const MAX_CSV_CHARS = 900_000;
export const DEFAULT_CHUNK_SIZE = 100;
export const MAX_CHUNK_SIZE = 500;

const count = z.number().int().nonnegative();

export const BatchViewSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  state: BatchStateSchema,
  chunkSize: z.number().int(),
  /** Data rows in the file, good and bad. */
  totalRows: count,
  /** Rows refused before sending (errors by line and column). */
  badRows: count,
  /** Items (good rows) per state. */
  counts: z.record(TopupStateSchema, count),
  /** Their amounts per state, in kobo. */
  amounts: z.record(TopupStateSchema, z.number().int()),
  items: count,
  /** Items that reached a final state. */
  finished: count,
  /** Items sent to the provider at least once. */
  sent: count,
  totalKobo: z.number().int(),
  successKobo: z.number().int(),
  bettingRows: count,
  /** Why sending is paused or waiting; null when it is not. */
  notice: z.string().nullable(),
  check: z.object({
    state: z.enum(BATCH_CHECK_STATES),
    checked: count,
    total: count,
    notFound: count,
    /** Customers that could not be checked (network); they stay in the batch. */
    unchecked: count,
  }),
  createdAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type BatchView = z.infer<typeof BatchViewSchema>;

export const RowErrorSchema = z.object({
  /** 1-based line of the file (the spreadsheet row); 0 for the file as a whole. */
  line: z.number().int().nonnegative(),
  /** The column's name ("amount"), or "" for the whole line or file. */
  column: z.string(),
  message: z.string(),
});
export type RowError = z.infer<typeof RowErrorSchema>;

export const BatchImportSchema = z.object({
  /** null when nothing could be kept (a bad file, or no good row). */
  batch: BatchViewSchema.nullable(),
  totalRows: count,
  errors: z.array(RowErrorSchema),
  /** All errors, of which `errors` holds the first ones. */
  errorCount: count,
});
export type BatchImport = z.infer<typeof BatchImportSchema>;

export const BATCH_ITEM_FILTERS = ['all', 'open', 'failed', 'success'] as const;
export type BatchItemFilter = (typeof BATCH_ITEM_FILTERS)[number];

export const CsvFileSchema = z.object({ fileName: z.string(), csv: z.string() });
export type CsvFile = z.infer<typeof CsvFileSchema>;

/** The columns of a batch file, in the template's order. */
export const BATCH_COLUMNS = ['type', 'provider', 'customerId', 'amount', 'reference'] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];
export const EXPORT_COLUMNS = ['row', 'reference', 'providerOrderNo', 'status', 'errorMsg'] as const;
