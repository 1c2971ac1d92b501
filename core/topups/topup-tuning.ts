// How the top-up engine paces itself: requests in flight, the rate cap, how often open items are
// asked about, and the back-off while the provider cannot be reached.

export interface EngineTuning {
  /** Batch bulk-bills requests in flight at once. */
  maxInFlight: number;
  /** Cap on batch sends and status inquiries together. */
  requestsPerSecond: number;
  burst: number;
  /** First status inquiry after the provider answered INITIAL/PENDING; then growing to maxCheckMs. */
  firstCheckMs: number;
  maxCheckMs: number;
  checkGrowth: number;
  /** An item whose send may have reached the provider is asked about this long after the send started. */
  unknownGraceMs: number;
  statusChunkSize: number;
  /** Items due within this window are asked about in the same request. */
  sweepWindowMs: number;
  /** Sends of one reference the provider keeps saying it does not have, before it counts as not sent. */
  maxAttempts: number;
  /** Back-off while the provider cannot be reached (batch sends) or inquiries fail. */
  retryMinMs: number;
  retryMaxMs: number;
}

export const DEFAULT_ENGINE_TUNING: EngineTuning = {
  maxInFlight: 2,
  requestsPerSecond: 10,
  burst: 10,
  firstCheckMs: 2000,
  maxCheckMs: 30_000,
  checkGrowth: 1.6,
  unknownGraceMs: 3000,
  statusChunkSize: 100,
  sweepWindowMs: 500,
  maxAttempts: 5,
  retryMinMs: 2000,
  retryMaxMs: 60_000,
};
