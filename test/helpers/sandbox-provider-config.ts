// The client-side configuration that talks to a sandbox as its demo merchant.
import { defaultConventions, type Conventions } from '../../shared/settings';
import type { ProviderConfig } from '../../core/provider/types';
import type { DemoMerchantValues, Sandbox } from '../../sandbox';

export function sandboxProviderConfig(
  sandbox: Pick<Sandbox, 'billsBaseUrl' | 'posBaseUrl'>,
  merchant: DemoMerchantValues,
  o: { requestTimeoutMs: number; conventions?: Partial<Conventions> },
): ProviderConfig {
  return {
    billsBaseUrl: sandbox.billsBaseUrl,
    posBaseUrl: sandbox.posBaseUrl,
    billsMerchantId: merchant.billsMerchantId,
    headMerchantId: merchant.headMerchantId,
    merchantId: merchant.merchantId,
    requestTimeoutMs: o.requestTimeoutMs,
    conventions: { ...defaultConventions(), ...o.conventions },
    secrets: {
      billsPublicKey: merchant.billsPublicKey,
      billsSecretKey: merchant.billsSecretKey,
      posClientAuthKey: merchant.clientAuthKey,
      merchantPrivateKey: merchant.merchantPrivateKeyPem,
      providerPublicKey: merchant.providerPublicKeyPem,
    },
  };
}
