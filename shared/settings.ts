// Settings: three profiles (Demo, Sandbox, Production), each with the provider's addresses, ids,
// the keys (write-only from the UI) and every choice the provider's documentation leaves open
// (docs/provider-protocol.md, "Open points").
import { z } from 'zod';

export const PROFILE_NAMES = ['demo', 'sandbox', 'production'] as const;
export const ProfileName = z.enum(PROFILE_NAMES);
export type ProfileName = z.infer<typeof ProfileName>;
export const PROFILE_LABELS: Record<ProfileName, string> = {
  demo: 'Demo',
  sandbox: 'Sandbox',
  production: 'Production',
};

/** The keys a profile holds. Never returned to the renderer: only "set" and a fingerprint. */
export const SECRET_NAMES = [
  'billsPublicKey',
  'billsSecretKey',
  'posClientAuthKey',
  'merchantPrivateKey',
  'providerPublicKey',
] as const;
export const SecretName = z.enum(SECRET_NAMES);
export type SecretName = z.infer<typeof SecretName>;
export const SECRET_LABELS: Record<SecretName, string> = {
  billsPublicKey: 'Bills public key',
  billsSecretKey: 'Bills secret key',
  posClientAuthKey: 'POS clientAuthKey',
  merchantPrivateKey: 'Merchant RSA private key (PEM)',
  providerPublicKey: 'Provider RSA public key (PEM)',
};

/** A full http:// or https:// address (the provider's, the sandbox's, a webhook's). */
export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const httpUrl = z
  .string()
  .trim()
  .min(1, 'Enter an address')
  .refine(isHttpUrl, 'Enter a full http:// or https:// address');

const merchantId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Letters, digits, - or _ only (up to 64)');
const optionalMerchantId = z.union([z.literal(''), merchantId]);

/** The choices the provider's documentation leaves open, with our defaults (docs/provider-protocol.md). */
const ConventionsSchema = z.object({
  /** Bills HMAC-SHA512 output encoding. Confirmed: lowercase hex. */
  billsSignatureEncoding: z.enum(['hex', 'base64']).default('hex'),
  /** Sort object keys recursively (inside arrays too) before signing. Confirmed. */
  billsRecursiveKeySort: z.boolean().default(true),
  /** Escaping of "/" and non-ASCII in signed JSON. Open: plain JSON.stringify by default. */
  jsonEscaping: z.enum(['plain', 'escape-slash-and-non-ascii']).default('plain'),
  /** Auth of /bills/bulk-status: the SDKs send the public key; the betting text says signature. */
  bulkStatusAuth: z.enum(['publicKey', 'signature']).default('publicKey'),
  /** paramContent RSA encryption in (key bytes - 11) chunks; "likely". */
  posEncryptChunked: z.boolean().default(true),
  /** Request signature hash; SHA-256 "likely". */
  posSignHash: z.enum(['SHA256', 'SHA1']).default('SHA256'),
  /** Which form of the response signature to accept. Open between the two published forms. */
  posResponseSignForm: z.enum(['either', 'dataTimestamp', 'sortedKv']).default('either'),
  /** What to do with a response whose signature does not verify. */
  posResponseVerify: z.enum(['verify', 'warn', 'off']).default('verify'),
  /** Codes meaning "order not exist" on qryOrderDetail. */
  posNotFoundCodes: z.array(z.string().regex(/^\w{1,10}$/)).default(['00003', '50002']),
  /** subSceneEnum: allowed values not shown; the example uses FILM. */
  posSubScene: z
    .string()
    .trim()
    .regex(/^[A-Z0-9_]{1,32}$/, 'Capital letters, digits and _ only')
    .default('FILM'),
  /** Header carrying the transaction number on POS webhooks. */
  webhookTranIdHeader: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .default('X-Opay-Tranid'),
});
export type Conventions = z.infer<typeof ConventionsSchema>;

/** The longest an order waits for its payment (orderExpireSeconds; the provider's orderExpireTime). */
export const MAX_ORDER_EXPIRE_SECONDS = 3600;

