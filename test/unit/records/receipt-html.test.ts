// The HTML output: escaped, no scripts or inline styles (it is shown inside the app's strict CSP),
// the same style sheet as the renderer's receipt paper, and the same content as the ESC/POS output.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlDocumentOf, htmlFragmentOf } from '../../../core/records/printing/print-html';
import { receiptDoc } from '../../../core/records/receipts/receipt-model';
import { RECEIPT_CSS } from '../../../shared/receipt-css';
import { RECEIPT_CSS_MODULE, receiptCssPlugin } from '../../../scripts/receipt-css-plugin';
import { buildReceipt } from '../../../core/records/receipts/receipt-model';
import { CINEMA, paidReceipt, PAID_ORDER } from './receipt-fixtures';

describe('receipt HTML', () => {
  it('escapes everything a cashier typed', () => {
    const r = buildReceipt({
      order: { ...PAID_ORDER, sale: { ...PAID_ORDER.sale, filmTitle: '<img src=x onerror=alert(1)> & "Q"' } },
      cinema: { ...CINEMA, name: "Ade's <b>" },
      counterName: 'C',
      cashier: '<script>',
      reprint: false,
    });
    const html = htmlFragmentOf(receiptDoc(r), '80');
    expect(html).not.toMatch(/<img|<script|<b>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Q&quot;');
    expect(html).toContain('Ade&#39;s &lt;b&gt;');
  });

  it('has no inline style or script, so the app’s CSP (style-src self) shows it as is', () => {
    const html = htmlFragmentOf(receiptDoc(paidReceipt(true)), '58');
    expect(html).not.toMatch(/style=|<style|<script|javascript:/i);
    expect(html).toMatch(/^<div class="rp" data-paper="58">/);
    expect(html).toContain('<p class="rp-mark">REPRINT</p>');
    expect(html).toMatch(/<svg [^>]*viewBox="0 0 \d+ \d+"/);
  });

  it('shows the same facts as the printer does, with ₦ and times in Lagos', () => {
    const html = htmlFragmentOf(receiptDoc(paidReceipt()), '80');
    for (const s of [
      'Filmhouse Lekki',
      'Avengers: Doomsday',
      'F7, F8',
      '₦5,200.00',
      'C1-261121-0007',
      '250102050012345678',
      '2501020500998877',
      '5399********1234',
      'Paid at',
      '21 Nov 2026, 19:02:14',
      'Ngozi Eze',
      'DEMO-POS-0001',
      'Sat, 21 Nov 2026, 19:30',
    ]) {
      expect(html).toContain(s);
    }
  });

  it('prints as a whole page with its paper size and its own strict CSP', () => {
    const page = htmlDocumentOf(receiptDoc(paidReceipt()), '58');
    expect(page).toContain('@page { size: 58mm 297mm; margin: 0; }');
    expect(page).toContain("default-src 'none'");
    expect(page).toContain(RECEIPT_CSS);
  });

  it('the renderer shows the paper with the same style sheet: its build makes one of the one receipt CSS', () => {
    const plugin = receiptCssPlugin();
    const resolveId = plugin.resolveId as (id: string) => string | null;
    const load = plugin.load as (id: string) => string | null;
    const id = resolveId(RECEIPT_CSS_MODULE);
    expect(id).toMatch(/\.css$/);
    expect(load(id!)).toBe(RECEIPT_CSS);
    expect(resolveId('../../receipt-panel.css')).toBeNull();
    const paper = readFileSync(resolve(__dirname, '../../../renderer/src/screens/receipt/ReceiptPaper.tsx'), 'utf8');
    expect(paper).toContain(`import '${RECEIPT_CSS_MODULE}';`);
  });
});
