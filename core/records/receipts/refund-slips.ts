// Printing a refund owed's slip (refund-slip-doc.ts) on request: read through the orders module's
// refunds port, a print job of the refund's sale (kind `refund-slip`), marked REPRINT after a
// printed one; in the browser shell the window prints it and the job is recorded as printed there.
import { AppError } from '../../../shared/errors';
import type { PrintJobView } from '../../../shared/records';
import type { PaperWidth } from '../../../shared/records-settings';
import { htmlFragmentOf } from '../printing/print-html';
import type { OrderReads } from '../../orders';
import type { PrintJobStore } from '../printing/print-jobs';
import type { PrintService } from '../printing/print-service';
import type { RecordsSettingsStore } from '../records-settings';
import { buildRefundSlip, refundSlipDoc } from './refund-slip-doc';
import type { RefundReads } from './receipts-service';

interface RefundSlipsDeps {
  refunds: RefundReads | undefined;
  checkout: Pick<OrderReads, 'get'>;
  settings: RecordsSettingsStore;
  counterName: () => string;
  jobs: PrintJobStore;
  printer: PrintService;
}

export function createRefundSlips(d: RefundSlipsDeps) {
  return {
    /** Prints it (or records the browser's print of it, `inBrowser`); the job and the slip as printed. */
    async print(refundId: number, inBrowser = false): Promise<{ job: PrintJobView; html: string; paper: PaperWidth }> {
      const x = d.refunds?.refund(refundId) ?? null;
      if (!x) throw new AppError('NOT_FOUND', `There is no refund ${refundId} on this counter.`, { refundId });
      const order = d.checkout.get(x.orderId);
      if (!order) throw new AppError('NOT_FOUND', `There is no order ${x.orderId} on this counter.`, { refundId });
      const to = x.exchangeOrderId !== null ? d.checkout.get(x.exchangeOrderId) : null;
      const s = buildRefundSlip({
        refund: x,
        order,
        exchangeOutOrderNo: to?.outOrderNo,
        cinemaName: d.settings.get().cinema.name,
        counterName: d.counterName(),
        reprint: d.jobs.refundSlipPrinted(refundId),
      });
      const doc = refundSlipDoc(s);
      const job = {
        kind: 'refund-slip' as const,
        orderId: s.orderId,
        title: doc.title,
        payload: { slip: s },
        reprint: s.reprint,
        profile: order.profile ?? 'unrecorded',
      };
      const paper = d.settings.get().printing.paper;
      return {
        job: inBrowser ? d.printer.recordBrowserPrint(job) : await d.printer.submit(job),
        html: htmlFragmentOf(doc, paper),
        paper,
      };
    },
  };
}