export const ProfileSettingsSchema = z.object({
  billsBaseUrl: httpUrl,
  posBaseUrl: httpUrl,
  billsMerchantId: optionalMerchantId,
  headMerchantId: optionalMerchantId,
  merchantId: optionalMerchantId,
  counterName: z.string().trim().min(1, 'Name this counter (for example "Counter 3")').max(40, 'At most 40 characters'),
  /** Order expiry sent on createOrder, seconds. */
  orderExpireSeconds: z.coerce
    .number()
    .int('Whole seconds')
    .min(30, 'At least 30 seconds')
    .max(MAX_ORDER_EXPIRE_SECONDS, `At most ${MAX_ORDER_EXPIRE_SECONDS} seconds`)
    .default(300),
  /** Per-request timeout to the provider, ms. No call waits forever. */
  requestTimeoutMs: z.coerce
    .number()
    .int()
    .min(1000, 'At least 1000 ms')
    .max(120000, 'At most 120000 ms')
    .default(15000),
  conventions: ConventionsSchema,
  webhook: z
    .object({
      enabled: z.boolean().default(false),
      host: z.string().trim().min(1).default('127.0.0.1'),
      port: z.coerce.number().int().min(0).max(65535, 'A port is at most 65535').default(8787),
      callbackBaseUrl: z.union([z.literal(''), httpUrl]).default(''),
    })
    .default({ enabled: false, host: '127.0.0.1', port: 8787, callbackBaseUrl: '' }),
});
export type ProfileSettings = z.infer<typeof ProfileSettingsSchema>;
/** The admin PIN: whether one is set, whether Settings is unlocked, and until when wrong tries lock it. */
export const PinStatusSchema = z.object({
  set: z.boolean(),
  unlocked: z.boolean(),
  lockedUntil: z.number().nullable(),
});
export type PinStatus = z.infer<typeof PinStatusSchema>;

/** What the admin is told when a profile's fields need fixing. */
export const PROFILE_INVALID = 'Nothing was saved: fix the fields marked below.';

/** What the renderer may send when saving a profile: the plain fields, plus keys to replace. */
export const ProfileSaveSchema = z.object({
  profile: ProfileName,
  /** Checked field by field, so each error lands next to its field ("settings.posBaseUrl"). */
  settings: ProfileSettingsSchema,
  /** Only the keys the admin typed; an empty string clears a key; absent keeps it. */
  secrets: z.partialRecord(SecretName, z.string().max(20000)).default({}),
});

const SecretStatusSchema = z.object({ set: z.boolean(), fingerprint: z.string().nullable() });

export const ProfileViewSchema = z.object({
  profile: ProfileName,
  settings: ProfileSettingsSchema,
  secrets: z.record(SecretName, SecretStatusSchema),
});
export type ProfileView = z.infer<typeof ProfileViewSchema>;

/** @internal for tests */
export function defaultConventions(): Conventions {
  return ConventionsSchema.parse({});
}

export function defaultProfile(name: ProfileName): ProfileSettings {
  const base = {
    billsMerchantId: '',
    headMerchantId: '',
    merchantId: '',
    counterName: 'Counter 1',
    orderExpireSeconds: 300,
    requestTimeoutMs: 15000,
    conventions: defaultConventions(),
    webhook: { enabled: false, host: '127.0.0.1', port: 8787, callbackBaseUrl: '' },
  };
  switch (name) {
    case 'demo':
      // Demo points at the embedded sandbox; its addresses are filled in when the sandbox starts.
      return {
        ...base,
        billsBaseUrl: 'http://127.0.0.1:7070/api/v3',
        posBaseUrl: 'http://127.0.0.1:7070',
        requestTimeoutMs: 5000,
      };
    case 'sandbox':
      return {
        ...base,
        billsBaseUrl: 'http://sandbox-cashierapi.opayweb.com/api/v3',
        posBaseUrl: 'https://payapi.opayweb.com',
      };
    case 'production':
      return {
        ...base,
        billsBaseUrl: 'https://cashierapi.opayweb.com/api/v3',
        posBaseUrl: 'https://payapi.opayweb.com',
      };
  }
}
