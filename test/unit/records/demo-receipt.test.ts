// A Demo sale's receipt says "DEMO — NOT A PAYMENT" in large type, first and last, in every
// rendering: the HTML (58 and 80 mm, which the PDF prints too) and the ESC/POS bytes (golden file).
// A real sale's receipt has no such line.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escposOf } from '../../../core/records/printing/escpos';
import { htmlDocumentOf, htmlFragmentOf } from '../../../core/records/printing/print-html';
import { RECEIPT_CSS } from '../../../shared/receipt-css';
import { buildReceipt, receiptDoc } from '../../../core/records/receipts/receipt-model';
import { escposLines } from '../../helpers/loopback-printer';
import { CINEMA, PAID_ORDER } from './receipt-fixtures';

const DIR = resolve(__dirname, '../../fixtures/escpos');
const UPDATE = process.env.UPDATE_ESCPOS_GOLDEN === '1';

const demoReceipt = () =>
  buildReceipt({
    order: { ...PAID_ORDER, profile: 'demo' },
    cinema: CINEMA,
    counterName: 'Counter 3',
    cashier: 'Ngozi Eze',
    reprint: false,
  });
const realReceipt = () =>
  buildReceipt({
    order: { ...PAID_ORDER, profile: 'production' },
    cinema: CINEMA,
    counterName: 'Counter 3',
    cashier: 'Ngozi Eze',
    reprint: false,
  });

describe('Demo receipt banner', () => {
  it('comes from the order’s profile', () => {
    expect(demoReceipt().demo).toBe(true);
    expect(realReceipt().demo).toBe(false);
    expect(
      buildReceipt({ order: PAID_ORDER, cinema: CINEMA, counterName: 'C', cashier: '', reprint: false }).demo,
    ).toBe(false);
  });

  for (const paper of ['58', '80'] as const) {
    it(`HTML ${paper} mm: the banner opens and closes the receipt, in its own large style`, () => {
      const html = htmlFragmentOf(receiptDoc(demoReceipt()), paper);
      const banners = html.match(/<p class="rp-banner" role="alert">DEMO — NOT A PAYMENT<\/p>/g) ?? [];
      expect(banners).toHaveLength(2);
      expect(html.indexOf('rp-banner')).toBeLessThan(html.indexOf('rp-title'));
      expect(html.lastIndexOf('rp-banner')).toBeGreaterThan(html.indexOf('rp-qr'));
      expect(htmlFragmentOf(receiptDoc(realReceipt()), paper)).not.toMatch(/rp-banner|NOT A PAYMENT/);
      // The page printed by Electron and saved as PDF carries the same blocks and the style that makes them large.
      const page = htmlDocumentOf(receiptDoc(demoReceipt()), paper);
      expect(page).toContain('class="rp-banner"');
      expect(RECEIPT_CSS).toMatch(/\.rp-banner \{[^}]*font-size: 2em;[^}]*background: #000;/);
    });
  }

  for (const paper of ['58', '80'] as const) {
    const file = `receipt-demo-${paper}.bin`;
    it(`ESC/POS ${paper} mm matches ${file} byte for byte, and prints the banner double size and reversed`, () => {
      const bytes = escposOf(receiptDoc(demoReceipt()), paper);
      const path = join(DIR, file);
      if (UPDATE) writeFileSync(path, bytes);
      expect(
        existsSync(path),
        `${file} is missing: generate it with UPDATE_ESCPOS_GOLDEN=1, review it, commit it`,
      ).toBe(true);
      const golden = readFileSync(path);
      if (!bytes.equals(golden)) {
        const at = bytes.findIndex((b, i) => b !== golden[i]);
        expect.fail(
          `${file} differs from byte ${at}: now ${bytes.subarray(at, at + 16).toString('hex')} / golden ${golden.subarray(at, at + 16).toString('hex')}`,
        );
      }
      const lines = escposLines(bytes);
      // At the top and at the bottom, double size: one line on 80 mm, two on 58 mm.
      const wideText = lines
        .filter((l) => l.wide)
        .map((l) => l.text.trim())
        .join(' ');
      expect(wideText.match(/DEMO - NOT A PAYMENT/g)).toHaveLength(2);
      expect(lines[0]!.text).toContain('DEMO');
      expect(lines[0]!.wide).toBe(true);
      // GS ! 0x11 (double width and height) then GS B 1 (reverse) before the first banner line.
      const head = [...bytes.subarray(0, 20)];
      expect(head.join(',')).toContain([0x1d, 0x21, 0x11].join(','));
      expect(head.join(',')).toContain([0x1d, 0x42, 1].join(','));
      for (const l of lines)
        expect(l.text.length).toBeLessThanOrEqual(l.wide ? (paper === '58' ? 16 : 24) : l.small ? 64 : 48);
      expect(escposLines(escposOf(receiptDoc(realReceipt()), paper)).some((l) => l.text.includes('NOT A'))).toBe(false);
    });
  }
});
