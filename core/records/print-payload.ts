// What a print job holds (the receipt, the report, the test page as they were when it was made)
// and the document each renders to.
import { ReceiptSchema, ShiftReportSchema } from '../../shared/records';
import type { PrintDoc } from './printing/print-doc';
import type { JobRow } from './printing/print-jobs';
import { receiptDoc } from './receipts/receipt-model';
import { shiftReportDoc } from './shifts/shift-report-doc';
import { testPageDoc, type TestPagePayload } from './printing/test-page';

export function renderJob(job: JobRow): PrintDoc {
  const p = job.payload as { receipt?: unknown; report?: unknown; test?: TestPagePayload };
  switch (job.view.kind) {
    case 'receipt':
      return receiptDoc(ReceiptSchema.parse(p.receipt));
    case 'shift-report':
      return shiftReportDoc(ShiftReportSchema.parse(p.report), job.view.reprint);
    case 'test-page':
      if (!p.test) throw new Error('test page job without its payload');
      return testPageDoc(p.test, job.target.paper);
  }
}
