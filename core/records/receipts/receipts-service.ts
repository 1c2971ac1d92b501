// Receipts of orders: the model from the order as it is now, the preview, printing (journaled),
// the browser's own print recorded, PDF files, and printing by itself when an order is paid.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors';
import { isFinalState, type OrderView } from '../../../shared/orders';
import type { PrintJobView, Receipt, ReceiptPreview } from '../../../shared/records';
import type { OrderEvents, OrderReads } from '../../orders';
import type { Logger } from '../../../shared/logger';
import { htmlDocumentOf, htmlFragmentOf } from '../printing/print-html';
import type { PrintJobStore } from '../printing/print-jobs';
import type { PrintService } from '../printing/print-service';
import { buildReceipt, receiptDoc } from './receipt-model';
import type { RecordsSettingsStore } from '../records-settings';
import type { ShiftStore } from '../shifts/shift-store';
import type { SystemPrinter } from '../printing/system-printer';

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
    return buildReceipt({
      order: v,
      cinema: s.cinema,
      counterName: d.counterName(),
      cashier: d.shifts.cashierAt(v.createdAt),
      reprint: d.jobs.wasPrinted('receipt', orderId, since),
      ...(sold ? { programme: sold } : {}),
    });
  }

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
    if (stopped || d.jobs.hasJob('receipt', orderId)) return;
    let r: Receipt;
    try {
      r = receipt(orderId);
    } catch (e) {
      d.logger.warn('automatic receipt not made', { orderId, error: e instanceof Error ? e.message : String(e) });
      return;
    }
    // The outcome is journaled and sent to the window as it happens; nothing to do with it here.
    d.printer
      .submit(jobOf(r))
      .catch((e: unknown) =>
        d.logger.warn('automatic receipt not printed', { orderId, error: e instanceof Error ? e.message : String(e) }),
      );
  }

  const offOrder = d.checkout.on('order', (v) => {
    if (v.state !== 'paid' || stopped) return;
    const p = d.settings.get().printing;
    if (!p.autoPrint) return;
    // In the browser shell the window prints it with the browser's print.
    if (p.kind === 'system' && !d.systemPrinter.available) return;
    if (d.jobs.hasJob('receipt', v.id)) return;
    if (v.payNo !== undefined && v.completedTime !== undefined) autoPrint(v.id);
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
      return { receipt: r, paper, html: htmlFragmentOf(receiptDoc(r), paper) };
    },

    print(orderId: number): Promise<PrintJobView> {
      return d.printer.submit(jobOf(receipt(orderId)));
    },

    browserPrinted(orderId: number): PrintJobView {
      return d.printer.recordBrowserPrint(jobOf(receipt(orderId)));
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
