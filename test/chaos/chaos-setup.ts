// What a chaos run is made of: its options, the sandbox (manual terminals, fast webhook retries,
// seeded faults), the app's provider settings and its scaled-down timings, and the sales it makes.
import type { CheckoutTuningInput } from '../../core/orders/checkout-service';
import type { FaultRule } from '../../sandbox';
import type { SaleInput } from '../../shared/orders';
import type { Rng } from '../helpers/chaos-random';
import { startTerminalsSandbox, type TerminalsSandbox } from '../helpers/chaos-sandbox';

export interface ChaosOptions {
  sales: number;
  seed: number;
  kills: number;
  /** orderExpireSeconds of every sale. */
  expireSeconds: number;
  terminals: number;
  /** Mean pause between two sales. */
  gapMs: number;
  /** Periods in which the provider cannot be reached at all, during the sales (1 to 6 s; the last one longer than a sale's useful life). */
  outages: number;
  /** Multiplies the rate of every disruptive fault (1 = the standard mix). */
  faultScale: number;
  /** Keep the temp dir (journal, logs) even when the run passes. */
  keep: boolean;
}

export const DEFAULT_CHAOS_OPTIONS: ChaosOptions = {
  sales: 200,
  seed: 1,
  kills: 6,
  expireSeconds: 30,
  terminals: 12,
  gapMs: 250,
  outages: 2,
  faultScale: 1,
  keep: false,
};

/** Longer than any create can take at the provider (timeout + injected latency + 1 s rounding). */
export const REQUEST_TIMEOUT_MS = 2_000;

/** The checkout's schedule, scaled down so orders of 30 s finish within the run. */
export function chaosTuning(expireSeconds: number): CheckoutTuningInput {
  return {
    poll: {
      fastMs: 150,
      fastWindowMs: 5_000,
      mediumMs: 300,
      mediumWindowMs: 15_000,
      slowMs: 600,
      graceMs: 6_000,
      errorBaseMs: 100,
      errorMaxMs: 1_000,
      undecidedMs: 1_000,
    },
    backoff: { baseMs: 100, maxMs: 1_000 },
    minUsefulMs: Math.min(3_000, Math.floor((expireSeconds * 1000) / 3)),
    maxChecksPerSecond: 100,
    checkBurst: 20,
  };
}

/** Faults on every API path at seeded rates, and tampered signatures on some webhooks. */
export function chaosFaults(seed: number, scale = 1): FaultRule[] {
  const rules: Omit<FaultRule, 'seed'>[] = [
    { path: '*', kind: 'latency', latencyMs: 40, rate: 0.3 },
    { path: '*', kind: 'latency', latencyMs: 400, rate: 0.05 },
    // Past the client's timeout: the provider still acts on the request after we gave up.
    { path: '*', kind: 'latency', latencyMs: REQUEST_TIMEOUT_MS + 500, rate: 0.01 },
    { path: '*', kind: 'http500', rate: 0.03 },
    { path: '*', kind: 'http502', rate: 0.02 },
    { path: '*', kind: 'http503', rate: 0.02 },
    { path: '*', kind: 'drop', rate: 0.03 },
    { path: '*', kind: 'commitThenDrop', rate: 0.05 },
    { path: '*', kind: 'tamperSign', rate: 0.02 },
    { path: 'webhook:pos', kind: 'tamperSign', rate: 0.1 },
    // The provider takes the payment after the order was closed (failed, cancelled, expired), a moment later.
    { path: 'settle:pos', kind: 'lateSuccess', latencyMs: 300, rate: 0.1 },
  ];
  return rules.map((r, i) => ({
    ...r,
    ...(r.kind !== 'latency' && r.rate !== undefined ? { rate: Math.min(1, r.rate * scale) } : {}),
    seed: seed * 101 + i,
  }));
}

/** The sandbox of a chaos run: manual terminals, quick webhook retries, the seeded faults. */
export async function startChaosSandbox(o: ChaosOptions): Promise<TerminalsSandbox> {
  // Quick retries, so a notification the dead app missed comes again while the run lasts.
  const cs = await startTerminalsSandbox({
    terminals: o.terminals,
    prefix: 'CHAOS-POS',
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    retryScheduleMs: [200, 500, 1_000, 2_000, 4_000, 8_000],
  });
  cs.sandbox.setFaults(chaosFaults(o.seed, o.faultScale));
  return cs;
}

const FILMS = [
  ['Lagos Nights', 'Hall 1'],
  ['King of Boys', 'Hall 2'],
  ['Anikulapo', 'Hall 3'],
  ['The Wedding Party', 'IMAX'],
] as const;

export function randomSale(rng: Rng, terminals: string[]): SaleInput {
  const [filmName, filmTitle] = FILMS[rng.int(0, FILMS.length - 1)]!;
  const tickets = rng.int(1, 4);
  const row = String.fromCharCode(65 + rng.int(0, 11));
  const first = rng.int(1, 20);
  return {
    filmName,
    filmTitle,
    showDate: '2025-03-31',
    showTime: `${rng.int(12, 22)}:${rng.chance(0.5) ? '00' : '30'}`,
    seats: Array.from({ length: tickets }, (_, i) => `${row}${first + i}`).join(','),
    tickets,
    priceKobo: rng.int(20, 60) * 10_000,
    bookingFeeKobo: rng.chance(0.5) ? 10_000 : 0,
    sn: terminals[rng.int(0, terminals.length - 1)]!,
  };
}
