// Test-side helpers for the provider sandbox: a raw HTTP client, tiny bills/POS signers built
// straight on the crypto primitives (not the app's clients), a loopback webhook receiver, and
// event waiters. Keys are generated once per test process.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  canonicalJson,
  hmacSha512,
  posResponseSignStrings,
  rsaDecryptChunked,
  rsaEncryptChunked,
  rsaSign,
  rsaVerify,
} from '../../protocol/crypto';
import type { SandboxConfig } from '../../sandbox/config';
import type { Sandbox, SandboxEventMap, SandboxEvents } from '../../sandbox';

/** Parsed wire JSON in tests: read freely, asserted with expect(). The one `any` of these tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Wire = any;

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

let cached: { provider: KeyPair; merchant: KeyPair; stranger: KeyPair } | null = null;

/** Provider, merchant and an unrelated key pair (2048-bit), generated once per process. */
export function testKeys(): { provider: KeyPair; merchant: KeyPair; stranger: KeyPair } {
  const pair = () =>
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
  cached ??= { provider: pair(), merchant: pair(), stranger: pair() };
  return cached;
}

export const IDS = {
  billsMerchantId: 'BM-1',
  billsPublicKey: 'OPAYPUB-test-1',
  billsSecretKey: 'OPAYPRV-test-1',
  headMerchantId: 'HM-1',
  merchantId: 'BR-1',
  otherBranch: 'BR-2',
  clientAuthKey: 'CAK-test-1',
  terminalSn: 'TERM-1',
  otherBranchTerminal: 'TERM-9',
} as const;

/** A small, complete configuration; `patch` edits it before use. */
export function testConfig(patch: (c: SandboxConfig) => void = () => {}): SandboxConfig {
  const k = testKeys();
  const c: SandboxConfig = {
    port: 0,
    bills: {
      merchants: [{ merchantId: IDS.billsMerchantId, publicKey: IDS.billsPublicKey, secretKey: IDS.billsSecretKey }],
      bettingProviders: [
        {
          provider: 'BET9JA',
          providerLogoUrl: 'https://logo.example/bet9ja.png',
          minAmount: { currency: 'NGN', amount: 10_000 },
          maxAmount: { currency: 'NGN', amount: 50_000_000 },
        },
        { provider: 'NAIRABET', providerLogoUrl: 'https://logo.example/nairabet.png' },
      ],
      bettingCustomers: [
        { provider: 'BET9JA', customerId: '20001', firstName: 'Chinedu', lastName: 'Okafor', userName: 'chinedu01' },
        { provider: 'NAIRABET', customerId: 'nb-30002', firstName: 'Ngozi', lastName: 'Eze', userName: 'ngozie' },
        { provider: 'NAIRABET', customerId: 'nb-40404', firstName: 'Emeka', lastName: 'Nwosu', userName: 'emeka' },
      ],
      failCustomers: [{ provider: 'NAIRABET', customerId: 'nb-40404', errorMsg: 'Customer account is suspended' }],
      settleAfterMs: 200,
    },
    pos: {
      providerPrivateKey: k.provider.privateKey,
      merchants: [
        {
          headMerchantId: IDS.headMerchantId,
          merchantIds: [IDS.merchantId, IDS.otherBranch],
          clientAuthKey: IDS.clientAuthKey,
          merchantPublicKey: k.merchant.publicKey,
          webhookUrl: null,
        },
      ],
      terminals: [
        { sn: IDS.terminalSn, merchantId: IDS.merchantId, autoOutcome: null, autoAfterMs: 0 },
        { sn: IDS.otherBranchTerminal, merchantId: IDS.otherBranch },
      ],
    },
    webhooks: { retryScheduleMs: [30, 60, 90], timeoutMs: 2000 },
  };
  patch(c);
  return c;
}

// ---- raw HTTP ----

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Wire;
}

/** One request over node:http; rejects on a connection error (reset, hang up). */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

// ---- bills ----

export type BillsAuth = 'publicKey' | 'signature' | { bearer: string };

