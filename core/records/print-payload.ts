// What a print job holds (the receipt, the pickup, refund or case slip, the report, the test page as they were when it was made)
// and the document each renders to.
import { ReceiptSchema, ShiftReportSchema } from '../../shared/records';
import type { PrintDoc } from './printing/print-doc';
import type { JobRow } from './printing/print-jobs';
import { receiptDoc } from './receipts/receipt-model';
import { pickupSlipDoc } from './receipts/pickup-slip-doc';
import { PickupSlipSchema } from '../../shared/pickup-slip';
import { CaseSlipSchema } from '../../shared/cases';
import { caseSlipDoc } from './receipts/case-slip-doc';
import { RefundSlipSchema } from '../../shared/refund-slip';
import { refundSlipDoc } from './receipts/refund-slip-doc';
import { shiftReportDoc } from './shifts/shift-report-doc';
import { testPageDoc, type TestPagePayload } from './printing/test-page';

export function renderJob(job: JobRow): PrintDoc {
  const p = job.payload as { receipt?: unknown; report?: unknown; test?: TestPagePayload; slip?: unknown };
  switch (job.view.kind) {
    case 'receipt':
      return receiptDoc(ReceiptSchema.parse(p.receipt));
    case 'pickup-slip':
      return pickupSlipDoc(PickupSlipSchema.parse(p.slip));
    case 'case-slip':
      return caseSlipDoc(CaseSlipSchema.parse(p.slip));
    case 'refund-slip':
      return refundSlipDoc(RefundSlipSchema.parse(p.slip));
    case 'shift-report':
      return shiftReportDoc(ShiftReportSchema.parse(p.report), job.view.reprint);
    case 'test-page':
      if (!p.test) throw new Error('test page job without its payload');
      return testPageDoc(p.test, job.target.paper);
  }
}
