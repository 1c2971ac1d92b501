// The pickup slip printed through the receipts service on real parts (a SQLite journal file, the
// print journal, a loopback network printer): by itself right after the receipt when receipts print
// by themselves, at once for a cash sale; again on request, marked REPRINT; refused for a sale that
// is not paid or has no concessions. The orders come from a stand-in checkout (the engine's basket
// sale is tested with the engine).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import { memoryLogger } from '../../../shared/logger';
import { openJournalDb } from '../../../core/schema';
import { memoryStore } from '../../../core/settings/kv-store';
import { renderJob } from '../../../core/records/print-payload';
import { PrintJobStore } from '../../../core/records/printing/print-jobs';
import { createPrintService } from '../../../core/records/printing/print-service';
import { browserSystemPrinter } from '../../../core/records/printing/system-printer';
import { createReceipts } from '../../../core/records/receipts/receipts-service';
import { createRecordsSettings } from '../../../core/records/records-settings';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { escposText, startLoopbackPrinter, type LoopbackPrinter } from '../../helpers/loopback-printer';
import { basketOrder, MIXED } from '../../unit/records/basket-fixtures';
import { PAID_ORDER } from '../../unit/records/receipt-fixtures';

const stops: (() => unknown)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

async function setUp(autoPrint: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-pickup-'));
  const db = openJournalDb(join(dir, 'counterpay.db'));
  stops.push(() => db.close());
  const printer: LoopbackPrinter = await startLoopbackPrinter();
  stops.push(() => printer.stop());
  const orders = new Map<number, OrderView>();
  const listeners = new Set<(v: OrderView) => void>();
  const logger = memoryLogger();
  const settings = createRecordsSettings(memoryStore(), logger);
  settings.save({
    printing: { kind: 'network', host: printer.host, port: printer.port, paper: '58', autoPrint },
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
  const receipts = createReceipts({
    checkout: {
      get: (id) => orders.get(id) ?? null,
      on: (_event, listener) => {
        const l = listener as (v: OrderView) => void;
        listeners.add(l);
        return () => listeners.delete(l);
      },
    } as Parameters<typeof createReceipts>[0]['checkout'],
    settings,
    counterName: () => 'Counter 3',
    shifts: new ShiftStore(db),
    jobs,
    printer: service,
    systemPrinter: browserSystemPrinter,
    dataDir: dir,
    logger,
    detailWaitMs: 60_000,
  });
  stops.push(async () => {
    receipts.stop();
    await service.idle();
  });
  /** The checkout records the order and tells its listeners, as it does when a sale changes. */
  const emit = (v: OrderView) => {
    orders.set(v.id, v);
    for (const l of listeners) l(v);
  };
  return { receipts, jobs, printer, emit, idle: () => service.idle() };
}

describe('the pickup slip on the printer', () => {
  it('prints by itself right after the receipt of a paid basket with concessions, as its own job', async () => {
    const s = await setUp(true);
    const order = basketOrder({ ...MIXED, tender: { kind: 'split', cashKobo: 500_000 } });
    s.emit(order);
    const receipt = escposText(await s.printer.job(0));
    const slip = escposText(await s.printer.job(1));
    expect(receipt).toContain('Ticket receipt');
    expect(slip).toEqual(expect.arrayContaining(['PICKUP SLIP', 'No. 042', '1 x Popcorn', 'combo', '2 x Water 75cl']));
    expect(s.jobs.forOrder(order.id).map((j) => [j.kind, j.status, j.reprint, j.title])).toEqual([
      ['pickup-slip', 'printed', false, 'Pickup slip 042 (C1-261121-0042)'],
      ['receipt', 'printed', false, 'Receipt C1-261121-0042'],
    ]);
    // Told again (its details arrived): nothing prints twice.
    s.emit({ ...order, providerFeeKobo: 100 });
    await s.idle();
    expect(s.printer.jobs).toHaveLength(2);
  });

  it('a cash sale prints at once: no provider details to wait for', async () => {
    const s = await setUp(true);
    const order = basketOrder({
      concessions: [{ code: 'POPS', quantity: 2 }],
      tender: { kind: 'cash', tenderedKobo: 500_000 },
    });
    s.emit(order);
    // Both jobs are journaled as the sale is told paid (a card sale without its payment number waits).
    expect(s.jobs.forOrder(order.id).map((j) => j.kind)).toEqual(['pickup-slip', 'receipt']);
    const card = basketOrder(
      { concessions: [{ code: 'POPS', quantity: 2 }], tender: { kind: 'card' } },
      { id: 59, payNo: undefined },
    );
    s.emit(card);
    expect(s.jobs.forOrder(card.id)).toEqual([]);
    expect(escposText(await s.printer.job(0))).toContain(`CHANGE${' '.repeat(17)}N2,000.00`);
    expect(escposText(await s.printer.job(1))).toEqual(expect.arrayContaining(['2 x Popcorn', 'small']));
  });

  it('a ticket-only sale and a sale before baskets print their receipt alone', async () => {
    const s = await setUp(true);
    s.emit(PAID_ORDER);
    await s.printer.job(0);
    await s.idle();
    expect(s.jobs.forOrder(PAID_ORDER.id).map((j) => j.kind)).toEqual(['receipt']);
  });

  it('printed again on request, marked REPRINT; refused for a sale not paid or without concessions', async () => {
    const s = await setUp(false);
    const order = basketOrder({ ...MIXED, tender: { kind: 'card' } });
    s.emit(order);
    await s.idle();
    expect(s.printer.jobs).toHaveLength(0); // receipts do not print by themselves here
    expect(await s.receipts.printPickup(order.id)).toMatchObject({
      kind: 'pickup-slip',
      status: 'printed',
      reprint: false,
    });
    expect(escposText(await s.printer.job(0))).not.toContain(' REPRINT ');
    expect(await s.receipts.printPickup(order.id)).toMatchObject({ status: 'printed', reprint: true });
    expect(escposText(await s.printer.job(1))).toContain(' REPRINT ');
    expect(s.receipts.preview(order.id).pickupHtml).toContain('<p class="rp-big rp-center">No. 042</p>');

    const failed = { ...order, id: 58, state: 'failed' as const };
    s.emit(failed);
    expect(() => s.receipts.printPickup(58)).toThrow(/not paid/);
    expect(s.receipts.preview(58).pickupHtml).toBeUndefined();
    s.emit(PAID_ORDER);
    expect(() => s.receipts.printPickup(PAID_ORDER.id)).toThrow(/no concessions/);
    expect(s.receipts.preview(PAID_ORDER.id).pickupHtml).toBeUndefined();
  });
});