export async function billsCall(
  sb: Sandbox,
  op: 'betting-providers' | 'validate' | 'bulk-bills' | 'bulk-status',
  body: unknown,
  opts: { auth?: BillsAuth; merchantId?: string | null; rawBody?: string; secretKey?: string } = {},
): Promise<RawResponse> {
  const text = opts.rawBody ?? (body === undefined ? '' : canonicalJson(body));
  const auth = opts.auth ?? (op === 'bulk-bills' ? 'signature' : 'publicKey');
  const bearer =
    typeof auth === 'object'
      ? auth.bearer
      : auth === 'publicKey'
        ? IDS.billsPublicKey
        : hmacSha512(opts.secretKey ?? IDS.billsSecretKey, text);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` };
  if (opts.merchantId !== null) headers.MerchantId = opts.merchantId ?? IDS.billsMerchantId;
  return rawRequest(`${sb.billsBaseUrl}/bills/${op}`, { headers, body: text });
}

// ---- POS ----

export interface PosCallOptions {
  timestamp?: string;
  clientAuthKey?: string;
  /** Signs with this private key instead of the merchant's. */
  signKey?: string;
  /** Replaces the computed sign. */
  sign?: string;
  /** Replaces paramContent after signing (to send a sign/paramContent mismatch). */
  paramContent?: string;
  headers?: Record<string, string>;
}

export interface PosAnswer extends RawResponse {
  /** data decrypted with the merchant key (or as sent when not a string). */
  data: Wire;
  /** Whether `sign` verifies under the form the sandbox is configured for (either form). */
  signValid: boolean;
}

export function encodePosRequest(
  params: unknown,
  timestamp: string,
  opts: PosCallOptions = {},
): { paramContent: string; sign: string } {
  const k = testKeys();
  const paramContent = rsaEncryptChunked(k.provider.publicKey, canonicalJson(params));
  const sign = opts.sign ?? rsaSign(opts.signKey ?? k.merchant.privateKey, paramContent + timestamp);
  return { paramContent: opts.paramContent ?? paramContent, sign };
}

export async function posCall(
  sb: Sandbox,
  op: 'createOrder' | 'qryOrderDetail' | 'depositStatisticAccountCallBack',
  params: unknown,
  opts: PosCallOptions = {},
): Promise<PosAnswer> {
  const timestamp = opts.timestamp ?? String(Date.now());
  const body = encodePosRequest(params, timestamp, opts);
  const headers = {
    'Content-Type': 'application/json',
    clientAuthKey: opts.clientAuthKey ?? IDS.clientAuthKey,
    version: 'V1.0.1',
    bodyFormat: 'JSON',
    timestamp,
    ...opts.headers,
  };
  const r = await rawRequest(`${sb.posBaseUrl}/openApi/order/checkout/${op}`, { headers, body: JSON.stringify(body) });
  return { ...r, ...decodePosAnswer(r.json) };
}

export function decodePosAnswer(env: Wire): { data: Wire; signValid: boolean } {
  const k = testKeys();
  let data = env?.data ?? null;
  if (typeof data === 'string') data = JSON.parse(rsaDecryptChunked(k.merchant.privateKey, data));
  let signValid = false;
  if (env && typeof env.sign === 'string') {
    const forms = posResponseSignStrings(env);
    signValid =
      rsaVerify(k.provider.publicKey, forms.sortedKv, env.sign) ||
      rsaVerify(k.provider.publicKey, forms.dataTimestamp, env.sign);
  }
  return { data, signValid };
}

export function orderParams(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    headMerchantId: IDS.headMerchantId,
    merchantId: IDS.merchantId,
    outOrderNo: `CP-${Math.random().toString(36).slice(2, 10)}`,
    amount: '3500.00',
    currency: 'NGN',
    orderExpireTime: 300,
    sceneEnum: 'CASH_API',
    subSceneEnum: 'FILM',
    sn: IDS.terminalSn,
    isSplit: 'N',
    splitInfo: null,
    productInfo: {
      filmName: 'Lagos Nights',
      filmTicketNum: '2',
      seatNum: 'F7,F8',
      filmDate: '2026-11-21',
      filmTime: '19:30',
    },
    remark: 'Counter 3',
    ...patch,
  };
}

// ---- webhook receiver ----

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  json: Wire;
  at: number;
}

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A loopback HTTP receiver; `reply(i)` decides the answer to the i-th request (0-based). */
export async function startReceiver(
  reply: (i: number) => { status: number; body: string } = () => ({
    status: 200,
    body: '{"code":"00000","message":"SUCCESSFUL"}',
  }),
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const waiters: { n: number; resolve: (r: ReceivedRequest[]) => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = undefined;
      try {
        json = JSON.parse(body);
      } catch {
        /* keep undefined */
      }
      const r = reply(received.length);
      received.push({ headers: req.headers, body, json, at: Date.now() });
      res.writeHead(r.status, { 'Content-Type': 'application/json' });
      res.end(r.body);
      for (const w of [...waiters])
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(received.slice());
        }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor(n, timeoutMs = 5000) {
      if (received.length >= n) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${n} requests within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ n, resolve: (r) => (clearTimeout(t), resolve(r)) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Resolves with the first `name` event whose payload passes `test`. */
export function waitForEvent<K extends keyof SandboxEventMap>(
  emitter: SandboxEvents,
  name: K,
  test: (payload: SandboxEventMap[K][0]) => boolean = () => true,
  timeoutMs = 5000,
): Promise<SandboxEventMap[K][0]> {
  return new Promise((resolve, reject) => {
    const onEvent = (payload: SandboxEventMap[K][0]) => {
      if (!test(payload)) return;
      clearTimeout(timer);
      emitter.off(name, onEvent as never);
      resolve(payload);
    };
    const timer = setTimeout(() => {
      emitter.off(name, onEvent as never);
      reject(new Error(`no "${String(name)}" event within ${timeoutMs} ms`));
    }, timeoutMs);
    emitter.on(name, onEvent as never);
  });
}
