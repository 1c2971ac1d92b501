// The sandbox configuration: its zod schema (with cross-checks that name the bad field) and the
// loader for `npm run sandbox -- --config FILE`.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { privateKeyObject, publicKeyObject } from '../protocol/crypto';
import { isHttpUrl } from '../shared/settings';
import { FaultRuleSchema } from './faults';

const id = z.string().trim().min(1, 'must not be empty').max(64, 'at most 64 characters');
const kobo = z
  .object({ currency: z.literal('NGN'), amount: z.number().int('whole kobo').positive('must be above 0') })
  .strict();
const httpUrl = z.string().refine(isHttpUrl, 'must be a full http:// or https:// address');
const pem = (label: 'PUBLIC' | 'PRIVATE') =>
  z
    .string()
    .min(1)
    .refine((v) => {
      try {
        if (label === 'PUBLIC') publicKeyObject(v);
        else privateKeyObject(v);
        return true;
      } catch {
        return false;
      }
    }, `must be an RSA ${label.toLowerCase()} key (PEM)`);

export const BillsMerchantSchema = z
  .object({ merchantId: id, publicKey: z.string().min(1), secretKey: z.string().min(1) })
  .strict();
export const BettingProviderSchema = z
  .object({
    provider: id,
    providerLogoUrl: z.string().default(''),
    minAmount: kobo.optional(),
    maxAmount: kobo.optional(),
  })
  .strict();
export const BettingCustomerSchema = z
  .object({ provider: id, customerId: id, firstName: z.string(), lastName: z.string(), userName: z.string() })
  .strict();
/** A customer (betting id or airtime phone) whose top-ups end in FAIL; provider omitted = any. */
export const FailCustomerSchema = z
  .object({
    customerId: id,
    provider: id.optional(),
    errorMsg: z.string().min(1).default('Top-up refused by the provider'),
  })
  .strict();

export const BillsConfigSchema = z
  .object({
    merchants: z.array(BillsMerchantSchema).default([]),
    bettingProviders: z.array(BettingProviderSchema).default([]),
    bettingCustomers: z.array(BettingCustomerSchema).default([]),
    failCustomers: z.array(FailCustomerSchema).default([]),
    /** Accepted items go INITIAL -> PENDING (at half) -> SUCCESS/FAIL (at settleAfterMs). 0 = settled in the answer. */
    settleAfterMs: z.number().int().min(0).default(1500),
    /** bulk-status auth: the SDKs send the public key, the betting text says signature. */
    bulkStatusAuth: z.enum(['either', 'publicKey', 'signature']).default('either'),
    /** Refuse a signed body that is not canonical JSON (keys sorted recursively, compact). */
    requireCanonicalBody: z.boolean().default(true),
    /** Real responses are wrapped `{code,message,data}`; "bare" answers data alone (clients accept both). */
    responseForm: z.enum(['wrapped', 'bare']).default('wrapped'),
    maxBatchItems: z.number().int().min(1).default(100),
    /** The callback goes out on SUCCESS; set true to send it on FAIL as well. */
    callbackOnFail: z.boolean().default(false),
    callbackType: z.string().default('transaction-status'),
    payChannel: z.string().default('BalancePayment'),
  })
  .strict();

export const PosMerchantSchema = z
  .object({
    headMerchantId: id,
    merchantIds: z.array(id).min(1, 'list at least one branch merchantId'),
    clientAuthKey: z.string().min(1),
    merchantPublicKey: pem('PUBLIC'),
    webhookUrl: httpUrl.nullable().default(null),
    recipientName: z.string().default('COUNTERPAY DEMO CINEMA'),
    recipientAccount: z.string().default('7012345678'),
  })
  .strict();

export const TerminalSchema = z
  .object({
    sn: id,
    merchantId: id,
    /** Settle each new order this way after autoAfterMs; null waits for a present() call. */
    autoOutcome: z.enum(['SUCCESS', 'FAIL', 'CANCEL']).nullable().default(null),
    autoAfterMs: z.number().int().min(0).default(0),
  })
  .strict();

export const PosConfigSchema = z
  .object({
    providerPrivateKey: pem('PRIVATE'),
    merchants: z.array(PosMerchantSchema).default([]),
    terminals: z.array(TerminalSchema).default([]),
    /** Which published form the response `sign` is computed over. */
    responseSignForm: z.enum(['sortedKv', 'dataTimestamp']).default('sortedKv'),
    /** Response `data` RSA-encrypted with the merchant's public key (true) or sent as an object. */
    encryptResponseData: z.boolean().default(true),
    signHash: z.enum(['SHA256', 'SHA1']).default('SHA256'),
    timestampToleranceMs: z.number().int().min(0).default(300_000),
    /** Sign error answers (true); the "order not exist" answer is unsigned unless signNotFound. */
    signErrors: z.boolean().default(true),
    signNotFound: z.boolean().default(false),
    notFoundCode: z
      .string()
      .regex(/^\w{1,10}$/)
      .default('00003'),
    /** Webhook paramContent plaintext: `{"data":{...}}` (wrapped) or the fields alone (bare). */
    webhookPayloadForm: z.enum(['wrapped', 'bare']).default('wrapped'),
    webhookTranIdHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .default('X-Opay-Tranid'),
    /** Fee charged on SUCCESS, in basis points of the amount, capped. */
    feeRateBps: z.number().int().min(0).max(10_000).default(50),
    feeCapKobo: z.number().int().min(0).default(10_000),
    /** null = any non-empty subSceneEnum. */
    allowedSubScenes: z.array(z.string().min(1)).nullable().default(null),
  })
  .strict();

