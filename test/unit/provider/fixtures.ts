// Shared test material for provider unit tests: the RSA test keys and a default config.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConventions, type Conventions } from '../../../shared/settings';
import type { ProviderConfig } from '../../../core/provider/types';

const vectors = JSON.parse(readFileSync(resolve(__dirname, '../../fixtures/test-vectors.json'), 'utf8')) as {
  rsaKeys: {
    providerPublicKey: string;
    providerPrivateKey: string;
    merchantPublicKey: string;
    merchantPrivateKey: string;
  };
  billsSignature: { secretKey: string };
};

export const keys = vectors.rsaKeys;
export const billsSecretKey = vectors.billsSignature.secretKey;

export function testConfig(over: Partial<ProviderConfig> = {}, conv: Partial<Conventions> = {}): ProviderConfig {
  return {
    billsBaseUrl: 'http://127.0.0.1:9/api/v3',
    posBaseUrl: 'http://127.0.0.1:9',
    billsMerchantId: '256621000000001',
    headMerchantId: '256621000000001',
    merchantId: '256621000000002',
    requestTimeoutMs: 2000,
    conventions: { ...defaultConventions(), ...conv },
    secrets: {
      billsPublicKey: 'OPAYPUB-test-public',
      billsSecretKey,
      posClientAuthKey: 'client-auth-key-test',
      merchantPrivateKey: keys.merchantPrivateKey,
      providerPublicKey: keys.providerPublicKey,
    },
    ...over,
  };
}
