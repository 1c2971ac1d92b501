// Fault injection: per path (or "*"), latency, HTTP 5xx, dropped connections, "commit then drop"
// and tampered signatures, either at a seeded rate (deterministic) or for the next N calls; and the
// provider changing its mind after a POS order settled ("settle:pos": lateSuccess takes the payment
// after the order was closed as failed, cancelled or expired; lateReversal reports a paid order as
// failed), `latencyMs` after the settlement.
import { z } from 'zod';

export const FAULT_KINDS = [
  'latency',
  'http500',
  'http502',
  'http503',
  'drop',
  'commitThenDrop',
  'tamperSign',
  'lateSuccess',
  'lateReversal',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * One rule. `path` is an API path ("/openApi/order/checkout/createOrder", "/api/v3/bills/bulk-bills"),
 * "*" for every API path, or "webhook:pos" / "webhook:bills" for outgoing notifications (only
 * tamperSign applies there), or "settle:pos" for a POS order's settlement (lateSuccess,
 * lateReversal; `latencyMs` is then the delay before the provider changes its mind). Without
 * `rate` and `times` the rule hits every call.
 */
export const FaultRuleSchema = z
  .object({
    path: z.string().min(1, 'path is required ("*" for every API path)'),
    kind: z.enum(FAULT_KINDS),
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    rate: z.number().min(0).max(1).optional(),
    seed: z.number().int().optional(),
    times: z.number().int().min(1).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.rate !== undefined && r.times !== undefined)
      ctx.addIssue({ code: 'custom', message: 'give either rate (with seed) or times, not both' });
    if (r.kind === 'latency' && r.latencyMs === undefined)
      ctx.addIssue({ code: 'custom', path: ['latencyMs'], message: 'a latency fault needs latencyMs' });
  });
export type FaultRule = z.input<typeof FaultRuleSchema>;

/** What to do to one call: total added latency, then at most one disruptive action. */
export interface FaultDecision {
  latencyMs: number;
  action: Exclude<FaultKind, 'latency'> | null;
  /** The winning action rule's own latencyMs (for "settle:pos": how long after the settlement). */
  afterMs: number;
}

/** mulberry32: small, fast, deterministic for a given seed (the chaos driver uses it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ActiveRule {
  rule: z.output<typeof FaultRuleSchema>;
  remaining: number | null;
  random: (() => number) | null;
  hits: number;
}

export interface FaultRuleState extends z.output<typeof FaultRuleSchema> {
  remaining: number | null;
  hits: number;
}

export class FaultEngine {
  private rules: ActiveRule[] = [];

  /** Replaces all rules. Throws a ZodError naming the bad field. */
  set(rules: FaultRule[]): void {
    const parsed = z.array(FaultRuleSchema).parse(rules);
    this.rules = parsed.map((rule) => ({
      rule,
      remaining: rule.times ?? null,
      random: rule.rate !== undefined ? prng(rule.seed ?? 1) : null,
      hits: 0,
    }));
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRuleState[] {
    return this.rules.map((r) => ({ ...r.rule, remaining: r.remaining, hits: r.hits }));
  }

  /**
   * Decides the faults for one call on `path`. Every matching seeded rule draws (so its sequence
   * depends only on the calls to its path); latencies add up; the first disruptive hit wins, and
   * later counted ("times") disruptive rules are kept for the following calls.
   */
  decide(path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, action: null, afterMs: 0 };
    const isWebhook = path.startsWith('webhook:') || path.startsWith('settle:'); // "*" means API paths only
    for (const r of this.rules) {
      const matches = r.rule.path === path || (r.rule.path === '*' && !isWebhook);
      if (!matches || r.remaining === 0) continue;
      // A counted disruptive rule waits for a call no earlier rule has already disrupted.
      if (r.remaining !== null && r.rule.kind !== 'latency' && decision.action !== null) continue;
      let hit: boolean;
      if (r.remaining !== null) {
        r.remaining -= 1;
        hit = true;
      } else if (r.random) {
        hit = r.random() < (r.rule.rate ?? 1);
      } else {
        hit = true;
      }
      if (!hit) continue;
      r.hits += 1;
      if (r.rule.kind === 'latency') decision.latencyMs += r.rule.latencyMs ?? 0;
      else if (decision.action === null) {
        decision.action = r.rule.kind;
        decision.afterMs = r.rule.latencyMs ?? 0;
      }
    }
    return decision;
  }
}

/** Corrupts a base64 or hex signature while keeping it well-formed, so only verification can catch it. */
export function tamperSignature(sign: string): string {
  if (sign.length === 0) return 'AAAA';
  const i = Math.min(10, sign.length - 1);
  const hex = /^[0-9a-f]+$/.test(sign);
  const c = hex ? (sign[i] === '0' ? '1' : '0') : sign[i] === 'A' ? 'B' : 'A';
  return sign.slice(0, i) + c + sign.slice(i + 1);
}