export const WebhookConfigSchema = z
  .object({
    /** Delays between attempts after a failed delivery; the length is the number of retries. */
    retryScheduleMs: z.array(z.number().int().min(0)).default([1000, 5000, 30_000, 120_000, 600_000]),
    timeoutMs: z.number().int().min(1).default(5000),
  })
  .strict();

export const SandboxConfigSchema = z
  .object({
    port: z.number().int().min(0).max(65535).default(7070),
    host: z.string().min(1).default('127.0.0.1'),
    bills: BillsConfigSchema,
    pos: PosConfigSchema,
    webhooks: WebhookConfigSchema.prefault({}),
    faults: z.array(FaultRuleSchema).default([]),
  })
  .strict()
  .superRefine((c, ctx) => {
    const dup = (values: string[], path: (string | number)[], what: string) => {
      const seen = new Set<string>();
      values.forEach((v, i) => {
        if (seen.has(v)) ctx.addIssue({ code: 'custom', path: [...path, i], message: `duplicate ${what} "${v}"` });
        seen.add(v);
      });
    };
    dup(
      c.bills.merchants.map((m) => m.merchantId),
      ['bills', 'merchants'],
      'merchantId',
    );
    dup(
      c.bills.bettingProviders.map((p) => p.provider),
      ['bills', 'bettingProviders'],
      'provider',
    );
    dup(
      c.pos.merchants.map((m) => m.headMerchantId),
      ['pos', 'merchants'],
      'headMerchantId',
    );
    dup(
      c.pos.merchants.map((m) => m.clientAuthKey),
      ['pos', 'merchants'],
      'clientAuthKey',
    );
    dup(
      c.pos.terminals.map((t) => t.sn),
      ['pos', 'terminals'],
      'terminal sn',
    );
    dup(
      c.pos.merchants.flatMap((m) => m.merchantIds),
      ['pos', 'merchants'],
      'branch merchantId',
    );
    c.bills.bettingProviders.forEach((p, i) => {
      if (p.minAmount && p.maxAmount && p.minAmount.amount > p.maxAmount.amount)
        ctx.addIssue({
          code: 'custom',
          path: ['bills', 'bettingProviders', i, 'minAmount'],
          message: 'minAmount is above maxAmount',
        });
    });
    const providers = new Set(c.bills.bettingProviders.map((p) => p.provider));
    c.bills.bettingCustomers.forEach((cu, i) => {
      if (!providers.has(cu.provider))
        ctx.addIssue({
          code: 'custom',
          path: ['bills', 'bettingCustomers', i, 'provider'],
          message: `"${cu.provider}" is not one of bills.bettingProviders`,
        });
    });
    const branches = new Set(c.pos.merchants.flatMap((m) => m.merchantIds));
    c.pos.terminals.forEach((t, i) => {
      if (!branches.has(t.merchantId))
        ctx.addIssue({
          code: 'custom',
          path: ['pos', 'terminals', i, 'merchantId'],
          message: `"${t.merchantId}" is not a branch of any pos.merchants entry`,
        });
    });
  });

/** What callers write (defaults optional). */
export type SandboxConfig = z.input<typeof SandboxConfigSchema>;
/** What the sandbox runs on (defaults filled in). */
export type ResolvedSandboxConfig = z.output<typeof SandboxConfigSchema>;
export type BillsMerchant = z.output<typeof BillsMerchantSchema>;
export type PosMerchant = z.output<typeof PosMerchantSchema>;
export type TerminalConfig = z.output<typeof TerminalSchema>;

export class SandboxConfigError extends Error {
  readonly code = 'SANDBOX_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'SandboxConfigError';
  }
}

/** One line a person can act on per problem: "pos.terminals[0].merchantId: ...". */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path
        .map((p, n) => (typeof p === 'number' ? `[${p}]` : n === 0 ? String(p) : `.${String(p)}`))
        .join('');
      return `  ${path || '(top level)'}: ${i.message}`;
    })
    .join('\n');
}

export function parseSandboxConfig(input: unknown, source = 'sandbox config'): ResolvedSandboxConfig {
  const result = SandboxConfigSchema.safeParse(input);
  if (!result.success) throw new SandboxConfigError(`${source} is not valid:\n${formatIssues(result.error)}`);
  return result.data;
}

export function loadConfigFile(file: string): ResolvedSandboxConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SandboxConfigError(`Cannot read the sandbox config ${file}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SandboxConfigError(`The sandbox config ${file} is not valid JSON: ${(e as Error).message}`);
  }
  return parseSandboxConfig(json, `The sandbox config ${file}`);
}
