// The pickup slip of a sale with concessions (shared/pickup-slip.ts): built from the order's
// recorded basket, and the printed document, in large type for the stand to read at arm's length.
import { soldBasketOf } from '../../../shared/basket-sale';
import type { OrderView } from '../../../shared/orders';
import { pickupLines, pickupNumber, type PickupSlip } from '../../../shared/pickup-slip';
import { DEMO_RECEIPT_BANNER, isDemoRecord } from '../../../shared/record-profile';
import { formatLagosTime } from '../../../shared/time';
import type { Block, PrintDoc } from '../printing/print-doc';

interface PickupInput {
  order: OrderView;
  cinemaName: string;
  counterName: string;
  reprint: boolean;
}

/** The slip of a sale, or null when its basket has no concession lines (a ticket-only sale has none). */
export function buildPickupSlip(i: PickupInput): PickupSlip | null {
  const o = i.order;
  const lines = pickupLines(soldBasketOf(o).lines);
  if (lines.length === 0) return null;
  return {
    orderId: o.id,
    outOrderNo: o.outOrderNo,
    pickupNo: pickupNumber(o.outOrderNo),
    cinemaName: i.cinemaName,
    counterName: i.counterName,
    at: o.completedTime ?? o.createdAt,
    lines,
    demo: isDemoRecord(o.profile),
    reprint: i.reprint,
  };
}

export function pickupSlipDoc(s: PickupSlip): PrintDoc {
  const b: Block[] = [];
  if (s.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  b.push({ t: 'center', text: s.cinemaName });
  if (s.reprint) b.push({ t: 'mark', text: 'REPRINT' });
  b.push({ t: 'center', text: 'PICKUP SLIP', bold: true }, { t: 'big', text: `No. ${s.pickupNo}`, center: true });
  b.push({ t: 'rule', double: true });
  for (const l of s.lines) {
    b.push({ t: 'big', text: `${l.quantity} × ${l.name}` });
    for (const c of l.items) b.push({ t: 'sub', text: `${c.component}: ${c.name}`, large: true });
  }
  b.push(
    { t: 'rule', double: true },
    { t: 'center', text: `${s.counterName} · ${formatLagosTime(s.at)}`, bold: true },
    { t: 'pair', label: 'Sale no.', value: s.outOrderNo },
    { t: 'small', text: 'Times are Lagos time (WAT).' },
  );
  if (s.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  return {
    title: `${s.reprint ? 'Reprint of pickup slip' : 'Pickup slip'} ${s.pickupNo} (${s.outOrderNo})`,
    blocks: b,
  };
}
