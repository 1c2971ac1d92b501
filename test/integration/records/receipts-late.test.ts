// A sale the provider paid after the counter closed it is a paid sale: its receipt, through the
// composed core in the Demo profile (the embedded provider sandbox over loopback HTTP, a loopback
// network printer), is a ticket receipt marked "Paid after closing" with the late payment's number
// and time — never the "Payment slip … NOT PAID" printed while it was closed — and the slip printed
// before does not make the first paid receipt a REPRINT.
import { describe, expect, it } from 'vitest';
import { lateAt, type SweepResult } from '../../../shared/late-payments';
import type { OrderView } from '../../../shared/orders';
import type { PrintJobView, ReceiptPreview, RecordsSettingsView } from '../../../shared/records';
import { formatLagosDateTime } from '../../../shared/time';
import { escposText } from '../../helpers/loopback-printer';
import { call, perTest, sell } from './records-harness';

const each = perTest();

describe('the receipt of a sale paid after closing', () => {
  it('is a paid ticket receipt marked Paid after closing, with the late payment number and time', async () => {
    const { core } = await each.boot();
    const printer = await each.printer();
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call<RecordsSettingsView>(core, 'receipts.saveSettings', {
      printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80', autoPrint: true },
      cinema: { name: 'Filmhouse Lekki', branch: 'Admiralty Way' },
    });
    const order = await sell(core, 'CANCEL');
    expect(order.state).toBe('cancelled');

    // While it is closed, its printout is a slip that says NOT PAID.
    const slip = await call<PrintJobView>(core, 'receipts.print', { orderId: order.id });
    expect(slip.status).toBe('printed');
    const slipText = escposText(await printer.job(0)).join('\n');
    expect(slipText).toContain('Payment slip (not a ticket)');
    expect(slipText).toContain('NOT PAID');

    // The provider takes the money after all; the counter learns it by asking (the sweep).
    const profile = await call<{ settings: { posBaseUrl: string } }>(core, 'settings.getProfile', { profile: 'demo' });
    const late = await fetch(`${profile.settings.posBaseUrl}/_sandbox/orders/${order.orderNo}/late`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'SUCCESS', cardPan: '5399831234564321' }),
    });
    expect(late.status).toBe(200);
    const taken = ((await late.json()) as { data: { payNo: string } }).data;
    expect((await call<SweepResult>(core, 'orders.sweep', {})).paidAfterClosing).toBe(1);
    const view = await call<OrderView>(core, 'orders.get', { id: order.id });
    expect(view).toMatchObject({ state: 'cancelled', late: { kind: 'paid-after-closing', payNo: taken.payNo } });
    const at = lateAt(view.late!);

    const preview = await call<ReceiptPreview>(core, 'receipts.preview', { orderId: order.id });
    expect(preview.receipt).toMatchObject({
      state: 'cancelled',
      payNo: taken.payNo,
      reprint: false,
      paidAfterClosing: { at, payNo: taken.payNo, closedAs: 'cancelled' },
    });
    expect(preview.receipt.senderAccount).toMatch(/4321$/);
    for (const text of ['Ticket receipt', 'Paid after closing', 'TOTAL PAID', taken.payNo, formatLagosDateTime(at)])
      expect(preview.html).toContain(text);
    for (const text of ['NOT PAID', 'Payment slip', 'Card used at', 'REPRINT'])
      expect(preview.html).not.toContain(text);

    // On paper: the first paid receipt is not a REPRINT of the slip; a second copy is.
    const first = await call<PrintJobView>(core, 'receipts.print', { orderId: order.id });
    expect(first).toMatchObject({ status: 'printed', reprint: false });
    const paper = escposText(await printer.job(1));
    const lines = paper.join('\n');
    expect(lines).toContain('Ticket receipt');
    expect(lines).toContain('Paid after closing');
    expect(lines).not.toContain('NOT PAID');
    expect(lines).not.toContain('REPRINT');
    expect(paper.some((l) => l.startsWith('Payment') && l.trimEnd().endsWith('PAID'))).toBe(true);
    expect(paper.some((l) => l.startsWith('Payment no.') && l.includes(taken.payNo))).toBe(true);
    expect(paper.some((l) => l.startsWith('Paid at') && l.includes(formatLagosDateTime(at)))).toBe(true);
    expect(await call<PrintJobView>(core, 'receipts.print', { orderId: order.id })).toMatchObject({
      status: 'printed',
      reprint: true,
    });
    expect(escposText(await printer.job(2))).toContain(' REPRINT ');
    // It never printed by itself: the cashier prints it if the customer is still there.
    expect(printer.jobs).toHaveLength(3);
  });
});
