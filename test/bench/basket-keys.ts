// basket.keysToPaid: the keys a cashier presses, keyboard only, from Enter on the show to Paid —
// for the basket of issue 38 ("2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water;
// ₦5,000 cash, the rest by card") and for a sale of one ticket type. The Chromium spec of the
// Sell screen's basket presses exactly these keys and reaches Paid, so the count is proved;
// the bench prints it.
export interface KeysToPaid {
  basket: number;
  single: number;
  what: string;
}

/** Filled from the spec's key lists when the Sell screen's basket lands (the basket spec). */
export const KEYS_TO_PAID: KeysToPaid | undefined = undefined;
