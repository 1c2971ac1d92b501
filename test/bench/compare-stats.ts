// bench:compare's arithmetic (compare.ts runs the benchmarks): which figures of each benchmark's
// JSON are compared and which way is better, and the verdict per figure from the rounds of both
// sides. Pure: no processes, no clock.
import { percentile, round } from './bench-stats';

export type Better = 'lower' | 'higher';

export interface FigureSpec {
  /** Dotted path in the benchmark's --json output. */
  path: string;
  label: string;
  better: Better;
}

/** `npm run bench:hub -- --json` (its figures sit under `hub`). */
export const HUB_FIGURES: FigureSpec[] = [
  {
    path: 'hub.detectionP50MsWithRelay',
    label: 'detection with relay p50 (tap -> Paid in journal), ms',
    better: 'lower',
  },
  { path: 'hub.detectionP95MsWithRelay', label: 'detection with relay p95, ms', better: 'lower' },
  { path: 'hub.relayP50Ms', label: 'relay p50 (provider POST -> stream has it), ms', better: 'lower' },
  { path: 'hub.relayP95Ms', label: 'relay p95, ms', better: 'lower' },
  { path: 'hub.webhookIngestPerSec', label: 'webhook ingest, /s', better: 'higher' },
  { path: 'hub.syncEventsPerSec', label: 'journal sync, events/s', better: 'higher' },
  { path: 'hub.pollQueriesPerOrderWithRelay', label: 'status queries per order with relay', better: 'lower' },
  { path: 'hub.hubCallsPerSale', label: "the detection counter's Hub calls per sale", better: 'lower' },
  { path: 'hub.relayP95MsAt500', label: 'relay p95 with 500 streams open, ms', better: 'lower' },
  { path: 'hub.hubRssMbAt500', label: 'Hub RSS with 500 streams open, MB', better: 'lower' },
  { path: 'hub.anonFloodCounterP95Ms', label: 'counter sync p95 under an anonymous flood, ms', better: 'lower' },
];

/** `npm run bench -- --json`. */
export const APP_FIGURES: FigureSpec[] = [
  { path: 'createOverheadMs.p50', label: 'create overhead p50 (as wired), ms', better: 'lower' },
  { path: 'createOverheadMs.p95', label: 'create overhead p95, ms', better: 'lower' },
  { path: 'createOverheadCheckoutOnlyMs.p50', label: 'create overhead p50, checkout alone, ms', better: 'lower' },
  { path: 'detection.webhook.p50Ms', label: 'webhook detection p50, ms', better: 'lower' },
  { path: 'detection.webhook.p95Ms', label: 'webhook detection p95, ms', better: 'lower' },
  { path: 'detection.app.p50Ms', label: 'app schedule detection p50, ms', better: 'lower' },
  { path: 'detection.app.queriesPerOrder', label: 'app schedule queries per order', better: 'lower' },
  { path: 'journal.writeP95MsAt100k', label: 'journal write p95 at the stored size, ms', better: 'lower' },
  { path: 'journal.searchP95MsAt100k', label: 'history search p95 at the stored size, ms', better: 'lower' },
  { path: 'integration.acceptP95Ms', label: 'integration accept p95, ms', better: 'lower' },
  { path: 'integration.callbackP95Ms', label: 'integration callback p95, ms', better: 'lower' },
];

/** A figure at a dotted path, or null when that side's benchmark does not have it (or it is not a finite number). */
export function figureAt(json: unknown, path: string): number | null {
  let v: unknown = json;
  for (const k of path.split('.')) {
    if (typeof v !== 'object' || v === null) return null;
    v = (v as Record<string, unknown>)[k];
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** How much worse a median may be before it counts (with non-overlapping spreads too). */
export const WORSE_BEYOND = 0.1;

export interface Side {
  median: number;
  min: number;
  max: number;
  n: number;
}

export interface Comparison {
  spec: FigureSpec;
  ref: Side;
  main: Side;
  /** main / ref medians: above 1 is worse for a lower-is-better figure, below 1 for a higher-is-better one. */
  ratio: number;
  /** The same ratio round by round (rounds are paired: main and ref ran back to back): min and max. */
  ratioMin: number;
  ratioMax: number;
  verdict: 'worse' | 'better' | 'same';
}

function side(xs: number[]): Side {
  return { median: percentile(xs, 50), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

const ratioOf = (a: number, b: number): number => (b === 0 ? (a === 0 ? 1 : Number.POSITIVE_INFINITY) : a / b);

/**
 * One figure over the rounds: `ref[i]` and `main[i]` ran in the same round. Worse (or better) only
 * when the median moved by more than WORSE_BEYOND in that direction and the two sides' spreads
 * (min..max over the rounds) do not overlap: a move inside the machine's own noise is "same".
 */
export function compareFigure(spec: FigureSpec, ref: number[], main: number[]): Comparison | null {
  if (ref.length === 0 || main.length === 0) return null;
  const r = side(ref);
  const m = side(main);
  const ratio = ratioOf(m.median, r.median);
  const paired = ref.flatMap((x, i) => (main[i] === undefined ? [] : [ratioOf(main[i]!, x)]));
  const worseBy = spec.better === 'lower' ? ratio - 1 : 1 / ratio - 1;
  const apart = spec.better === 'lower' ? m.min > r.max : m.max < r.min;
  const aheadApart = spec.better === 'lower' ? m.max < r.min : m.min > r.max;
  const verdict =
    worseBy > WORSE_BEYOND && apart
      ? 'worse'
      : -worseBy > WORSE_BEYOND / (1 + WORSE_BEYOND) && aheadApart
        ? 'better'
        : 'same';
  return { spec, ref: r, main: m, ratio, ratioMin: Math.min(...paired), ratioMax: Math.max(...paired), verdict };
}

const fmt = (n: number): string => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(round(n, 1)));

/** The table: each figure for both sides (median and spread over the rounds), the ratio and its spread, the verdict. */
export function formatComparison(rows: Comparison[], refName: string, mainName: string): string {
  const out = [
    ['figure', `${refName} median (min-max)`, `${mainName} median (min-max)`, `${mainName}/${refName} (per round)`, ''],
  ];
  for (const c of rows) {
    out.push([
      c.spec.label,
      `${fmt(c.ref.median)} (${fmt(c.ref.min)}-${fmt(c.ref.max)})`,
      `${fmt(c.main.median)} (${fmt(c.main.min)}-${fmt(c.main.max)})`,
      `${round(c.ratio, 2)}x (${round(c.ratioMin, 2)}-${round(c.ratioMax, 2)})`,
      c.verdict === 'worse' ? 'WORSE' : c.verdict === 'better' ? 'better' : 'same',
    ]);
  }
  const widths = out[0]!.map((_, i) => Math.max(...out.map((r) => r[i]!.length)));
  return out
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
