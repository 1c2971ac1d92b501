// Receipts of orders: the model from the order as it is now, the preview, printing (journaled),
// the browser's own print recorded, PDF files, and printing by itself when an order is paid. A paid
// sale with concessions has a pickup slip for the stand too: its own print job, printed by itself
// right after the receipt when receipts print by themselves, and again on request. The receipt of
// an exchanged sale names the sales it was exchanged from and to (the orders module's refunds port;
// a refund's own slip: refund-slips.ts).
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { isFinalState, type OrderView } from '../../../shared/orders';
import type { PrintJobView, Receipt, ReceiptPreview } from '../../../shared/records';
import type { PickupSlip } from '../../../shared/pickup-slip';
import { buildPickupSlip, pickupSlipDoc } from './pickup-slip-doc';
import type { RefundView, SaleLinks } from '../../../shared/refunds';
import type { OrderEvents, OrderReads } from '../../orders';
import type { Logger } from '../../../shared/logger';
import { htmlDocumentOf, htmlFragmentOf } from '../printing/print-html';
import type { PrintJobStore } from '../printing/print-jobs';
import type { PrintService } from '../printing/print-service';
import { buildReceipt, receiptDoc } from './receipt-model';
import type { RecordsSettingsStore } from '../records-settings';
import type { ShiftStore } from '../shifts/shift-store';
import type { SystemPrinter } from '../printing/system-printer';

/** What receipts read of refunds (the orders module provides it): one refund, and a sale's links. */
export interface RefundReads {
  refund(refundId: number): RefundView | null;
  links(orderId: number): SaleLinks;
}

interface ReceiptsDeps {
  checkout: Pick<OrderReads, 'get'> & OrderEvents;
  settings: RecordsSettingsStore;
  counterName: () => string;
  shifts: ShiftStore;
  jobs: PrintJobStore;
  printer: PrintService;
  systemPrinter: SystemPrinter;
  dataDir: string;
  logger: Logger;
  /** How long a paid order may wait for its last details (payNo) before it auto-prints without them. */
  detailWaitMs?: number;
  /** The screen and ticket type of a sale made from the programme. */
  programmeSale?: (orderId: number) => { screen: string | null; ticketType: string } | null;
  refunds?: RefundReads;
}

