// The one reading of a list of seats, for every process (the counter, its screens, the Hub): how
// seats are separated, what case they are in, and what a seat's name may look like. A sale records
// its seats as "F7,F8"; a cashier types "f7 f8", "F7, F8" or "F7;F8". test/unit/lint/one-seat-list
// fails on a seat separator written anywhere else.

/**
 * What separates seats in a list: commas, semicolons and white space, in any mix. The pattern's
 * text, so the Hub's SQL (`regexp_split_to_array`) splits a sale's seats by the same rule.
 */
export const SEAT_SEPARATORS_PATTERN = String.raw`[\s,;]+`;
const SEAT_SEPARATORS = new RegExp(SEAT_SEPARATORS_PATTERN);

/** A seat of a screen's layout as sales, receipts and the Hub write it: row letters then the number ("F7", "AA12"). */
export const SEAT_ID_RE = /^[A-Z]{1,3}[0-9]{1,3}$/;

/** A seat a sale may record (a layout's "F7", or a free label of a show without a seat map: "12", "SOFA2"). */
export const SEAT_LABEL_RE = /^[A-Z0-9]{1,8}$/;

/**
 * Seats typed or recorded ("f7 f8", "F7,F8", "F7; F8") as names ("F7", "F8"): upper case, in the
 * order given, blanks dropped, a seat given twice kept twice (the caller says whether that is wrong).
 */
export function seatList(seats: string | null | undefined): string[] {
  return (seats ?? '').toUpperCase().split(SEAT_SEPARATORS).filter(Boolean);
}

/** Seats as typed to the sale's form ("f7 f8" -> "F7,F8"). */
export function tidySeats(typed: string): string {
  return seatList(typed).join(',');
}

/**
 * The sale form's seats split at its commas only ("f7, F8 ,g1" -> ["F7","F8","G1"]), for its
 * validation: an empty label is kept so it can be named ("F7,,F8"), and "F7 F8" stays one label.
 */
export function splitSeats(seats: string): string[] {
  return seats.split(',').map((s) => s.trim().toUpperCase());
}
