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
  /** How the sale is paid (card for a sale of one ticket type); a cash sale never has a provider order. */
  tender?: 'card' | 'cash' | 'split';
  /** The cash part the journal recorded (0 for card). */
  cashKobo?: number;
  /** The basket's lines as the journal recorded them (JSON), for the stock. */
  basketJson?: string | null;
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
  /** Baskets whose cash in the drawer (the journal's cash part of a paid sale) differs from the driver's model: must be 0. */
  drawerMismatch: number;
  /** Counted items whose stock left by the journal differs from the driver's model: must be 0. */
  stockMismatch: number;
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
    // A cash sale puts no order on any terminal: one at the provider is a sale charged twice.
    if (r.tender === 'cash') {
      if (byOut.has(r.outOrderNo)) {
        duplicates += 1;
        problems.push(`cash sale ${r.outOrderNo} has a provider order`);
      }
      if (!isFinalState(r.state)) {
        notFinal += 1;
        problems.push(`not final: cash sale ${r.outOrderNo} is ${r.state}`);
      }
      continue;
    }
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
    drawerMismatch: 0,
    stockMismatch: 0,
    problems,
  };
}

/** What the driver sent for each acknowledged basket, by the model (test/helpers/chaos-basket.ts). */
export interface BasketModel {
  /** The cash it leaves in the drawer when paid. */
  cashKobo: number;
  /** The counted items it takes when paid. */
  taken: ReadonlyMap<string, number>;
}

/**
 * The drawer and the stock against the driver's model, over the baskets it knows (acknowledged):
 * drawerMismatch counts the sales whose cash in the drawer (the journal's cash part when paid, else
 * 0) differs from the model's (its cash when paid); stockMismatch the counted items whose taken
 * count by the journal's lines of paid sales differs from the model's.
 */
export function basketVerdict(
  journal: JournalRow[],
  models: ReadonlyMap<string, BasketModel>,
  counted: readonly string[],
): { drawerMismatch: number; stockMismatch: number; problems: string[] } {
  const problems: string[] = [];
  let drawerMismatch = 0;
  const engineTaken = new Map<string, number>(counted.map((c) => [c, 0]));
  const modelTaken = new Map<string, number>(counted.map((c) => [c, 0]));
  for (const r of journal) {
    const m = models.get(r.outOrderNo);
    if (!m) continue;
    const paid = r.state === 'paid';
    const engine = paid ? (r.cashKobo ?? 0) : 0;
    const model = paid ? m.cashKobo : 0;
    if (engine !== model) {
      drawerMismatch += 1;
      problems.push(`drawer: ${r.outOrderNo} (${r.state}) put ${engine} kobo in the drawer, the model ${model}`);
    }
    if (!paid) continue;
    for (const [code, n] of m.taken) if (modelTaken.has(code)) modelTaken.set(code, modelTaken.get(code)! + n);
    const lines = r.basketJson
      ? (
          JSON.parse(r.basketJson) as {
            lines: { kind: string; code?: string; quantity: number; chosen?: { code: string }[] }[];
          }
        ).lines
      : [];
    for (const l of lines) {
      const codes = l.kind === 'item' ? [l.code!] : l.kind === 'combo' ? (l.chosen ?? []).map((c) => c.code) : [];
      for (const code of codes) if (engineTaken.has(code)) engineTaken.set(code, engineTaken.get(code)! + l.quantity);
    }
  }
  let stockMismatch = 0;
  for (const code of counted)
    if (engineTaken.get(code) !== modelTaken.get(code)) {
      stockMismatch += 1;
      problems.push(
        `stock: ${code} taken ${engineTaken.get(code)} by the journal, ${modelTaken.get(code)} by the model`,
      );
    }
  return { drawerMismatch, stockMismatch, problems };
}

export function chaosLine(c: ChaosCounts): string {
  return `sales=${c.sales} providerOrders=${c.providerOrders} duplicates=${c.duplicates} lost=${c.lost} notFinal=${c.notFinal} drawerMismatch=${c.drawerMismatch} stockMismatch=${c.stockMismatch} lateFound=${c.lateFound} lateMissed=${c.lateMissed}`;
}
