// A basket sold through the composed core in the Demo profile (sale.sellBasket, the Demo catalogue)
// prints its receipt and its pickup slip by itself on a loopback network printer: a cash sale at
// once (it never reaches the provider), a card sale once the Demo terminal paid it. The slip prints
// again with receipts.printPickup, marked REPRINT.
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import type { PrintJobView, ReceiptPreview } from '../../../shared/records';
import type { Core } from '../../../core/app-core';
import { ensureShift } from '../../helpers/ensure-shift';
import { escposText, type LoopbackPrinter } from '../../helpers/loopback-printer';
import { call, callError, orderIn, perTest, sell } from './records-harness';

const each = perTest();

async function ready(): Promise<{ core: Core; printer: LoopbackPrinter }> {
  const { core } = await each.boot();
  const printer = await each.printer();
  await call(core, 'settings.setPin', { newPin: '2468' });
  await call(core, 'receipts.saveSettings', {
    printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80', autoPrint: true },
    cinema: { name: 'Filmhouse Lekki' },
  });
  await ensureShift((n, a) => call(core, n, a));
  return { core, printer };
}

const jobsOf = (core: Core, orderId: number) => call<PrintJobView[]>(core, 'receipts.jobs', { orderId });

describe('a basket’s receipt and pickup slip through the core', () => {
  it('a cash sale: paid at once, its receipt (change, no terminal or provider fields) and its slip print by themselves', async () => {
    const { core, printer } = await ready();
    const order = await call<OrderView>(core, 'sale.sellBasket', {
      concessions: [
        { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
        { code: 'WATER', quantity: 2 },
      ],
      tender: { kind: 'cash', tenderedKobo: 500_000 },
    });
    expect(order.state).toBe('paid');
    const receipt = escposText(await printer.job(0));
    const slip = escposText(await printer.job(1));
    expect(receipt).toEqual(
      expect.arrayContaining([
        `1 x Popcorn combo N3,000.00${' '.repeat(12)}N3,000.00`,
        '  Drink: Fanta 50cl',
        `TOTAL PAID${' '.repeat(29)}N3,800.00`,
        `CHANGE${' '.repeat(33)}N1,200.00`,
      ]),
    );
    expect(receipt.join('\n')).not.toMatch(/Terminal|Provider order no\.|Payment no\.|Card \/ account/);
    const no = order.outOrderNo.slice(-3);
    expect(slip).toEqual(expect.arrayContaining(['PICKUP SLIP', `No. ${no}`, '1 x Popcorn combo', '2 x Water 75cl']));

    const again = await call<PrintJobView>(core, 'receipts.printPickup', { orderId: order.id });
    expect(again).toMatchObject({ kind: 'pickup-slip', status: 'printed', reprint: true });
    expect(escposText(await printer.job(2))).toContain(' REPRINT ');
    expect((await jobsOf(core, order.id)).map((j) => [j.kind, j.reprint])).toEqual([
      ['pickup-slip', true],
      ['pickup-slip', false],
      ['receipt', false],
    ]);
    const preview = await call<ReceiptPreview>(core, 'receipts.preview', { orderId: order.id });
    expect(preview.pickupHtml).toContain(`No. ${no}`);
  });

  it('a card sale with concessions prints both once the terminal paid it; a ticket-only sale has no slip to print', async () => {
    const { core, printer } = await ready();
    const order = await call<OrderView>(core, 'sale.sellBasket', {
      concessions: [{ code: 'NACHO', quantity: 1 }],
      tender: { kind: 'card' },
      sn: 'DEMO-POS-0001',
    });
    await orderIn(core, order.id, 'waiting');
    const paid = orderIn(core, order.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    expect(escposText(await printer.job(0))).toEqual(
      expect.arrayContaining(['Receipt', `Card${' '.repeat(35)}N2,000.00`, `Terminal${' '.repeat(27)}DEMO-POS-0001`]),
    );
    expect(escposText(await printer.job(1))).toContain('1 x Nachos with cheese');

    const tickets = await sell(core, 'SUCCESS');
    await printer.job(2);
    const err = await callError(core, 'receipts.printPickup', { orderId: tickets.id });
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'This sale has no concessions: it has no pickup slip.' });
    expect((await jobsOf(core, tickets.id)).map((j) => j.kind)).toEqual(['receipt']);
  });
});
