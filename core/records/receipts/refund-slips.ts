// Printing a refund owed's slip (refund-slip-doc.ts) on request: read through the orders module's
// refunds port, a print job of the refund's sale (kind `refund-slip`), marked REPRINT after a
// printed one.
import { AppError } from '../../../shared/errors';
import type { PrintJobView } from '../../../shared/records';
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
    async print(refundId: number): Promise<PrintJobView> {
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
      return d.printer.submit({
        kind: 'refund-slip',
        orderId: s.orderId,
        title: refundSlipDoc(s).title,
        payload: { slip: s },
        reprint: s.reprint,
        profile: order.profile ?? 'unrecorded',
      });
    },
  };
}
