// Receipts through the composed core: printed by themselves when paid to a loopback network
// printer, reprinted with the REPRINT mark, kept and retried when the printer is off, and left to
// the browser's print in the browser shell.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PrintJobView, ReceiptPreview, RecordsSettingsView } from '../../../shared/records';
import type { Core } from '../../../core/app-core';
import { escposText, type LoopbackPrinter } from '../../helpers/loopback-printer';
import { call, callError, jobIn, perTest, sell } from './records-harness';

const each = perTest();
const start = each.boot;
let printer: LoopbackPrinter | null = null;

async function usePrinter(core: Core, p: LoopbackPrinter, extra: Record<string, unknown> = {}) {
  await call(core, 'settings.setPin', { newPin: '2468' });
  return call<RecordsSettingsView>(core, 'receipts.saveSettings', {
    printing: { kind: 'network', host: p.host, port: p.port, paper: '58', ...extra },
    cinema: { name: 'Filmhouse Lekki', branch: 'Admiralty Way' },
  });
}

describe('receipts in the Demo profile', () => {
  it('prints itself when paid, with the shift’s cashier; a reprint says REPRINT; a failed print is kept and retried', async () => {
    const { core } = await start();
    printer = await each.printer();
    await usePrinter(core, printer, { autoPrint: true });
    await call(core, 'shift.open', { cashier: 'Ngozi Eze', openingFloat: '' });

    const order = await sell(core, 'SUCCESS');
    const first = escposText(await printer.job(0));
    expect(first).toContain('Filmhouse Lekki');
    expect(first.join('\n')).toContain(order.outOrderNo);
    expect(first.join('\n')).toContain(order.payNo!);
    expect(first.some((l) => l.startsWith('Cashier') && l.endsWith('Ngozi Eze'))).toBe(true);
    expect(first.some((l) => l.includes('REPRINT'))).toBe(false);
    const jobs = await call<PrintJobView[]>(core, 'receipts.jobs', { orderId: order.id });
    expect(jobs).toMatchObject([
      { status: 'printed', reprint: false, attempts: 1, target: `Network printer 127.0.0.1:${printer.port}` },
    ]);

    const again = await call<PrintJobView>(core, 'receipts.print', { orderId: order.id });
    expect(again).toMatchObject({ status: 'printed', reprint: true });
    expect(escposText(await printer.job(1))).toContain(' REPRINT ');

    // The printer is switched off: the job fails, is kept, and says what to do.
    await printer.stop();
    const failedEvent = jobIn(core, (j) => j.status === 'failed');
    const failed = await call<PrintJobView>(core, 'receipts.print', { orderId: order.id });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/refused the connection/);
    expect((await failedEvent).id).toBe(failed.id);
    expect((await call<PrintJobView[]>(core, 'receipts.failedJobs', {})).map((j) => j.id)).toContain(failed.id);

    // Back on: Retry prints the same job.
    await printer.start();
    const retried = await call<PrintJobView>(core, 'receipts.retry', { id: failed.id });
    expect(retried).toMatchObject({ id: failed.id, status: 'printed', attempts: 2, error: null });
    expect(escposText(await printer.job(2))).toContain(' REPRINT ');
    expect(await call<PrintJobView[]>(core, 'receipts.failedJobs', {})).toEqual([]);
    expect((await callError(core, 'receipts.retry', { id: failed.id })).code).toBe('CONFLICT');

    const preview = await call<ReceiptPreview>(core, 'receipts.preview', { orderId: order.id });
    expect(preview.paper).toBe('58');
    expect(preview.receipt).toMatchObject({
      outOrderNo: order.outOrderNo,
      cashier: 'Ngozi Eze',
      reprint: true,
      cinemaName: 'Filmhouse Lekki',
    });
    expect(preview.html).toContain('REPRINT');
  });

  it('does not print by itself unless asked to, and never for an order without an outcome', async () => {
    const { core } = await start();
    printer = await each.printer();
    await usePrinter(core, printer, { autoPrint: false });
    const paid = await sell(core, 'SUCCESS');
    const waiting = await sell(core, null);
    expect(await call<PrintJobView[]>(core, 'receipts.jobs', { orderId: paid.id })).toEqual([]);
    expect((await callError(core, 'receipts.print', { orderId: waiting.id })).code).toBe('CONFLICT');
    expect((await callError(core, 'receipts.preview', { orderId: 999 })).code).toBe('NOT_FOUND');
    expect(printer.jobs).toHaveLength(0);
  });

  it('in the browser shell a system printer means the browser’s print: explained, and recorded when done', async () => {
    const { core } = await start();
    const order = await sell(core, 'SUCCESS');
    const settings = await call<RecordsSettingsView>(core, 'receipts.settings', {});
    expect(settings.printing.kind).toBe('system');
    expect(settings.systemPrinting.available).toBe(false);
    const err = await callError(core, 'receipts.print', { orderId: order.id });
    expect(err.code).toBe('PRINTER_FAILED');
    expect(err.message).toMatch(/browser’s own print window/);
    expect((await callError(core, 'receipts.savePdf', { orderId: order.id })).message).toMatch(/Save as PDF/);
    const job = await call<PrintJobView>(core, 'receipts.browserPrinted', { orderId: order.id });
    expect(job).toMatchObject({ status: 'printed', target: 'The browser’s print window', reprint: false });
    expect((await call<ReceiptPreview>(core, 'receipts.preview', { orderId: order.id })).receipt.reprint).toBe(true);
    expect(await call(core, 'receipts.systemPrinters', {})).toEqual([]);
  });

  it('printer settings need the admin PIN, and are checked field by field', async () => {
    const { core } = await start();
    expect(
      (await callError(core, 'receipts.saveSettings', { printing: { kind: 'network', host: '10.0.0.5' } })).code,
    ).toBe('PIN_NOT_SET');
    await call(core, 'settings.setPin', { newPin: '2468' });
    const bad = await callError(core, 'receipts.saveSettings', { printing: { kind: 'network', host: '', copies: 0 } });
    expect(bad.code).toBe('VALIDATION');
    expect(Object.keys(bad.details?.fields as object).sort()).toEqual(['printing.copies', 'printing.host']);
  });

  it('a test page goes to the chosen printer; after a restart, a job caught mid-print is failed, not resent', async () => {
    const { core, dir } = await start();
    printer = await each.printer();
    await usePrinter(core, printer);
    const job = await call<PrintJobView>(core, 'receipts.testPage', {});
    expect(job).toMatchObject({ kind: 'test-page', status: 'printed' });
    expect(escposText(await printer.job(0))).toContain('PRINTER TEST PAGE');
    await each.stopCore();

    const db = new Database(join(dir, 'counterpay.db'));
    db.prepare("UPDATE print_jobs SET status = 'printing' WHERE id = ?").run(job.id);
    db.close();
    const { core: again } = await start(dir);
    const failed = await call<PrintJobView[]>(again, 'receipts.failedJobs', {});
    expect(failed).toMatchObject([{ id: job.id, status: 'failed', errorCode: 'INTERRUPTED' }]);
    expect(failed[0]!.error).toMatch(/Check what came out of the printer/);
    expect(printer.jobs).toHaveLength(1);
  });
});
