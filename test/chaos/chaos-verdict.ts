// The chaos run's verdict: the app's journal against the provider's orders and the sales the
// driver started. Pure, so the counting rules can be read (and checked) on their own.
import type { SandboxPosOrder } from '../../sandbox';
import { isFinalState, type OrderState } from '../../shared/orders';

export interface JournalRow {
  outOrderNo: string;
  state: OrderState;
  orderNo: string | null;
  payNo: string | null;
  /** The late outcome the app recorded on the order (order_late.kind), if any. */
  late?: string | null;
  /** The shift totals' "paid after closing" list carries this order. */
  inTotals?: boolean;
}

export interface ChaosCounts {
  sales: number;
  providerOrders: number;
  duplicates: number;
  lost: number;
  notFinal: number;
  /** Payments the provider took after the app closed the order, found on the order and in the shift totals. */
  lateFound: number;
  /** Such payments the app did not carry (on the order and in the totals): must be 0. */
  lateMissed: number;
}

export interface ChaosVerdict extends ChaosCounts {
  /** One line per problem, for the report. */
  problems: string[];
}

/** The app state a final provider status must end in. */
const EXPECTED: Record<string, OrderState> = { SUCCESS: 'paid', FAIL: 'failed', CANCEL: 'cancelled', CLOSE: 'expired' };

/**
 * sales: sales in the journal. duplicates: outOrderNos with more than one provider order, plus
 * sales whose final state contradicts the provider. lost: sales the app acknowledged that are
 * missing from the journal, plus provider orders with no sale in the journal. notFinal: journaled
 * sales that are not final.
 */
export function chaosVerdict(
  journal: JournalRow[],
  provider: SandboxPosOrder[],
  acked: Iterable<string>,
  paidLate: ReadonlySet<string> = new Set(),
): ChaosVerdict {
  const problems: string[] = [];
  const byOut = new Map<string, SandboxPosOrder[]>();
  for (const p of provider) byOut.set(p.outOrderNo, [...(byOut.get(p.outOrderNo) ?? []), p]);
  const journaled = new Map(journal.map((r) => [r.outOrderNo, r]));

  let duplicates = 0;
  for (const [out, list] of byOut) {
    if (list.length > 1) {
      duplicates += 1;
      problems.push(
        `duplicate: ${out} has ${list.length} provider orders (${list.map((p) => `${p.orderNo} ${p.status}`).join(', ')})`,
      );
    }
  }
  let notFinal = 0;
  let lateFound = 0;
  let lateMissed = 0;
  for (const r of journal) {
    // The provider took the payment after the app had closed the sale (`paidLate`: the sandbox said
    // so): found only when the order and the shift totals both carry it.
    const p0 = byOut.get(r.outOrderNo)?.[0];
    if (
      paidLate.has(r.outOrderNo) &&
      p0?.status === 'SUCCESS' &&
      (r.state === 'failed' || r.state === 'cancelled' || r.state === 'expired')
    ) {
      if (r.late === 'paid-after-closing' && r.inTotals) lateFound += 1;
      else {
        lateMissed += 1;
        problems.push(
          `late missed: ${r.outOrderNo} is ${r.state} but the provider took the payment after it (order: ${r.late ?? 'nothing recorded'}, totals: ${r.inTotals ? 'yes' : 'no'})`,
        );
      }
      continue;
    }
    if (!isFinalState(r.state)) {
      notFinal += 1;
      problems.push(`not final: ${r.outOrderNo} is ${r.state}`);
      continue;
    }
    const p = byOut.get(r.outOrderNo)?.[0];
    const contradiction = !p
      ? r.state === 'paid' || r.state === 'cancelled'
        ? `the app says ${r.state} but the provider has no such order`
        : null
      : p.status === 'PENDING'
        ? `the app says ${r.state} but the provider still has it PENDING`
        : EXPECTED[p.status] !== r.state
          ? `the app says ${r.state} but the provider says ${p.status}`
          : // The webhook carries no payNo, so a sale paid by webhook may have none: only a different one contradicts.
            r.state === 'paid' && r.payNo && r.payNo !== p.payNo
            ? `paid with payNo ${r.payNo} but the provider's is ${p.payNo}`
            : null;
    if (contradiction) {
      duplicates += 1;
      problems.push(`contradiction: ${r.outOrderNo}: ${contradiction}`);
    }
  }
  let lost = 0;
  for (const out of acked) {
    if (!journaled.has(out)) {
      lost += 1;
      problems.push(`lost: ${out} was acknowledged but is not in the journal`);
    }
  }
  for (const out of byOut.keys()) {
    if (!journaled.has(out)) {
      lost += 1;
      problems.push(`lost: provider order ${out} has no sale in the journal`);
    }
  }
  return {
    sales: journal.length,
    providerOrders: provider.length,
    duplicates,
    lost,
    notFinal,
    lateFound,
    lateMissed,
    problems,
  };
}

export function chaosLine(c: ChaosCounts): string {
  return `sales=${c.sales} providerOrders=${c.providerOrders} duplicates=${c.duplicates} lost=${c.lost} notFinal=${c.notFinal} lateFound=${c.lateFound} lateMissed=${c.lateMissed}`;
}
