// The printer test page: shows the paper's full width, the text styles, and the QR code, so a
// misconfigured width or a printer without QR support is obvious at a glance.
import type { PaperWidth } from '../../../shared/records';
import { formatLagosDateTime } from '../../../shared/time';
import { COLUMNS } from './escpos';
import type { PrintDoc } from './print-doc';

export interface TestPagePayload {
  at: number;
  cinemaName: string;
  counterName: string;
  printer: string;
}

export function testPageDoc(p: TestPagePayload, paper: PaperWidth): PrintDoc {
  const cols = COLUMNS[paper];
  const ruler = Array.from({ length: cols }, (_, i) => String((i + 1) % 10)).join('');
  return {
    title: 'Printer test page',
    blocks: [
      { t: 'title', text: p.cinemaName },
      { t: 'center', text: 'PRINTER TEST PAGE', bold: true },
      { t: 'rule' },
      { t: 'pair', label: 'Printer', value: p.printer },
      { t: 'pair', label: 'Paper', value: `${paper} mm (${cols} characters a line)` },
      { t: 'pair', label: 'Counter', value: p.counterName },
      { t: 'pair', label: 'Printed', value: formatLagosDateTime(p.at) },
      { t: 'text', text: 'The line of digits below must fit on one line:' },
      { t: 'text', text: ruler },
      { t: 'rule', double: true },
      { t: 'total', label: 'Large bold', value: '₦1,234.50' },
      { t: 'mark', text: 'REVERSED' },
      { t: 'qr', data: 'COUNTERPAY-TEST', caption: 'The QR code must scan as COUNTERPAY-TEST' },
      { t: 'small', text: 'If this page printed in full and was cut, the printer is ready.' },
    ],
  };
}
