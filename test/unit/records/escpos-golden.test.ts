// ESC/POS output against golden byte files (test/fixtures/escpos/*.bin), reviewed by eye once with
// a hex dump. Regenerate deliberately with UPDATE_ESCPOS_GOLDEN=1 and review the diff again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escposCopies, escposOf, qrCommands } from '../../../core/records/printing/escpos';
import type { PrintDoc } from '../../../core/records/printing/print-doc';
import { receiptDoc } from '../../../core/records/receipts/receipt-model';
import { shiftReportDoc } from '../../../core/records/shifts/shift-report-doc';
import { testPageDoc } from '../../../core/records/printing/test-page';
import { escposLines, escposText } from '../../helpers/loopback-printer';
import { failedReceipt, paidReceipt, PAID_AT, seatMapReceipt, Z_REPORT } from './receipt-fixtures';

const DIR = resolve(__dirname, '../../fixtures/escpos');
const UPDATE = process.env.UPDATE_ESCPOS_GOLDEN === '1';

const CASES: [string, () => Buffer][] = [
  ['receipt-paid-80.bin', () => escposOf(receiptDoc(paidReceipt()), '80')],
  ['receipt-paid-58.bin', () => escposOf(receiptDoc(paidReceipt()), '58')],
  ['receipt-reprint-58.bin', () => escposOf(receiptDoc(paidReceipt(true)), '58')],
  ['receipt-failed-80.bin', () => escposOf(receiptDoc(failedReceipt()), '80')],
  // A seat map sale: one line per ticket, its row, seat and type (added with issue 30).
  ['receipt-seats-58.bin', () => escposOf(receiptDoc(seatMapReceipt()), '58')],
  ['z-report-80.bin', () => escposOf(shiftReportDoc(Z_REPORT, false), '80')],
  [
    'test-page-58.bin',
    () =>
      escposOf(
        testPageDoc(
          {
            at: PAID_AT,
            cinemaName: 'Filmhouse Lekki',
            counterName: 'Counter 3',
            printer: 'Network printer 192.168.1.50:9100',
          },
          '58',
        ),
        '58',
      ),
  ],
];

const textOf = escposText;

describe('ESC/POS golden files', () => {
  for (const [file, make] of CASES) {
    it(`${file} matches byte for byte`, () => {
      const bytes = make();
      const path = join(DIR, file);
      if (UPDATE) writeFileSync(path, bytes);
      expect(
        existsSync(path),
        `${file} is missing: generate it with UPDATE_ESCPOS_GOLDEN=1, review it with a hex dump, commit it`,
      ).toBe(true);
      const golden = readFileSync(path);
      if (!bytes.equals(golden)) {
        const at = bytes.findIndex((b, i) => b !== golden[i]);
        expect.fail(
          `${file} differs from byte ${at}: now ${bytes.subarray(at, at + 16).toString('hex')} / golden ${golden.subarray(at, at + 16).toString('hex')}`,
        );
      }
    });
  }
});

describe('ESC/POS layout', () => {
  it('starts with ESC @, ends with a feed and a partial cut, and never sends a byte outside ASCII', () => {
    const bytes = escposOf(receiptDoc(failedReceipt()), '80');
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
    expect([...bytes.subarray(-7)]).toEqual([0x1b, 0x64, 4, 0x1d, 0x56, 66, 0]);
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    const text = textOf(bytes).join('\n');
    expect(text).toContain('Amelie - "Le Fabuleux Destin"');
    expect(text).toContain('NOT PAID');
  });

  it('keeps every text line within the paper: 32 columns on 58 mm, 48 on 80 mm', () => {
    for (const [paper, cols, small] of [
      ['58', 32, 42],
      ['80', 48, 64],
    ] as const) {
      for (const doc of [
        receiptDoc(paidReceipt(true)),
        receiptDoc(failedReceipt()),
        shiftReportDoc(Z_REPORT, true),
      ] as PrintDoc[]) {
        for (const l of escposLines(escposOf(doc, paper))) {
          expect(l.text.length, `"${l.text}"`).toBeLessThanOrEqual(l.small ? small : l.wide ? cols / 2 : cols);
        }
      }
    }
    const lines80 = textOf(escposOf(receiptDoc(paidReceipt()), '80'));
    expect(lines80).toContain(`Seats${' '.repeat(48 - 5 - 6)}F7, F8`);
    expect(lines80.some((l) => l.startsWith('TOTAL PAID') && l.endsWith('N5,200.00') && l.length === 48)).toBe(true);
  });

  it('stores the QR data with its exact length (GS ( k, function 180)', () => {
    const cmds = qrCommands('250102050012345678', 6);
    const store = cmds.slice(25);
    expect(store.slice(0, 8)).toEqual([0x1d, 0x28, 0x6b, 18 + 3, 0, 0x31, 0x50, 0x30]);
    expect(Buffer.from(store.slice(8, 26)).toString('ascii')).toBe('250102050012345678');
    expect(cmds.slice(-8)).toEqual([0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30]);
    const long = qrCommands('X'.repeat(300), 5);
    expect(long.slice(28, 30)).toEqual([303 % 256, 1]);
  });

  it('repeats the whole job, cut included, for each copy', () => {
    const one = escposOf(receiptDoc(paidReceipt()), '58');
    const two = escposCopies(receiptDoc(paidReceipt()), '58', 2);
    expect(two.equals(Buffer.concat([one, one]))).toBe(true);
  });

  it('marks a reprint in reverse print, and only a reprint', () => {
    const reverseOn = Buffer.from([0x1d, 0x42, 1]);
    expect(
      escposOf(receiptDoc(paidReceipt(true)), '80').includes(Buffer.concat([reverseOn, Buffer.from(' REPRINT ')])),
    ).toBe(true);
    expect(escposOf(receiptDoc(paidReceipt(false)), '80').includes(Buffer.from('REPRINT'))).toBe(false);
  });
});
