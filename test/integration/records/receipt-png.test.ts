// The HTML receipt rendered by Chromium at both paper widths, kept as PNG (and PDF) artifacts in
// test/artifacts/receipts/: it must keep to the printable width, with nothing cut off.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperWidth } from '../../../shared/records';
import type { PrintDoc } from '../../../core/records/printing/print-doc';
import { htmlDocumentOf } from '../../../core/records/printing/print-html';
import { receiptDoc } from '../../../core/records/receipts/receipt-model';
import { shiftReportDoc } from '../../../core/records/shifts/shift-report-doc';
import { buildReceipt } from '../../../core/records/receipts/receipt-model';
import { CINEMA, failedReceipt, PAID_AT, PAID_ORDER, paidReceipt, Z_REPORT } from '../../unit/records/receipt-fixtures';
import { basketOrder, MIXED, receiptOf } from '../../unit/records/basket-fixtures';
import { buildPickupSlip, pickupSlipDoc } from '../../../core/records/receipts/pickup-slip-doc';
import { pdfText } from '../../helpers/pdf-text';

/** The sale expired on the counter; the provider took the money two minutes later. */
function paidAfterClosingReceipt() {
  const { payNo: _p, completedTime: _c, ...closed } = PAID_ORDER;
  return buildReceipt({
    order: {
      ...closed,
      state: 'expired',
      providerStatus: 'CLOSE',
      reason: 'Nobody paid in time',
      late: {
        kind: 'paid-after-closing',
        providerStatus: 'SUCCESS',
        closedAs: 'expired',
        amountKobo: PAID_ORDER.amountKobo,
        payNo: '2501020500998877',
        senderAccount: '5399********1234',
        providerAt: PAID_AT + 120_000,
        foundAt: PAID_AT + 125_000,
        source: 'webhook',
        handled: null,
      },
    },
    cinema: CINEMA,
    counterName: 'Counter 3',
    cashier: 'Ngozi Eze',
    reprint: false,
  });
}

const OUT = resolve(__dirname, '../../artifacts/receipts');
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
const PX_PER_MM = 96 / 25.4;
const PRINTABLE_MM: Record<PaperWidth, number> = { '58': 48, '80': 72 };

let browser: Browser | null = null;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  if (CHROMIUM) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function render(name: string, doc: PrintDoc, paper: PaperWidth) {
  const page = await browser!.newPage({ viewport: { width: 400, height: 800 }, deviceScaleFactor: 2 });
  try {
    await page.setContent(htmlDocumentOf(doc, paper));
    const box = page.locator('.rp');
    const png = join(OUT, `${name}-${paper}mm.png`);
    await box.screenshot({ path: png });
    const m = await box.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const overflowing = [...el.querySelectorAll('*')]
        .filter((c) => c.getBoundingClientRect().right > r.right + 0.5 || c.getBoundingClientRect().left < r.left - 0.5)
        .map((c) => c.className.toString() || c.tagName);
      const qr = el.querySelector('.rp-qr svg')?.getBoundingClientRect();
      // An amount broken over two lines ("₦65,100.0" / "0") would be misread.
      const brokenAmounts = [...el.querySelectorAll('.rp-value')]
        .filter((v) => {
          if (!/^₦[\d,.]+$/.test(v.textContent ?? '')) return false;
          const range = document.createRange();
          range.selectNodeContents(v);
          return new Set([...range.getClientRects()].map((x) => Math.round(x.top))).size > 1;
        })
        .map((v) => v.textContent);
      return { width: r.width, height: r.height, overflowing, brokenAmounts, qrWidth: qr?.width ?? 0 };
    });
    const pdf = await page.pdf({
      width: `${paper}mm`,
      height: '297mm',
      printBackground: true,
      preferCSSPageSize: true,
    });
    return { png, pdf, ...m };
  } finally {
    await page.close();
  }
}

