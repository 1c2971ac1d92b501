// The tender lines of a shift report: how the sales the ledger counts as paid were paid, card,
// cash or split, from the ledger's sales (shared/ledger.ts) and each sale's tender (the cash part
// and the card part of its basket, `basketAmounts`). Decided here once:
//   card:   paid sales wholly by card; their card part (the whole sale);
//   cash:   paid sales wholly in cash; their cash part (tendered − change: the change never counts);
//   split:  paid sales part cash, part card; their cash parts and their card parts apart.
//   Each paid sale is in exactly one of the three, counted when it was paid (`ledgerRow`, as the
//   ledger counts it), in the window; demo sales only in a Demo shift, as in the ledger.
//   Taken by card (`cardTaken`) = card + the split's card parts: what the terminal took, the card
//   part only, never the cash beside it. Cash taken (`cashTaken`) = cash + the split's cash parts:
//   what the drawer took (`cashTakenOf` gives the drawer, shared/drawer.ts, the same cash).
//   A split whose card part failed, was cancelled or expired: its cash part is **to hand back or
//   re-tender**, not cash taken; listed with its sale number and the exact amount to hand back (the
//   cash part: the change was already given), counted when sold, as the ledger counts a failed sale.
//   Re-tendered, it is a new sale with its own tender. A split whose card part has no outcome yet:
//   its cash part is **held** (in the drawer, not yet taken) until the card is paid or fails.
//   A card part the provider took after the counter closed the sale is the ledger's "Paid after
//   closing" line alone: its cash part was handed back when the card failed.
// A sale with no tender recorded (every sale before baskets) is a card sale of its amount.
import type { DrawerCash } from './drawer';
import type { LedgerSale, LedgerWindow } from './ledger-facts';
import { ledgerRow } from './ledger-row';
import { formatNaira } from './money';
import type { Bucket } from './records';
import type { TenderKind } from './basket';

/** How one sale was paid: its basket's cash part and card part (`basketAmounts`). */
export interface SaleTender {
  /** The sale number (`outOrderNo`), as in `LedgerSale.ref`. */
  ref: string;
  kind: TenderKind;
  /** 0 for card; the whole sale for cash. */
  cashKobo: number;
  /** 0 for cash; what the card order on the terminal is for. */
  cardKobo: number;
}

/** A split whose card part did not go through: the cash part goes back to the customer (or is re-tendered). */
export interface HandBackItem {
  ref: string;
  /** The cash part: exactly what to hand back. */
  amountKobo: number;
  /** What became of the card part. */
  outcome: 'failed' | 'cancelled' | 'expired';
}

export interface SplitLine {
  count: number;
  cashKobo: number;
  cardKobo: number;
}

export interface TenderLines {
  card: Bucket;
  cash: Bucket;
  split: SplitLine;
  /** Card + the split's card parts (count: card orders paid). */
  cardTaken: Bucket;
  /** Cash + the split's cash parts (count: sales with cash taken). */
  cashTaken: Bucket;
  /** Splits whose card part failed: their cash parts to hand back or re-tender, each listed. */
  toHandBack: { count: number; amountKobo: number; items: HandBackItem[] };
  /** Splits whose card part has no outcome yet: their cash parts in the drawer, not yet taken. */
  cashHeld: Bucket;
}

