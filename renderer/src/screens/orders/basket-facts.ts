// A basket sale's facts on the order detail: its lines, the total and how it was paid, each figure
// as the engine priced it (the order's `basket`); the screen adds nothing up.
import { formatNaira } from '../../../../shared/money';
import type { SoldBasket } from '../../../../shared/basket-sale';

const TENDER_WORDS = { card: 'Card', cash: 'Cash', split: 'Split: cash and card' } as const;

/** Label and value rows: the total, the tender and its parts, then one row per line. */
export function basketFacts(b: SoldBasket): [string, string][] {
  const a = b.amounts;
  const rows: [string, string][] = [
    ['Total', formatNaira(a.totalKobo)],
    ['Paid by', TENDER_WORDS[b.tender.kind]],
  ];
  // An exchange's new sale: the old tickets' credit paid the total first; the parts below are the difference.
  if (a.creditKobo !== undefined) rows.push(['Credit of the exchanged tickets', formatNaira(a.creditKobo)]);
  if (b.tender.kind !== 'card') {
    rows.push(['Cash part', formatNaira(a.cashKobo)]);
    rows.push(['Cash tendered', formatNaira(a.tenderedKobo)]);
    rows.push(['Change', formatNaira(a.changeKobo)]);
  }
  if (b.tender.kind !== 'cash') rows.push(['Card part (on the terminal)', formatNaira(a.cardKobo)]);
  for (const l of b.lines) {
    if (l.kind === 'tickets')
      rows.push([
        `${l.ticketType} tickets`,
        `${l.quantity} × ${formatNaira(l.unitKobo)} = ${formatNaira(l.amountKobo)}`,
      ]);
    else {
      const choices = l.chosen.filter((c) => c.choice).map((c) => c.name);
      rows.push([
        `${l.name}${choices.length > 0 ? ` (${choices.join(', ')})` : ''}`,
        `${l.quantity} × ${formatNaira(l.unitKobo)} = ${formatNaira(l.amountKobo)}`,
      ]);
    }
  }
  if (a.bookingFeeKobo > 0) rows.push(['Booking fee', formatNaira(a.bookingFeeKobo)]);
  return rows;
}