export function createReceipts(d: ReceiptsDeps) {
  const detailWaitMs = d.detailWaitMs ?? 5_000;

  function order(orderId: number): OrderView {
    const v = d.checkout.get(orderId);
    if (!v) throw new AppError('NOT_FOUND', `There is no order ${orderId} on this counter.`, { orderId });
    return v;
  }

  function receipt(orderId: number): Receipt {
    const v = order(orderId);
    if (!isFinalState(v.state)) {
      throw new AppError(
        'CONFLICT',
        'This payment has no outcome yet: its receipt can be printed once it is paid (or has failed).',
        { orderId, state: v.state },
      );
    }
    const s = d.settings.get();
    // A slip printed before the provider's late payment was known is not a copy of the paid ticket receipt.
    const since = v.late?.kind === 'paid-after-closing' ? v.late.foundAt : 0;
    const sold = d.programmeSale?.(orderId) ?? null;
    const links = d.refunds?.links(orderId);
    return buildReceipt({
      ...(links ? { links } : {}),
      order: v,
      cinema: s.cinema,
      counterName: d.counterName(),
      cashier: d.shifts.cashierAt(v.createdAt),
      reprint: d.jobs.wasPrinted('receipt', orderId, since),
      ...(sold ? { programme: sold } : {}),
    });
  }

  /** The pickup slip of a paid sale with concessions (the stand hands nothing over for an unpaid one). */
  function slip(orderId: number): PickupSlip {
    const v = order(orderId);
    if (v.state !== 'paid' && v.late?.kind !== 'paid-after-closing')
      throw new AppError('CONFLICT', 'This sale is not paid: its pickup slip prints once it is paid.', {
        orderId,
        state: v.state,
      });
    const s = buildPickupSlip({
      order: v,
      cinemaName: d.settings.get().cinema.name,
      counterName: d.counterName(),
      reprint: d.jobs.wasPrinted('pickup-slip', orderId),
    });
    if (!s) throw new AppError('NOT_FOUND', 'This sale has no concessions: it has no pickup slip.', { orderId });
    return s;
  }

  const slipJobOf = (s: PickupSlip) => ({
    kind: 'pickup-slip' as const,
    orderId: s.orderId,
    title: pickupSlipDoc(s).title,
    payload: { slip: s },
    reprint: s.reprint,
    profile: order(s.orderId).profile ?? 'unrecorded',
  });

  /** Whether a paid sale's basket has concession lines, without building anything. */
  const hasSlip = (v: OrderView): boolean => !!v.basket?.lines.some((l) => l.kind !== 'tickets');

  const jobOf = (r: Receipt) => ({
    kind: 'receipt' as const,
    orderId: r.orderId,
    title: `${r.reprint ? 'Reprint of receipt' : 'Receipt'} ${r.outOrderNo}`,
    payload: { receipt: r },
    reprint: r.reprint,
    profile: order(r.orderId).profile ?? 'unrecorded',
  });

  // ---- printing by itself when paid ----
  const waiting = new Map<number, NodeJS.Timeout>();
  let stopped = false;

  function autoPrint(orderId: number): void {
    const t = waiting.get(orderId);
    if (t) clearTimeout(t);
    waiting.delete(orderId);
    if (stopped) return;
    const warn = (what: string) => (e: unknown) =>
      d.logger.warn(what, { orderId, error: e instanceof Error ? e.message : String(e) });
    // The outcome of each is journaled and sent to the window as it happens; nothing to do with it here.
    if (!d.jobs.hasJob('receipt', orderId)) {
      try {
        d.printer.submit(jobOf(receipt(orderId))).catch(warn('automatic receipt not printed'));
      } catch (e) {
        warn('automatic receipt not made')(e);
      }
    }
    // Queued after the receipt: the stand's slip comes out right below it, cut off on its own.
    if (hasSlip(order(orderId)) && !d.jobs.hasJob('pickup-slip', orderId)) {
      try {
        d.printer.submit(slipJobOf(slip(orderId))).catch(warn('automatic pickup slip not printed'));
      } catch (e) {
        warn('automatic pickup slip not made')(e);
      }
    }
  }

  const offOrder = d.checkout.on('order', (v) => {
    if (v.state !== 'paid' || stopped) return;
    const p = d.settings.get().printing;
    if (!p.autoPrint) return;
    // In the browser shell the window prints it with the browser's print.
    if (p.kind === 'system' && !d.systemPrinter.available) return;
    if (d.jobs.hasJob('receipt', v.id) && (!hasSlip(v) || d.jobs.hasJob('pickup-slip', v.id))) return;
    // A cash sale has no provider details to wait for: it is paid when it is made.
    const cash = v.basket?.tender.kind === 'cash';
    if (cash || (v.payNo !== undefined && v.completedTime !== undefined)) autoPrint(v.id);
    else if (!waiting.has(v.id))
      waiting.set(
        v.id,
        setTimeout(() => autoPrint(v.id), detailWaitMs),
      );
  });

  return {
    receipt,

    preview(orderId: number): ReceiptPreview {
      const r = receipt(orderId);
      const paper = d.settings.get().printing.paper;
      const v = order(orderId);
      const paid = v.state === 'paid' || v.late?.kind === 'paid-after-closing';
      const pickupHtml = paid && hasSlip(v) ? htmlFragmentOf(pickupSlipDoc(slip(orderId)), paper) : undefined;
      return { receipt: r, paper, html: htmlFragmentOf(receiptDoc(r), paper), ...(pickupHtml ? { pickupHtml } : {}) };
    },

    print(orderId: number): Promise<PrintJobView> {
      return d.printer.submit(jobOf(receipt(orderId)));
    },

    browserPrinted(orderId: number): PrintJobView {
      return d.printer.recordBrowserPrint(jobOf(receipt(orderId)));
    },

    /** The pickup slip again (or for the first time): its own job; a copy after a printed one is marked REPRINT. */
    printPickup(orderId: number): Promise<PrintJobView> {
      return d.printer.submit(slipJobOf(slip(orderId)));
    },

    pickupBrowserPrinted(orderId: number): PrintJobView {
      return d.printer.recordBrowserPrint(slipJobOf(slip(orderId)));
    },

    async savePdf(orderId: number): Promise<{ path: string }> {
      const r = receipt(orderId);
      const paper = d.settings.get().printing.paper;
      const doc = receiptDoc({ ...r, reprint: false });
      const bytes = await d.systemPrinter.toPdf({ html: htmlDocumentOf(doc, paper), paper, title: doc.title });
      const dir = join(d.dataDir, 'receipts');
      mkdirSync(dir, { recursive: true });
      let path = join(dir, `receipt-${r.outOrderNo}.pdf`);
      for (let n = 2; existsSync(path); n++) path = join(dir, `receipt-${r.outOrderNo}-${n}.pdf`);
      writeFileSync(path, bytes);
      return { path };
    },

    stop(): void {
      stopped = true;
      offOrder();
      for (const t of waiting.values()) clearTimeout(t);
      waiting.clear();
    },
  };
}
export type Receipts = ReturnType<typeof createReceipts>;
