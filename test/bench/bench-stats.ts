// Percentiles and small number helpers for the benchmark's figures.

/** The p-th percentile (0..100) by linear interpolation between closest ranks; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const s = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = s[lo] as number;
  const b = s[hi] as number;
  return a + (b - a) * (rank - lo);
}

export function mean(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : samples.reduce((x, y) => x + y, 0) / samples.length;
}

/** Rounds to `digits` decimals (figures in the JSON stay readable). */
export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
