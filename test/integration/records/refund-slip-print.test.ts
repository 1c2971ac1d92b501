// The refund slip (issue 39) printed through the records module's refund slips on real parts (a
// SQLite journal file with every migration, the print journal, a loopback network printer): it
// names the original sale, the seats cancelled, the amount by its tender and, for card money not
// yet returned, that it is owed; printed again it is marked REPRINT; an unknown refund is refused.
// The refunds come from a stand-in for the orders module's refunds port (the engine is tested with
// the engine). The receipt of an exchanged sale names the sales around it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import type { RefundView, SaleLinks } from '../../../shared/refunds';
import { memoryLogger } from '../../../shared/logger';
import { isAppError } from '../../../shared/errors';
import { openJournalDb } from '../../../core/schema';
import { memoryStore } from '../../../core/settings/kv-store';
import { renderJob } from '../../../core/records/print-payload';
import { PrintJobStore } from '../../../core/records/printing/print-jobs';
import { createPrintService } from '../../../core/records/printing/print-service';
import { browserSystemPrinter } from '../../../core/records/printing/system-printer';
import { createRefundSlips } from '../../../core/records/receipts/refund-slips';
import { buildReceipt, receiptDoc } from '../../../core/records/receipts/receipt-model';
import { createRecordsSettings } from '../../../core/records/records-settings';
import { escposText, startLoopbackPrinter } from '../../helpers/loopback-printer';
import { CINEMA, PAID_AT, PAID_ORDER } from '../../unit/records/receipt-fixtures';

const stops: (() => unknown)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

const CARD_REFUND: RefundView = {
  id: 7,
  refundNo: 'R0007',
  orderId: PAID_ORDER.id,
  outOrderNo: PAID_ORDER.outOrderNo,
  kind: 'cancel',
  tender: 'card',
  amountKobo: 260_000,
  seats: ['F8'],
  lines: [],
  reason: 'customer-request',
  note: '',
  approved: { how: 'pin', by: 'Admin PIN', at: PAID_AT + 3_600_000 },
  cashier: 'Ngozi Eze',
  at: PAID_AT + 3_600_000,
  shiftId: 1,
  returned: null,
  exchangeOrderId: null,
  demo: false,
};

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-refund-slip-'));
  const db = openJournalDb(join(dir, 'counterpay.db'));
  stops.push(() => db.close());
  const printer = await startLoopbackPrinter();
  stops.push(() => printer.stop());
  const logger = memoryLogger();
  const settings = createRecordsSettings(memoryStore(), logger);
  settings.save({
    printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80', autoPrint: false },
    cinema: { name: 'Filmhouse Lekki' },
  });
  const jobs = new PrintJobStore(db, () => Date.now());
  const service = createPrintService({
    jobs,
    printing: () => settings.get().printing,
    systemPrinter: browserSystemPrinter,
    render: renderJob,
    logger,
    onJob: () => {},
  });
  stops.push(() => service.idle());
  const refunds = new Map<number, RefundView>([[CARD_REFUND.id, CARD_REFUND]]);
  const orders = new Map<number, OrderView>([[PAID_ORDER.id, PAID_ORDER]]);
  const slips = createRefundSlips({
    refunds: {
      refund: (id) => refunds.get(id) ?? null,
      links: () => ({ exchangedFrom: null, exchangedTo: [], cancelledSeats: [] }),
    },
    checkout: { get: (id) => orders.get(id) ?? null },
    settings,
    counterName: () => 'Counter 3',
    jobs,
    printer: service,
  });
  return { slips, jobs, printer, refunds };
}

describe('the refund slip on the printer', () => {
  it('names the original sale, the seat cancelled and the card refund owed; again it is a REPRINT', async () => {
    const s = await setUp();
    const { job, html } = await s.slips.print(CARD_REFUND.id);
    expect(html).toContain('C1-261121-0007');
    expect(job).toMatchObject({ kind: 'refund-slip', orderId: PAID_ORDER.id, status: 'printed', reprint: false });
    const text = escposText(await s.printer.job(0)).join('\n');
    for (const part of [
      'REFUND SLIP',
      'No. R0007',
      'C1-261121-0007',
      'Avengers: Doomsday',
      'Seats cancelled',
      'F8',
      'REFUND TO THE CARD',
      'N2,600.00',
      'OWED: NOT YET RETURNED',
      'Customer asked',
      'Admin PIN',
    ])
      expect(text).toContain(part);

    // Returned since: the copy says how, and is marked REPRINT.
    s.refunds.set(CARD_REFUND.id, {
      ...CARD_REFUND,
      returned: { how: 'bank-transfer', reference: 'TRF-889', by: 'Ngozi Eze', at: PAID_AT + 86_400_000 },
    });
    expect((await s.slips.print(CARD_REFUND.id)).job).toMatchObject({ reprint: true, status: 'printed' });
    const again = escposText(await s.printer.job(1)).join('\n');
    expect(again).toContain('REPRINT');
    expect(again).toContain('Bank transfer');
    expect(again).toContain('TRF-889');
    expect(again).not.toContain('OWED');
  });

  it('a cash refund says it was handed back; an unknown refund is refused', async () => {
    const s = await setUp();
    s.refunds.set(8, { ...CARD_REFUND, id: 8, refundNo: 'R0008', tender: 'cash', returned: null });
    await s.slips.print(8);
    const text = escposText(await s.printer.job(0)).join('\n');
    expect(text).toContain('REFUNDED IN CASH');
    expect(text).toContain('Cash handed back at the counter');
    // The browser's print: recorded as printed there, nothing sent to the printer.
    const inBrowser = await s.slips.print(8, true);
    expect(inBrowser.job).toMatchObject({ kind: 'refund-slip', status: 'printed', reprint: true });
    expect(inBrowser.html).toContain('REFUNDED IN CASH');
    expect(s.printer.jobs).toHaveLength(1);
    const refused = await s.slips.print(99).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe('NOT_FOUND');
  });
});

describe('the receipt of an exchanged sale', () => {
  const receiptText = (links: SaleLinks) =>
    receiptDoc(
      buildReceipt({
        order: PAID_ORDER,
        cinema: CINEMA,
        counterName: 'Counter 3',
        cashier: 'N',
        reprint: false,
        links,
      }),
    )
      .blocks.map((b) => ('text' in b ? b.text : 'label' in b ? `${b.label}: ${b.value}` : ''))
      .join('\n');

  it('the new sale names the sale it replaces; the old one names the new sale and the seats no longer valid', () => {
    expect(
      receiptText({ exchangedFrom: { orderId: 3, outOrderNo: 'C1-261121-0003' }, exchangedTo: [], cancelledSeats: [] }),
    ).toMatch(/EXCHANGE\nExchange of sale: C1-261121-0003/);
    const old = receiptText({
      exchangedFrom: null,
      exchangedTo: [{ orderId: 9, outOrderNo: 'C1-261121-0009' }],
      cancelledSeats: ['F7', 'F8'],
    });
    expect(old).toContain('Exchanged to sale: C1-261121-0009');
    expect(old).toContain('No longer valid: Seats F7, F8');
    expect(receiptText({ exchangedFrom: null, exchangedTo: [], cancelledSeats: [] })).not.toMatch(/EXCHANGE|No longer/);
  });
});
