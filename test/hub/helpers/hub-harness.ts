// Starts real Hubs for tests (PGlite in memory, or a real PostgreSQL URL) with a merchant made for
// the test: its clientAuthKey, a provider key pair (the test signs as the provider) and a merchant
// key pair (paramContent is really encrypted, as the provider would). HTTP over loopback.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import pino from 'pino';
import { rsaEncryptChunked, rsaSign } from '../../../protocol/crypto';
import type { EnrollResponse } from '../../../shared/hub-contract';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { startHub, type Hub, type HubOptions } from '../../../hub/server';

export interface TestMerchant {
  clientAuthKey: string;
  providerPublicPem: string;
  providerPrivatePem: string;
  merchantPublicPem: string;
  merchantPrivatePem: string;
}

export function makeMerchant(): TestMerchant {
  const provider = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const merchant = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    clientAuthKey: `cak_${randomBytes(12).toString('hex')}`,
    providerPublicPem: provider.publicKey,
    providerPrivatePem: provider.privateKey,
    merchantPublicPem: merchant.publicKey,
    merchantPrivatePem: merchant.privateKey,
  };
}

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

export interface TestHub extends Hub {
  db: HubDb;
  merchant: TestMerchant;
  clock: { offsetMs: number };
  stop(): Promise<void>;
}

/** `noMerchantFile`: the Hub starts as an operator who forgot --merchant-config would start it (it cannot verify webhooks). */
export async function startTestHub(
  o: { merchant?: TestMerchant; databaseUrl?: string; db?: HubDb; noMerchantFile?: boolean } & Partial<
    Omit<HubOptions, 'db' | 'merchant'>
  > = {},
): Promise<TestHub> {
  const merchant = o.merchant ?? makeMerchant();
  const db = o.db ?? (await openHubDb({ databaseUrl: o.databaseUrl ?? null, dataDir: null }));
  const clock = { offsetMs: 0 };
  const hub = await startHub({
    host: '127.0.0.1',
    port: 0,
    logger: pino({ level: 'silent' }),
    adminToken: ADMIN_TOKEN,
    heartbeatMs: 200,
    now: () => Date.now() + clock.offsetMs,
    ...o,
    db,
    merchant: o.noMerchantFile
      ? null
      : { clientAuthKey: merchant.clientAuthKey, providerPublicKey: merchant.providerPublicPem, signHash: 'SHA256' },
  });
  return {
    ...hub,
    db,
    merchant,
    clock,
    async stop() {
      await hub.close();
      if (!o.db) await db.close();
    },
  };
}

export interface PosWebhookInput {
  tranId: string;
  branch: string;
  /** The notification fields the counter will decrypt. */
  data?: Record<string, string>;
  timestamp?: number;
  clientAuthKey?: string;
  signWith?: string;
  sign?: string;
}

/** A POS webhook exactly as the provider sends it: encrypted paramContent, signed with the provider's key. */
export function posWebhook(m: TestMerchant, i: PosWebhookInput): { headers: Record<string, string>; body: string } {
  const timestamp = String(i.timestamp ?? Date.now());
  const data = i.data ?? {
    orderNo: i.tranId,
    outOrderNo: `ref-${i.tranId}`,
    status: 'SUCCESS',
    amount: '1500.00',
    nonce: randomBytes(4).toString('hex'),
  };
  const paramContent = rsaEncryptChunked(m.merchantPublicPem, JSON.stringify({ data }));
  const sign = i.sign ?? rsaSign(i.signWith ?? m.providerPrivatePem, paramContent + timestamp);
  return {
    headers: { 'content-type': 'application/json', 'X-Opay-Tranid': i.tranId, merchantId: i.branch },
    body: JSON.stringify({
      clientAuthKey: i.clientAuthKey ?? m.clientAuthKey,
      version: 'V1.0.1',
      bodyFormat: 'JSON',
      timestamp,
      paramContent,
      sign,
    }),
  };
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A code for `branch` only; without it, a code any branch may use (`anyBranch`). */
export async function issueCode(hub: Pick<Hub, 'url'>, ttlMinutes = 60, branch?: string): Promise<string> {
  const r = await post(
    `${hub.url}/api/v1/admin/enroll-codes`,
    { ttlMinutes, ...(branch ? { branch } : { anyBranch: true }) },
    bearer(ADMIN_TOKEN),
  );
  if (r.status !== 200) throw new Error(`issue code: ${JSON.stringify(r.json)}`);
  return String(r.json.code);
}

export async function enroll(hub: Pick<Hub, 'url'>, name: string, branch: string): Promise<EnrollResponse> {
  const code = await issueCode(hub, 60, branch);
  const r = await post(`${hub.url}/api/v1/enroll`, { code, counterName: name, branch, appVersion: '0.1.0' });
  if (r.status !== 200) throw new Error(`enroll: ${JSON.stringify(r.json)}`);
  return r.json as unknown as EnrollResponse;
}

export async function sendPosWebhook(
  hub: Pick<Hub, 'webhookUrls'>,
  w: { headers: Record<string, string>; body: string },
) {
  const res = await fetch(hub.webhookUrls.pos, { method: 'POST', headers: w.headers, body: w.body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
