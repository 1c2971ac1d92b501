// What every route of one Hub instance shares.
import type { HubDb } from './db/adapter';
import type { HubMetrics } from './metrics';
import type { RelayHub } from './relay/relay-hub';
import type { RateLimiter } from './relay/rate-limit';
import type { HubMerchantKeys } from './webhook/verify-pos';

export interface HubLimits {
  /** Provider webhook bodies (POS and bills). */
  webhookBodyBytes: number;
  syncBodyBytes: number;
  otherBodyBytes: number;
}

export interface HubContext {
  db: HubDb;
  relay: RelayHub;
  metrics: HubMetrics;
  now: () => number;
  merchant: HubMerchantKeys | null;
  /** Header carrying the provider's transaction id, e.g. X-Opay-Tranid. */
  tranIdHeader: string;
  adminToken: string | null;
  limits: HubLimits;
  perCredential: RateLimiter;
  perAddress: RateLimiter;
  /** Wider limits for the provider's webhook address (it sends bursts). */
  perProvider: RateLimiter;
}
