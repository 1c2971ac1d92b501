// The basket figures' lines in words (shared/ledger-basket.ts computes them): the tender lines and
// the drawer, each with the key the CSV names it by and the label the Shift screen, the printed
// X/Z and the Hub show. One list, so that no surface words a figure its own way.
import { formatNaira } from './money';
import type { DrawerFigures } from './ledger-basket-schema';
import type { TenderLines } from './tender-lines';

export interface FigureLine {
  /** The CSV's item name. */
  key: string;
  label: string;
  /** How many (sales, drops); null where a count says nothing (the float, expected, counted). */
  count: number | null;
  amountKobo: number;
}

export const TENDERS_HEADING = 'Tenders (how the sales were paid)';
export const DRAWER_HEADING = 'Cash drawer';
export const TICKET_TYPES_HEADING = 'Tickets by show and ticket type';
export const CONCESSIONS_HEADING = 'Concessions by item';
export const CATEGORIES_HEADING = 'Concessions by category';
export const TO_HAND_BACK_LABEL = 'Cash to hand back (card failed)';

/** The tender lines: card, cash, split (its cash and card parts), then what the terminal and the drawer took. */
export function tenderRows(t: TenderLines): FigureLine[] {
  const rows: FigureLine[] = [
    { key: 'card', label: 'Card', count: t.card.count, amountKobo: t.card.amountKobo },
    { key: 'cash', label: 'Cash', count: t.cash.count, amountKobo: t.cash.amountKobo },
    { key: 'split_cash', label: 'Split: cash parts', count: t.split.count, amountKobo: t.split.cashKobo },
    { key: 'split_card', label: 'Split: card parts', count: t.split.count, amountKobo: t.split.cardKobo },
    {
      key: 'taken_by_card',
      label: 'Taken by card (the terminal)',
      count: t.cardTaken.count,
      amountKobo: t.cardTaken.amountKobo,
    },
    { key: 'cash_taken', label: 'Cash taken', count: t.cashTaken.count, amountKobo: t.cashTaken.amountKobo },
  ];
  if (t.cashHeld.count > 0)
    rows.push({
      key: 'cash_held',
      label: 'Cash held (its card has no outcome yet)',
      count: t.cashHeld.count,
      amountKobo: t.cashHeld.amountKobo,
    });
  if (t.toHandBack.count > 0)
    rows.push({
      key: 'to_hand_back',
      label: TO_HAND_BACK_LABEL,
      count: t.toHandBack.count,
      amountKobo: t.toHandBack.amountKobo,
    });
  return rows;
}

/** Over/short in words: "Over", "Short" (its amount without the sign) or "Right". */
export function overShortText(kobo: number | null): { label: string; amountKobo: number } | null {
  if (kobo === null) return null;
  if (kobo > 0) return { label: 'Over', amountKobo: kobo };
  if (kobo < 0) return { label: 'Short', amountKobo: -kobo };
  return { label: 'Right (not over, not short)', amountKobo: 0 };
}

/** The drawer: float, cash taken, paid out, drops, expected, then counted and over/short once counted. */
export function drawerRows(d: DrawerFigures): FigureLine[] {
  const rows: FigureLine[] = [
    { key: 'float', label: 'Float (put in at open)', count: null, amountKobo: d.floatKobo },
    { key: 'cash_taken', label: '+ Cash taken', count: d.cashTaken.count, amountKobo: d.cashTaken.amountKobo },
    {
      key: 'cash_paid_out',
      label: '- Cash paid out (refunds)',
      count: d.cashPaidOut.count,
      amountKobo: d.cashPaidOut.amountKobo,
    },
    { key: 'drops', label: '- Drops to the safe', count: d.drops.count, amountKobo: d.drops.amountKobo },
    { key: 'expected', label: '= Expected in the drawer', count: null, amountKobo: d.expectedKobo },
  ];
  if (d.countedKobo !== null) {
    rows.push({ key: 'counted', label: 'Counted', count: null, amountKobo: d.countedKobo });
    rows.push({
      key: 'over_short',
      label: 'Over/short (counted - expected)',
      count: null,
      amountKobo: d.overShortKobo!,
    });
  }
  return rows;
}

/** A drawer must be counted before its shift closes when it had a float, took cash or had a drop. */
export function countNeeded(d: DrawerFigures): boolean {
  return d.floatKobo > 0 || d.cashTaken.count > 0 || d.drops.count > 0;
}

/** The drawer's verdict in a sentence: not counted yet, right, or over/short by how much. */
export function drawerVerdict(d: DrawerFigures): string {
  const o = overShortText(d.overShortKobo);
  if (!o || d.countedKobo === null) return `Not counted yet: expected ${formatNaira(d.expectedKobo)}.`;
  if (o.amountKobo === 0) return `Counted ${formatNaira(d.countedKobo)}: the drawer is right.`;
  return `Counted ${formatNaira(d.countedKobo)}, expected ${formatNaira(d.expectedKobo)}: ${o.label.toLowerCase()} by ${formatNaira(o.amountKobo)}.`;
}
