// Payment detection: how long after the provider settles an order the app knows, and how many
// status checks it spends per order, for the app's own poll schedule and for fixed 1/2/3/5 s
// polling (same taps for all, on a scaled clock); and with the webhook on (wall clock).
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../shared/logger';
import type { CheckoutTuningInput } from '../../core/orders/checkout-service';
import { startWebhookReceiver, WEBHOOK_PATHS } from '../../core/webhook';
import { openJournalDb } from '../../core/schema';
import type { TerminalOutcome } from '../../sandbox';
import { createRng } from '../helpers/chaos-random';
import { startTerminalsSandbox } from '../helpers/chaos-sandbox';
import { BenchLane, SandboxHub, type OrderMeasure } from './bench-lane';
import { mean, percentile, round } from './bench-stats';
import { LaneTime, scaledClock } from './scaled-time';
import { drawTapMs } from './tap-times';

export interface DetectionFigures {
  p50Ms: number;
  p95Ms: number;
  queriesPerOrder: number;
  orders: number;
}

export interface WebhookFigures {
  p50Ms: number;
  p95Ms: number;
  orders: number;
  /** Share of orders the webhook (not a status check) ended. */
  byWebhook: number;
  /** Share of paid orders left without the provider's payNo. */
  paidWithoutPayNo: number;
}

export const POLL_KEYS = ['app', 'fixed1s', 'fixed2s', 'fixed3s', 'fixed5s'] as const;
export type PollKey = (typeof POLL_KEYS)[number];

const fixed = (s: number): CheckoutTuningInput => ({
  poll: { fastMs: s * 1000, mediumMs: s * 1000, slowMs: s * 1000 },
});

/** The app's own schedule (its defaults), and fixed intervals with everything else as the app. */
export const POLL_CONFIGS: { key: PollKey; tuning?: CheckoutTuningInput }[] = [
  { key: 'app' },
  { key: 'fixed1s', tuning: fixed(1) },
  { key: 'fixed2s', tuning: fixed(2) },
  { key: 'fixed3s', tuning: fixed(3) },
  { key: 'fixed5s', tuning: fixed(5) },
];

const OUTCOMES: readonly (readonly [TerminalOutcome, number])[] = [
  ['SUCCESS', 85],
  ['FAIL', 10],
  ['CANCEL', 5],
];

function figures(m: OrderMeasure[]): DetectionFigures {
  const lat = m.map((x) => x.latencyMs);
  return {
    p50Ms: round(percentile(lat, 50)),
    p95Ms: round(percentile(lat, 95)),
    queriesPerOrder: round(mean(m.map((x) => x.queries)), 2),
    orders: m.length,
  };
}

export interface PollDetectionOptions {
  scale: number;
  lanes: number;
  ordersPerLane: number;
  seed: number;
  /** Where the lanes' journals live. */
  baseDir: string;
}

/** Every configuration runs at once, each on its own lanes, with the same tap times lane by lane. */
export async function runPollDetection(o: PollDetectionOptions): Promise<Record<PollKey, DetectionFigures>> {
  const baseWall = Date.now();
  const basePerf = performance.now();
  const dir = mkdtempSync(join(o.baseDir, 'counterpay-bench-detect-'));
  const ts = await startTerminalsSandbox({
    terminals: POLL_CONFIGS.length * o.lanes,
    prefix: 'BENCH-POS',
    requestTimeoutMs: 15_000,
    clock: scaledClock(o.scale, baseWall, basePerf),
  });
  const hub = new SandboxHub(ts.sandbox);
  const rng = createRng(o.seed);
  const lanes: { key: PollKey; lane: BenchLane; index: number }[] = [];
  POLL_CONFIGS.forEach((c, ci) => {
    for (let i = 0; i < o.lanes; i++) {
      const n = ci * o.lanes + i;
      lanes.push({
        key: c.key,
        index: i,
        lane: new BenchLane({
          hub,
          counterName: `Lane ${n + 1}`,
          sn: ts.terminals[n]!,
          provider: ts.provider,
          time: new LaneTime(o.scale, baseWall, basePerf),
          dir,
          seed: o.seed + n,
          ...(c.tuning ? { tuning: c.tuning } : {}),
        }),
      });
    }
  });
  const results = new Map<PollKey, OrderMeasure[]>(POLL_CONFIGS.map((c) => [c.key, []]));
  try {
    await Promise.all(
      lanes.map(async ({ key, lane, index }) => {
        for (let j = 0; j < o.ordersPerLane; j++) {
          const draw = rng.fork(`order:${index}:${j}`);
          results.get(key)!.push(await lane.one(drawTapMs(draw), draw.weighted(OUTCOMES)));
        }
      }),
    );
  } finally {
    for (const l of lanes) await l.lane.close();
    await ts.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries([...results].map(([k, m]) => [k, figures(m)])) as Record<PollKey, DetectionFigures>;
}

/**
 * The app as shipped (default schedule) with the webhook on, on the wall clock: the push does not
 * depend on when the customer taps, so taps come quickly to keep the run short.
 */
export async function runWebhookDetection(o: {
  lanes: number;
  ordersPerLane: number;
  seed: number;
  baseDir: string;
}): Promise<WebhookFigures> {
  const dir = mkdtempSync(join(o.baseDir, 'counterpay-bench-webhook-'));
  const ts = await startTerminalsSandbox({ terminals: o.lanes, prefix: 'HOOK-POS', requestTimeoutMs: 15_000 });
  const hub = new SandboxHub(ts.sandbox);
  const db = openJournalDb(join(dir, 'webhooks.sqlite'));
  const receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    db,
    logger: silentLogger,
    getConfig: () => ts.provider,
    onPosNotification: (n) => hub.onWebhook(n),
    onBillsCallback: () => {},
  });
  ts.sandbox.setWebhookUrl(ts.merchant.headMerchantId, `${receiver.url}${WEBHOOK_PATHS.pos}`);
  const rng = createRng(o.seed).fork('webhook');
  const lanes = ts.terminals.map(
    (sn, i) =>
      new BenchLane({
        hub,
        counterName: `Hook ${i + 1}`,
        sn,
        provider: ts.provider,
        time: new LaneTime(1, Date.now(), performance.now()),
        dir,
        seed: o.seed + i,
      }),
  );
  const m: OrderMeasure[] = [];
  try {
    await Promise.all(
      lanes.map(async (lane, i) => {
        for (let j = 0; j < o.ordersPerLane; j++) {
          const draw = rng.fork(`order:${i}:${j}`);
          m.push(await lane.one(Math.round(draw.between(200, 900)), draw.weighted(OUTCOMES)));
        }
      }),
    );
  } finally {
    for (const l of lanes) await l.close();
    await receiver.close();
    db.close();
    await ts.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const lat = m.map((x) => x.latencyMs);
  const paid = m.filter((x) => x.paid);
  return {
    p50Ms: round(percentile(lat, 50)),
    p95Ms: round(percentile(lat, 95)),
    orders: m.length,
    byWebhook: round(m.filter((x) => x.viaWebhook).length / m.length, 2),
    paidWithoutPayNo: round(m.filter((x) => x.paidWithoutPayNo).length / Math.max(1, paid.length), 2),
  };
}
