// basket.keysToPaid: the keys a cashier presses, keyboard only, from Enter on the show to Paid (each
// key pressed and each character typed counts one) — for the basket of issue 38 ("2 Adult + 1 Child
// at F7–F9, a popcorn combo with a Fanta, 2 water; ₦5,000 cash, the rest by card") and for a sale of
// one ticket type. test/e2e/sell-basket.spec.ts presses the basket's keys and reaches Paid, and
// asserts their number; test/e2e/programme.spec.ts sells two seats of one type with Enter, `f7,f8`,
// Enter (it counts 3, leaving the seat characters out). The bench prints both.
export interface KeysToPaid {
  basket: number;
  single: number;
  what: string;
}

export const KEYS_TO_PAID: KeysToPaid = {
  basket: 24,
  single: 7,
  what: 'basket: Enter, f7-f9, F3 2a1c, F4 7 Enter 1, 5 Enter +, F8 5000 Enter (test/e2e/sell-basket.spec.ts); one type: Enter, f7,f8, Enter (test/e2e/programme.spec.ts)',
};
