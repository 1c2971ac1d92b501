// The complaint desk's case slip (docs/refunds.md, "The complaint desk"): what the customer who says
// "I was debited" takes home — the case number, when it was opened (Lagos time), what the counter
// found, the 72-hour promise and the cinema's name.
import type { CaseSlip } from '../../../shared/cases';
import { DEMO_RECEIPT_BANNER } from '../../../shared/record-profile';
import { formatLagosDateTime } from '../../../shared/time';
import type { Block, PrintDoc } from '../printing/print-doc';

/** The promise printed on every slip (the Central Bank's 72 hours for a disputed POS debit). */
export const CASE_SLIP_PROMISE = 'We will resolve this within 72 hours';

export function caseSlipDoc(s: CaseSlip): PrintDoc {
  const b: Block[] = [];
  if (s.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  b.push({ t: 'title', text: s.cinemaName }, { t: 'center', text: 'PAYMENT COMPLAINT', bold: true });
  b.push({ t: 'big', text: `Case ${s.caseNo}`, center: true }, { t: 'rule', double: true });
  b.push(
    { t: 'pair', label: 'Opened', value: formatLagosDateTime(s.openedAt) },
    { t: 'pair', label: 'Counter', value: s.counterName },
    { t: 'pair', label: 'By', value: s.openedBy },
    { t: 'heading', text: 'What we found' },
  );
  for (const line of s.found) b.push({ t: 'text', text: line });
  b.push(
    { t: 'rule' },
    { t: 'center', text: `${CASE_SLIP_PROMISE}.`, bold: true },
    { t: 'small', text: `Keep this slip and quote case ${s.caseNo}.` },
    { t: 'small', text: 'Times are Lagos time (WAT).' },
  );
  if (s.demo) b.push({ t: 'banner', text: DEMO_RECEIPT_BANNER });
  return { title: `Case slip ${s.caseNo}`, blocks: b };
}
