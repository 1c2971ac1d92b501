// The exchanges in the one ledger (docs/refunds.md, "Exchanges on the X/Z"). Decided here once:
//   An exchange is counted in the window it was DONE (its new sale paid, the old seats cancelled),
//   with its credit: what the tickets given back were worth (order_exchanges.credit_kobo), spent on
//   the new tickets and, when they cost less, the rest a refund owed. The money lines stay where they
//   are: the new sale is a sale (its difference paid in its tenders), the refund owed when the new
//   tickets cost less is a refund (shared/ledger-refunds.ts). The exchanges' line only tells how
//   many there were and how much credit they moved: it is in no total.
//   Demo exchanges count only in a Demo shift, as Demo sales do.
import type { FigureLine } from './ledger-basket-lines';
import type { LedgerExchange, LedgerWindow } from './ledger-facts';
import type { Bucket } from './records';

export const EXCHANGES_HEADING = 'Exchanges';
export const EXCHANGES_LABEL = 'Exchanges done (credit moved: the tickets given back, in no total)';

/** The exchanges done in the window and the credit they moved (what the tickets given back were worth). */
export function exchangeFigures(exchanges: readonly LedgerExchange[], w: LedgerWindow): Bucket {
  let count = 0,
    amountKobo = 0;
  for (const x of exchanges) {
    if (w.excludeDemo && x.demo) continue;
    if (x.at < w.from || x.at >= w.to) continue;
    count += 1;
    amountKobo += x.creditKobo;
  }
  return { count, amountKobo };
}

/** The exchanges' line in words, with the CSV's key: the same on the Shift screen, printed, in the CSV and on the Hub. */
export function exchangeRows(b: Bucket): FigureLine[] {
  return [{ key: 'exchanges_done', label: EXCHANGES_LABEL, count: b.count, amountKobo: b.amountKobo }];
}

/** A report shows the exchanges' section once there is one (kept reports before exchanges: none). */
export const hasExchanges = (b: Bucket | undefined): b is Bucket => !!b && b.count > 0;
