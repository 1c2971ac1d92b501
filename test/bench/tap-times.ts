// When customers tap, after the order reaches the terminal: most between 5 and 40 s, a few
// quick ones (card already in hand) and a tail of slow ones (PIN trouble, looking for the card).
import type { Rng } from '../helpers/chaos-random';

export const TAP_SPREAD = [
  { share: 0.85, fromMs: 5_000, toMs: 40_000 },
  { share: 0.1, fromMs: 1_500, toMs: 5_000 },
  { share: 0.05, fromMs: 40_000, toMs: 90_000 },
] as const;

export function drawTapMs(rng: Rng): number {
  const band = rng.weighted(TAP_SPREAD.map((b) => [b, b.share] as const));
  return Math.round(rng.between(band.fromMs, band.toMs));
}

export const describeTapSpread = (): string =>
  TAP_SPREAD.map((b) => `${Math.round(b.share * 100)}% ${b.fromMs / 1000}-${b.toMs / 1000} s`).join(', ');
