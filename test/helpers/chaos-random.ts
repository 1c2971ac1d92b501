// A small seeded PRNG (mulberry32) and draws built on it, so chaos and bench runs make the same
// choices for the same seed.
import { prng } from '../../sandbox/faults';

export interface Rng {
  /** [0, 1) */
  next(): number;
  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** Real number in [min, max). */
  between(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One of the items, by weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** An independent generator derived from this one (for a sub-task whose draws must not shift the others). */
  fork(label: string): Rng;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function createRng(seed: number): Rng {
  const next = prng(seed);
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    between: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    weighted(items) {
      const total = items.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [item, w] of items) {
        r -= w;
        if (r < 0) return item;
      }
      const last = items[items.length - 1];
      if (!last) throw new RangeError('weighted() needs at least one item');
      return last[0];
    },
    fork: (label) => createRng((seed ^ hash(label)) >>> 0),
  };
  return rng;
}