describe.skipIf(!CHROMIUM)(
  `receipt HTML in Chromium${CHROMIUM ? '' : ' (skipped: no Chromium found; set CHROMIUM_PATH)'}`,
  () => {
    for (const paper of ['58', '80'] as const) {
      it(`paid receipt (reprint) on ${paper} mm paper: the printable width, nothing sticking out, a scannable-size QR`, async () => {
        const r = await render('receipt-reprint', receiptDoc(paidReceipt(true)), paper);
        expect(r.width).toBeCloseTo(PRINTABLE_MM[paper] * PX_PER_MM, 0);
        expect(r.overflowing).toEqual([]);
        expect(r.brokenAmounts).toEqual([]);
        expect(r.qrWidth).toBeGreaterThanOrEqual(20 * PX_PER_MM);
        expect(r.height).toBeGreaterThan(r.width);
        expect(readFileSync(r.png).subarray(1, 4).toString()).toBe('PNG');
        expect(r.pdf.subarray(0, 5).toString()).toBe('%PDF-');
      });

      it(`failed-payment slip and Z report on ${paper} mm paper stay within the width`, async () => {
        for (const [name, doc] of [
          ['payment-slip-failed', receiptDoc(failedReceipt())],
          ['z-report', shiftReportDoc(Z_REPORT, false)],
        ] as const) {
          const r = await render(name, doc, paper);
          expect(r.overflowing, name).toEqual([]);
          expect(r.brokenAmounts, name).toEqual([]);
          expect(r.width).toBeCloseTo(PRINTABLE_MM[paper] * PX_PER_MM, 0);
        }
      });

      it(`the basket receipt and the pickup slip as PDF on ${paper} mm paper: their printed text, nothing sticking out`, async () => {
        // 2 Adult + 1 Child, a popcorn combo with a Fanta, 2 water; ₦5,000 cash (₦6,000 handed over), the rest by card.
        const order = basketOrder({ ...MIXED, tender: { kind: 'split', cashKobo: 500_000, tenderedKobo: 600_000 } });
        const receipt = await render('receipt-basket', receiptDoc(receiptOf(order)), paper);
        expect(receipt.overflowing).toEqual([]);
        expect(receipt.brokenAmounts).toEqual([]);
        // A label too long for its column wraps below (58 mm): each line's words are there, the lines in order.
        const words = pdfText(receipt.pdf).join(' ').split(' ');
        let from = 0;
        for (const line of [
          'Ticket receipt',
          '2 × Adult ₦4,500.00 ₦9,000.00',
          'Seats F7, F8',
          '1 × Child ₦3,000.00 ₦3,000.00',
          'Seat F9',
          'Booking fee 3 × ₦200.00 ₦600.00',
          '1 × Popcorn combo ₦3,000.00 ₦3,000.00',
          'Popcorn: Popcorn large',
          'Drink: Fanta 50cl',
          '2 × Water 75cl ₦400.00 ₦800.00',
          'TOTAL PAID ₦16,400.00',
          'Cash part ₦5,000.00',
          'Cash tendered ₦6,000.00',
          'Card part ₦11,400.00',
          'CHANGE ₦1,000.00',
          'Payment PAID',
        ]) {
          const [first, ...rest] = line.split(' ');
          const at = words.indexOf(first!, from);
          expect(at, line).toBeGreaterThanOrEqual(from);
          for (const w of rest) expect(words.slice(at, at + 12), line).toContain(w);
          from = at + 1;
        }

        const slip = buildPickupSlip({ order, cinemaName: CINEMA.name, counterName: 'Counter 3', reprint: false })!;
        const printed = await render('pickup-slip', pickupSlipDoc(slip), paper);
        expect(printed.overflowing).toEqual([]);
        const slipText = pdfText(printed.pdf);
        expect(slipText.slice(1)).toEqual([
          'PICKUP SLIP',
          'No. 042',
          // Large type wraps sooner on 58 mm paper.
          ...(paper === '58'
            ? ['1 × Popcorn', 'combo', 'Popcorn: Popcorn', 'large']
            : ['1 × Popcorn combo', 'Popcorn: Popcorn large']),
          'Drink: Fanta 50cl',
          '2 × Water 75cl',
          'Counter 3 · 19:02',
          'Sale no. C1-261121-0042',
          'Times are Lagos time (WAT).',
        ]);
      });

      it(`a paid-after-closing ticket receipt on ${paper} mm paper: its mark and line stay within the width`, async () => {
        const r = await render('receipt-paid-after-closing', receiptDoc(paidAfterClosingReceipt()), paper);
        expect(r.overflowing).toEqual([]);
        expect(r.brokenAmounts).toEqual([]);
        expect(r.width).toBeCloseTo(PRINTABLE_MM[paper] * PX_PER_MM, 0);
      });
    }
  },
);
