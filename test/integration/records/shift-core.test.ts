// Shifts and order search through the composed core: totals by outcome, a close that lists what is
// still open and needs confirming, the kept Z report printed (then reprinted) and exported as CSV.
import { describe, expect, it } from 'vitest';
import type { OrderPage, PrintJobView, ShiftReportView, ShiftView, ZReportSummary } from '../../../shared/records';
import type { OrderView } from '../../../shared/orders';
import { lagosDate } from '../../../shared/time';
import { escposText, type LoopbackPrinter } from '../../helpers/loopback-printer';
import { zReportEvent } from '../../../core/records/shifts/shift-store';
import { openJournalDb } from '../../../core/schema';
import { journalPath } from '../../../core/data-folder/journal-file';
import { lagosDayCode, OrderJournal } from '../../../core/orders';
import { call, callError, nextEvent, orderIn, perTest, SALE, sell } from './records-harness';

const each = perTest();
let printer: LoopbackPrinter | null = null;

describe('a shift in the Demo profile', () => {
  it('totals paid, failed, cancelled and open orders; closing with open ones needs confirming; the Z report is kept', async () => {
    const { core } = await each.boot();
    printer = await each.printer();
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'receipts.saveSettings', {
      printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80' },
    });

    expect(await call(core, 'shift.current', {})).toEqual({ shift: null });
    expect((await callError(core, 'shift.report', {})).code).toBe('NOT_READY');
    expect((await callError(core, 'shift.open', { cashier: ' ', openingFloat: '' })).code).toBe('BAD_ARGUMENTS');
    expect((await callError(core, 'shift.open', { cashier: 'Ngozi', openingFloat: 'five' })).details?.fields).toEqual({
      openingFloat: expect.stringMatching(/naira/),
    });
    const opened = nextEvent<{ shift: ShiftView | null }>(core, 'shift.changed', (p) => p.shift !== null);
    const shift = await call<ShiftView>(core, 'shift.open', { cashier: 'Ngozi Eze', openingFloat: '5,000' });
    expect(shift).toMatchObject({ cashier: 'Ngozi Eze', openingFloatKobo: 500_000, closedAt: null });
    expect((await opened).shift?.id).toBe(shift.id);
    expect((await callError(core, 'shift.open', { cashier: 'Tunde', openingFloat: '' })).code).toBe('CONFLICT');

    const paid1 = await sell(core, 'SUCCESS');
    await sell(core, 'SUCCESS', { seats: 'A1', tickets: 1, priceKobo: 200_000, bookingFeeKobo: 0 });
    await sell(core, 'FAIL');
    await sell(core, 'CANCEL', { filmName: 'DUNE-3', filmTitle: 'Dune: Part Three' });
    const open = await sell(core, null, { seats: 'C4', tickets: 1 });

    const x = await call<ShiftReportView>(core, 'shift.report', {});
    expect(x.report.kind).toBe('X');
    expect(x.report.totals).toMatchObject({
      paid: { count: 2, amountKobo: 350_000 + 200_000 },
      failed: { count: 1, amountKobo: 350_000 },
      cancelled: { count: 1, amountKobo: 350_000 },
      expired: { count: 0, amountKobo: 0 },
      open: { count: 1, amountKobo: 200_000 },
      ticketsSold: 3,
      bookingFeesKobo: 50_000,
      topups: { available: expect.any(Boolean) },
    });
    expect(x.report.totals.openItems).toMatchObject([{ kind: 'order', ref: open.outOrderNo, state: 'waiting' }]);
    expect(x.html).toContain('X REPORT');

    // Closing with an order still waiting: refused, listing it; the shift stays open.
    const refused = await callError(core, 'shift.close', { counted: '5,000' });
    expect(refused.code).toBe('CONFLICT');
    expect(refused.details?.openItems).toMatchObject([{ ref: open.outOrderNo }]);
    expect((await call<{ shift: ShiftView | null }>(core, 'shift.current', {})).shift?.id).toBe(shift.id);

    const z = await call<ShiftReportView>(core, 'shift.close', { acceptOpen: true, counted: '5,000' });
    expect(z.report).toMatchObject({
      kind: 'Z',
      id: expect.any(Number),
      shift: { id: shift.id, closedAt: expect.any(Number) },
    });
    expect(z.report.totals.paid.count).toBe(2);
    // The reconciliation sweep ran before the Z report: the failed and the cancelled sale were asked about again.
    expect(z.report.totals.sweep).toMatchObject({ checked: 2, paidAfterClosing: 0, incomplete: null });
    expect(await call(core, 'shift.current', {})).toEqual({ shift: null });
    const list = await call<ZReportSummary[]>(core, 'shift.reports', {});
    expect(list).toMatchObject([
      { id: z.report.id, cashier: 'Ngozi Eze', paid: { count: 2, amountKobo: 550_000 }, openCount: 1 },
    ]);

    // Kept: the same figures later, printed, then reprinted with the mark.
    const kept = await call<ShiftReportView>(core, 'shift.report', { id: z.report.id });
    expect(kept.report).toEqual(z.report);
    const job = await call<PrintJobView>(core, 'shift.print', { id: z.report.id });
    expect(job).toMatchObject({ kind: 'shift-report', status: 'printed', reprint: false, reportId: z.report.id });
    const printed = escposText(await printer.job(0));
    expect(printed.some((l) => l.includes(`Z REPORT #${z.report.id}`))).toBe(true);
    expect(printed.some((l) => l.startsWith('Paid by card (card part) (2)') && l.endsWith('N5,500.00'))).toBe(true);
    expect(printed.join('\n')).toContain(open.outOrderNo);
    expect(await call<PrintJobView>(core, 'shift.print', { id: z.report.id })).toMatchObject({ reprint: true });
    expect(escposText(await printer.job(1))).toContain(' REPRINT ');
    expect((await call<PrintJobView[]>(core, 'shift.reportJobs', { id: z.report.id })).length).toBe(2);

    const csv = await call<{ fileName: string; csv: string }>(core, 'shift.exportCsv', { id: z.report.id });
    expect(csv.fileName).toMatch(new RegExp(`^z-report-${z.report.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const lines = csv.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('section,item,count,amount_naira,in_card_total');
    expect(lines).toContain('orders,paid,2,5500.00,added');
    expect(lines).toContain('orders,failed,1,3500.00,');
    expect(lines).toContain('shift,opening_float,,5000.00,');
    expect(lines).toContain(`open_order,${open.outOrderNo} (Waiting for payment),1,2000.00,`);
    expect(lines).toContain(
      'sweep,"At closing, asked the provider again about 2 closed orders: no payment newly found.",0,,',
    );
    expect(lines).toContain('orders,paid_after_closing,0,0.00,added');

    // The next shift starts from nothing; the receipt of an order sold in the first names its cashier.
    await call(core, 'shift.open', { cashier: 'Tunde Bakare', openingFloat: '' });
    const next = await call<ShiftReportView>(core, 'shift.report', {});
    expect(next.report.totals.paid.count).toBe(0);
    expect(
      (await call<{ receipt: { cashier: string } }>(core, 'receipts.preview', { orderId: paid1.id })).receipt.cashier,
    ).toBe('Ngozi Eze');
  });

  it('the drawer: a drop above what it holds is refused with the amount, a drop kept with who and when, the close asks for the count and the Z shows over/short', async () => {
    const { core } = await each.boot();
    await call(core, 'shift.open', { cashier: 'Ngozi Eze', openingFloat: '5,000' });
    await sell(core, 'SUCCESS'); // by card: not in the drawer

    // Too much, not naira, nothing: each refused on its field, saying what to fix; nothing kept.
    expect((await callError(core, 'shift.drop', { amount: '6,000' })).details?.fields).toEqual({
      amount: 'The drawer should hold ₦5,000.00: take at most that to the safe',
    });
    expect((await callError(core, 'shift.drop', { amount: 'two thousand' })).details?.fields).toEqual({
      amount: expect.stringMatching(/^Enter the amount taken to the safe in naira/),
    });
    expect((await callError(core, 'shift.drop', { amount: ' ' })).details?.fields).toEqual({
      amount: 'Enter the amount taken to the safe',
    });
    const x = await call<ShiftReportView>(core, 'shift.drop', { amount: '2,000', note: 'Safe bag 14' });
    expect(x.report.kind).toBe('X');
    expect(x.report.totals.drawer).toMatchObject({
      floatKobo: 500_000,
      cashTaken: { count: 0, amountKobo: 0 },
      drops: { count: 1, amountKobo: 200_000 },
      expectedKobo: 300_000,
      countedKobo: null,
      overShortKobo: null,
      dropItems: [{ amountKobo: 200_000, by: 'Ngozi Eze', at: expect.any(Number), note: 'Safe bag 14' }],
    });
    // What is left after the drop is the most the next can take.
    expect((await callError(core, 'shift.drop', { amount: '3,000.01' })).details?.fields).toEqual({
      amount: 'The drawer should hold ₦3,000.00: take at most that to the safe',
    });

    // Closing without the count: refused before anything, on the field, with what is expected; the shift stays open.
    const uncounted = await callError(core, 'shift.close', {});
    expect(uncounted.code).toBe('VALIDATION');
    expect(uncounted.details?.fields).toEqual({
      counted: 'Count the cash in the drawer and enter it (₦3,000.00 expected)',
    });
    expect((await callError(core, 'shift.close', { counted: 'lots' })).details?.fields).toEqual({
      counted: expect.stringMatching(/^Enter the cash counted in the drawer in naira/),
    });
    expect((await call<{ shift: ShiftView | null }>(core, 'shift.current', {})).shift).not.toBeNull();

    const z = await call<ShiftReportView>(core, 'shift.close', { counted: '2,500' });
    expect(z.report.totals.drawer).toMatchObject({
      expectedKobo: 300_000,
      countedKobo: 250_000,
      overShortKobo: -50_000,
      count: { by: 'Ngozi Eze', at: z.report.shift.closedAt },
    });
    expect(z.report.totals.tenders).toMatchObject({ card: { count: 1, amountKobo: 350_000 }, cash: { count: 0 } });
    expect(z.report.totals.salesTotal).toEqual({ count: 1, amountKobo: 350_000 });
    // Kept: read back the same.
    expect((await call<ShiftReportView>(core, 'shift.report', { id: z.report.id })).report).toEqual(z.report);
    expect(z.html).toContain('short by ₦500.00');

    const csv = (await call<{ csv: string }>(core, 'shift.exportCsv', { id: z.report.id })).csv.split('\r\n');
    expect(csv).toEqual(
      expect.arrayContaining([
        'orders,sales_total,1,3500.00,',
        'tenders,card,1,3500.00,',
        'tenders,cash,0,0.00,',
        'tenders,taken_by_card,1,3500.00,',
        'drawer,float,,5000.00,',
        'drawer,drops,1,2000.00,',
        'drawer,expected,,3000.00,',
        'drawer,counted,,2500.00,',
        'drawer,over_short,,-500.00,',
        expect.stringMatching(/^drawer_drop,\d{4}-\d{2}-\d{2} \d{2}:\d{2} by Ngozi Eze: Safe bag 14,1,2000.00,$/),
        'tickets,2026-11-21 19:30 Lagos Nights (2D) | Ticket,2,3000.00,',
        'ticket_booking_fees,2026-11-21 19:30 Lagos Nights (2D) | Ticket,2,500.00,',
      ]),
    );
  });

  it('baskets through the counter (cash, split, a split whose card failed): the X and Z show their tenders, lines and drawer', async () => {
    const { core } = await each.boot();
    await call(core, 'shift.open', { cashier: 'Amaka', openingFloat: '1,000' });
    // Cash: a popcorn combo with a Fanta and 2 water, ₦3,800 for ₦5,000 handed over: paid at once.
    const cash = await call<OrderView>(core, 'sale.sellBasket', {
      concessions: [
        { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
        { code: 'WATER', quantity: 2 },
      ],
      tender: { kind: 'cash', tenderedKobo: 500_000 },
    });
    expect(cash).toMatchObject({ state: 'paid', amountKobo: 0 });
    // Split: popcorn large and nachos, ₦4,500: ₦1,500 cash, ₦3,000 on the terminal, paid.
    const split = await call<OrderView>(core, 'sale.sellBasket', {
      concessions: [
        { code: 'POPL', quantity: 1 },
        { code: 'NACHO', quantity: 1 },
      ],
      tender: { kind: 'split', cashKobo: 150_000 },
      sn: SALE.sn,
    });
    await orderIn(core, split.id, 'waiting');
    const splitPaid = orderIn(core, split.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await splitPaid;
    // Split whose card is declined after ₦500 cash: to hand back.
    const failed = await call<OrderView>(core, 'sale.sellBasket', {
      concessions: [{ code: 'POPS', quantity: 1 }],
      tender: { kind: 'split', cashKobo: 50_000 },
      sn: SALE.sn,
    });
    await orderIn(core, failed.id, 'waiting');
    const declined = orderIn(core, failed.id, 'failed');
    await call(core, 'demo.present', { outcome: 'FAIL' });
    await declined;

    const x = (await call<ShiftReportView>(core, 'shift.report', {})).report.totals;
    expect(x.card).toEqual({ count: 1, amountKobo: 300_000 });
    expect(x.salesTotal).toEqual({ count: 2, amountKobo: 380_000 + 450_000 });
    expect(x.tenders).toMatchObject({
      card: { count: 0, amountKobo: 0 },
      cash: { count: 1, amountKobo: 380_000 },
      split: { count: 1, cashKobo: 150_000, cardKobo: 300_000 },
      cardTaken: { count: 1, amountKobo: 300_000 },
      cashTaken: { count: 2, amountKobo: 530_000 },
      toHandBack: { count: 1, amountKobo: 50_000, items: [{ ref: failed.outOrderNo, amountKobo: 50_000 }] },
    });
    expect(x.concessions?.categories).toEqual([
      { category: 'Combos', quantity: 1, amountKobo: 300_000 },
      { category: 'Drinks', quantity: 2, amountKobo: 80_000 },
      { category: 'Popcorn', quantity: 1, amountKobo: 250_000 },
      { category: 'Snacks', quantity: 1, amountKobo: 200_000 },
    ]);
    expect(x.drawer).toMatchObject({ floatKobo: 100_000, expectedKobo: 630_000 });

    expect((await callError(core, 'shift.drop', { amount: '7,000' })).details?.fields).toEqual({
      amount: 'The drawer should hold ₦6,300.00: take at most that to the safe',
    });
    await call(core, 'shift.drop', { amount: '5,000' });
    const z = await call<ShiftReportView>(core, 'shift.close', { counted: '1,300' });
    expect(z.report.totals.drawer).toMatchObject({
      drops: { count: 1, amountKobo: 500_000 },
      expectedKobo: 130_000,
      countedKobo: 130_000,
      overShortKobo: 0,
    });
    expect(z.html).toContain('the drawer is right');
    expect(z.html).toContain(`Sale ${failed.outOrderNo}: the card failed. Hand back ₦500.00 cash`);
  });

  it('a shift with no float and no cash closes without a count', async () => {
    const { core } = await each.boot();
    await call(core, 'shift.open', { cashier: 'Tunde', openingFloat: '' });
    await sell(core, 'SUCCESS');
    const z = await call<ShiftReportView>(core, 'shift.close', {});
    expect(z.report.totals.drawer).toMatchObject({ floatKobo: 0, expectedKobo: 0, countedKobo: null });
  });

  it('finds orders by number, film, seat and amount, filters by state and day, and pages newest first', async () => {
    const { core } = await each.boot();
    const a = await sell(core, 'SUCCESS');
    const b = await sell(core, 'FAIL', {
      filmName: 'DUNE-3',
      filmTitle: 'Dune: Part Three',
      seats: 'G12',
      tickets: 1,
      priceKobo: 300_000,
      bookingFeeKobo: 15_000,
    });
    const c = await sell(core, 'SUCCESS', { seats: 'H1,H2', bookingFeeKobo: 0 });
    const search = (args: Record<string, unknown>) => call<OrderPage>(core, 'orders.search', args);
    const ids = (p: OrderPage) => p.rows.map((r) => r.id);

    expect(await search({})).toMatchObject({ total: 3, paid: { count: 2, amountKobo: 350_000 + 300_000 } });
    expect(ids(await search({}))).toEqual([c.id, b.id, a.id]);
    expect(ids(await search({ text: a.outOrderNo.slice(-4) }))).toEqual([a.id]);
    expect(ids(await search({ text: a.outOrderNo.toLowerCase() }))).toEqual([a.id]);
    expect(ids(await search({ text: a.orderNo! }))).toEqual([a.id]);
    expect(ids(await search({ text: a.payNo! }))).toEqual([a.id]);
    // The card's last four digits (the provider's masked account), as the customer reads them off their bank alert.
    const four = a.senderAccount!.replace(/\D/g, '').slice(-4);
    expect(four).toMatch(/^\d{4}$/);
    expect(ids(await search({ text: four }))).toContain(a.id);
    expect(ids(await search({ text: four, states: ['paid'] })).every((id) => [a.id, c.id].includes(id))).toBe(true);
    expect(await search({ paidAfterClosing: true })).toMatchObject({ total: 0 });
    expect(ids(await search({ text: 'dune' }))).toEqual([b.id]);
    expect(ids(await search({ text: 'g12' }))).toEqual([b.id]);
    expect(ids(await search({ text: 'G1' }))).toEqual([]); // a seat matches whole, not G12
    expect(ids(await search({ text: '₦3,150' }))).toEqual([b.id]);
    expect(ids(await search({ text: '3500' }))).toEqual([a.id]);
    expect(ids(await search({ text: 'lagos h2' }))).toEqual([c.id]);
    expect(ids(await search({ states: ['failed'] }))).toEqual([b.id]);
    expect(ids(await search({ states: ['paid'], text: 'nights' }))).toEqual([c.id, a.id]);

    const today = lagosDate(Date.now());
    expect((await search({ from: today, to: today })).total).toBe(3);
    expect((await search({ to: '2020-01-01' })).total).toBe(0);
    expect((await callError(core, 'orders.search', { from: '2026-02-02', to: '2026-02-01' })).details?.fields).toEqual({
      to: 'The end date is before the start date',
    });

    const p1 = await search({ limit: 2 });
    expect(p1).toMatchObject({ total: 3, next: expect.any(String) });
    expect(ids(p1)).toEqual([c.id, b.id]);
    const p2 = await search({ limit: 2, cursor: p1.next });
    expect(ids(p2)).toEqual([a.id]);
    expect(p2.next).toBeNull();
  });
});

describe('sales with no shift open', () => {
  it("a sale made with no shift (an older version, a restored journal) is named in the next Z report, on paper and in the Hub's copy", async () => {
    const { core, dir } = await each.boot();
    // Every door refuses it now, the engine's own sale too (charge-doors.test.ts) ...
    expect((await callError(core, 'sale.charge', SALE)).code).toBe('NO_SHIFT');
    await expect(core.checkout.sell({ ...SALE, seats: 'H1', tickets: 1, bookingFeeKobo: 0 })).rejects.toMatchObject({
      code: 'NO_SHIFT',
    });
    // ... so the order an older version (no shift rule) would have recorded is written to the journal file as it did.
    const older = openJournalDb(journalPath(dir));
    const early = new OrderJournal(older, () => Date.now()).insert({
      sale: { ...SALE, seats: 'H1', tickets: 1, bookingFeeKobo: 0 },
      amountKobo: 150_000,
      counterCode: 'COU1',
      businessDay: lagosDayCode(Date.now()),
      createdAt: Date.now(),
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      profile: 'unrecorded',
      note: 'Sold by an older version',
    });
    older.close();
    const shift = await call<ShiftView>(core, 'shift.open', { cashier: 'Ngozi Eze', openingFloat: '' });
    expect(shift.openedAt).toBeGreaterThanOrEqual(early.createdAt);
    const x = await call<ShiftReportView>(core, 'shift.report', {});
    expect(x.report.totals.noShift).toEqual({ count: 1, amountKobo: 150_000 });
    expect(x.report.totals.paid.count).toBe(0);

    const z = await call<ShiftReportView>(core, 'shift.close', { acceptOpen: true });
    expect(z.report.totals.noShift).toEqual({ count: 1, amountKobo: 150_000 });
    expect(z.html).toContain('SOLD WITH NO SHIFT OPEN');
    expect(zReportEvent({ ...z.report, id: z.report.id as number }).lines).toContainEqual({
      label: 'Sold with no shift open (not in any total)',
      kobo: 150_000,
      count: 1,
    });

    // Reported once: the next shift starts after this one closed, so the same sale is not named again.
    await call<ShiftView>(core, 'shift.open', { cashier: 'Tunde', openingFloat: '' });
    expect((await call<ShiftReportView>(core, 'shift.report', {})).report.totals.noShift).toEqual({
      count: 0,
      amountKobo: 0,
    });
  });
});
