// Text and amounts as the Hub takes them from a counter: the one rule every journal-sync payload uses.
import { z } from 'zod';

/** True when a text holds NUL or half of a surrogate pair (broken UTF-16): PostgreSQL cannot store it. */
export const brokenText = (s: string): boolean =>
  s.includes('\u0000') || /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Text from a counter: at most `max` characters, no NUL, no lone surrogate. */
export const counterText = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((s) => !brokenText(s), 'holds NUL or a broken character: send plain text');

/** An amount in kobo from a counter: whole, not negative. */
export const Kobo = z.number().int().nonnegative();
