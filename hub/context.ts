// What every route of one Hub instance shares.
import type { HubDb } from './db/adapter';
import type { CredentialCache } from './http/credential-cache';
import type { LiveFeed } from './streams/dashboard-live';
import type { FloodBrake } from './http/flood-brake';
import type { AttentionConfig } from './store/attention';
import type { ThrottlePolicy } from './store/login-throttle';
import type { SessionPolicy } from './store/managers';
import type { HubMetrics } from './metrics';
import type { RelayHub } from './streams/relay-hub';
import type { KeyedTokenBuckets } from '../shared/token-bucket';
import type { NotificationIngestInput, NotificationIngestResult } from './store/notifications';
import type { HubMerchantKeys } from './webhook/verify-pos';

export interface HubLimits {
  /** The provider's POS webhook bodies. */
  webhookBodyBytes: number;
  /** The bills callback (unauthenticated: a real one is far below this). */
  billsBodyBytes: number;
  syncBodyBytes: number;
  otherBodyBytes: number;
}

/** The manager's dashboard: session lifetimes, login throttling, Needs-attention thresholds, the live feed. */
export interface DashboardContext {
  session: SessionPolicy;
  throttle: ThrottlePolicy;
  attention: AttentionConfig;
  /** Cookies get `Secure` when the Hub serves TLS itself (or is told it sits behind a TLS proxy). */
  secureCookie: boolean;
  loginLimiter: KeyedTokenBuckets;
  /** The Hub's public origins (scheme://host[:port]); empty: a request's own Host under its scheme. */
  publicOrigins: string[];
  live: LiveFeed;
}

export interface HubContext {
  db: HubDb;
  /** Stores a provider notification (batched with those arriving meanwhile); resolves once it is committed. */
  ingest: (n: NotificationIngestInput) => Promise<NotificationIngestResult>;
  relay: RelayHub;
  metrics: HubMetrics;
  now: () => number;
  merchant: HubMerchantKeys | null;
  /** Header carrying the provider's transaction id, e.g. X-Opay-Tranid. */
  tranIdHeader: string;
  adminToken: string | null;
  limits: HubLimits;
  perCredential: KeyedTokenBuckets;
  perAddress: KeyedTokenBuckets;
  /** Holds the refusals of an address that keeps on past perAddress (an anonymous flood). */
  floodBrake: FloodBrake;
  /** Credentials known good (served from memory) and each address's lookups of unknown ones. */
  credentials: CredentialCache;
  /** Wider limits for the provider's webhook address (it sends bursts). */
  perProvider: KeyedTokenBuckets;
  /** The bills callback per address: anyone can reach it, so far below the POS webhook's limit. */
  perBillsAddress: KeyedTokenBuckets;
  dashboard: DashboardContext;
}