const ZERO: Bucket = { count: 0, amountKobo: 0 };
const safe = (n: number): number => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${n} is not a whole number of kobo`);
  return n;
};
const add = (b: Bucket, kobo: number): Bucket => ({ count: b.count + 1, amountKobo: safe(b.amountKobo + kobo) });

/** A sale's tender, checked: the parts whole kobo, each where its kind says. */
function tenderOf(s: LedgerSale, tenders: ReadonlyMap<string, SaleTender>): SaleTender {
  const t = tenders.get(s.ref) ?? { ref: s.ref, kind: 'card', cashKobo: 0, cardKobo: s.amountKobo };
  const whole = Number.isSafeInteger(t.cashKobo) && Number.isSafeInteger(t.cardKobo);
  const right =
    t.kind === 'card'
      ? t.cashKobo === 0 && t.cardKobo >= 0
      : t.kind === 'cash'
        ? t.cardKobo === 0 && t.cashKobo >= 0
        : t.cashKobo > 0 && t.cardKobo > 0;
  if (!whole || !right)
    throw new RangeError(`Sale ${s.ref}: a ${t.kind} tender of cash ${t.cashKobo} and card ${t.cardKobo} kobo`);
  return t;
}

const byRef = (tenders: readonly SaleTender[]) => new Map(tenders.map((t) => [t.ref, t]));

/** What a sale is on the tender lines: paid (at when), its card part failed, still open, or none of these. */
function tenderRow(s: LedgerSale) {
  const row = ledgerRow(s, null);
  return { outcome: row.outcome, at: row.countedAt };
}

/** The cash each paid sale put in the drawer, at the time it was paid: the drawer's `cashTaken` facts. */
export function cashTakenOf(
  sales: readonly LedgerSale[],
  tenders: readonly SaleTender[],
  w: Pick<LedgerWindow, 'excludeDemo'>,
): DrawerCash[] {
  const map = byRef(tenders);
  const out: DrawerCash[] = [];
  for (const s of sales) {
    if (w.excludeDemo && s.demo) continue;
    const t = tenderOf(s, map);
    const row = tenderRow(s);
    if (row.outcome === 'paid' && t.cashKobo > 0) out.push({ ref: s.ref, at: row.at, cashKobo: t.cashKobo });
  }
  return out;
}

/** The tender lines of a window. */
export function tenderLines(
  sales: readonly LedgerSale[],
  tenders: readonly SaleTender[],
  w: Pick<LedgerWindow, 'from' | 'to' | 'excludeDemo'>,
): TenderLines {
  const map = byRef(tenders);
  let card = ZERO,
    cash = ZERO,
    cardTaken = ZERO,
    cashTaken = ZERO,
    cashHeld = ZERO,
    handBack = ZERO;
  const split: SplitLine = { count: 0, cashKobo: 0, cardKobo: 0 };
  const items: HandBackItem[] = [];
  for (const s of sales) {
    if (w.excludeDemo && s.demo) continue;
    const t = tenderOf(s, map);
    const row = tenderRow(s);
    if (row.at < w.from || row.at >= w.to) continue;
    if (row.outcome === 'paid') {
      if (t.kind === 'card') card = add(card, t.cardKobo);
      else if (t.kind === 'cash') cash = add(cash, t.cashKobo);
      else {
        split.count += 1;
        split.cashKobo = safe(split.cashKobo + t.cashKobo);
        split.cardKobo = safe(split.cardKobo + t.cardKobo);
      }
      if (t.kind !== 'cash') cardTaken = add(cardTaken, t.cardKobo);
      if (t.kind !== 'card') cashTaken = add(cashTaken, t.cashKobo);
    } else if (t.kind === 'split') {
      if (row.outcome === 'open') cashHeld = add(cashHeld, t.cashKobo);
      else if (row.outcome !== 'paid_after_closing') {
        handBack = add(handBack, t.cashKobo);
        items.push({ ref: s.ref, amountKobo: t.cashKobo, outcome: row.outcome });
      }
    }
  }
  return { card, cash, split, cardTaken, cashTaken, toHandBack: { ...handBack, items }, cashHeld };
}

/** What the cashier is told for a split whose card part did not go through. */
export function handBackText(item: HandBackItem): string {
  const what = item.outcome === 'failed' ? 'the card failed' : `the card payment ${item.outcome}`;
  return `Sale ${item.ref}: ${what}. Hand back ${formatNaira(item.amountKobo)} cash, or sell the basket again (the cash counts in the new sale).`;
}
