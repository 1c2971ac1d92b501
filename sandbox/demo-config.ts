// A ready-to-run demo configuration with fresh keys, and the values the merchant side needs to
// talk to it (the app's Demo profile and `npm run sandbox` without --config use this).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { SandboxConfig } from './config';
import { DEMO_AUTO_TERMINAL_SN, DEMO_HEAD_MERCHANT_ID, DEMO_TERMINAL_SN } from '../shared/demo-merchant';

export interface DemoMerchantValues {
  billsMerchantId: string;
  billsPublicKey: string;
  billsSecretKey: string;
  headMerchantId: string;
  merchantId: string;
  clientAuthKey: string;
  merchantPrivateKeyPem: string;
  providerPublicKeyPem: string;
  /** The manual terminal (waits for present()). */
  terminalSn: string;
  /** A second terminal that approves every order by itself after a short delay. */
  autoTerminalSn: string;
}

function rsaPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

const token = (bytes: number) => randomBytes(bytes).toString('hex');

export function generateDemoConfig(): { config: SandboxConfig; merchant: DemoMerchantValues } {
  const provider = rsaPair();
  const merchantKeys = rsaPair();
  const billsMerchantId = '256621000000001';
  const headMerchantId = DEMO_HEAD_MERCHANT_ID;
  const merchantId = '256621000000102';
  const billsPublicKey = `OPAYPUB${token(16)}`;
  const billsSecretKey = `OPAYPRV${token(16)}`;
  const clientAuthKey = `CAK${token(16)}`;
  const config: SandboxConfig = {
    port: 7070,
    bills: {
      merchants: [{ merchantId: billsMerchantId, publicKey: billsPublicKey, secretKey: billsSecretKey }],
      bettingProviders: [
        {
          provider: 'BET9JA',
          providerLogoUrl: 'https://example.invalid/logos/bet9ja.png',
          minAmount: { currency: 'NGN', amount: 10_000 },
          maxAmount: { currency: 'NGN', amount: 50_000_000 },
        },
        {
          provider: 'SPORTYBET',
          providerLogoUrl: 'https://example.invalid/logos/sportybet.png',
          minAmount: { currency: 'NGN', amount: 5_000 },
          maxAmount: { currency: 'NGN', amount: 20_000_000 },
        },
        { provider: 'NAIRABET', providerLogoUrl: 'https://example.invalid/logos/nairabet.png' },
      ],
      bettingCustomers: [
        { provider: 'BET9JA', customerId: '20001', firstName: 'Chinedu', lastName: 'Okafor', userName: 'chinedu01' },
        { provider: 'BET9JA', customerId: '20002', firstName: 'Aisha', lastName: 'Bello', userName: 'aishab' },
        {
          provider: 'SPORTYBET',
          customerId: '8030000001',
          firstName: 'Tunde',
          lastName: 'Adeyemi',
          userName: 'tundea',
        },
        { provider: 'NAIRABET', customerId: 'nb-30002', firstName: 'Ngozi', lastName: 'Eze', userName: 'ngozie' },
        { provider: 'NAIRABET', customerId: 'nb-40404', firstName: 'Emeka', lastName: 'Nwosu', userName: 'emekafail' },
      ],
      failCustomers: [
        { provider: 'NAIRABET', customerId: 'nb-40404', errorMsg: 'Customer account is suspended at the provider' },
        { customerId: '+2348000000404', errorMsg: 'Recipient number is barred' },
      ],
      settleAfterMs: 1500,
    },
    pos: {
      providerPrivateKey: provider.privateKey,
      merchants: [
        {
          headMerchantId,
          merchantIds: [merchantId],
          clientAuthKey,
          merchantPublicKey: merchantKeys.publicKey,
          webhookUrl: null,
        },
      ],
      terminals: [
        { sn: DEMO_TERMINAL_SN, merchantId, autoOutcome: null, autoAfterMs: 0 },
        { sn: DEMO_AUTO_TERMINAL_SN, merchantId, autoOutcome: 'SUCCESS', autoAfterMs: 4000 },
      ],
    },
  };
  return {
    config,
    merchant: {
      billsMerchantId,
      billsPublicKey,
      billsSecretKey,
      headMerchantId,
      merchantId,
      clientAuthKey,
      merchantPrivateKeyPem: merchantKeys.privateKey,
      providerPublicKeyPem: provider.publicKey,
      terminalSn: DEMO_TERMINAL_SN,
      autoTerminalSn: DEMO_AUTO_TERMINAL_SN,
    },
  };
}
