// Profiles do not leak, through the composed core: a Demo sale is recorded as Demo (order, receipt,
// its print job, the PDF's page); a real shift open while it was sold does not count it, a Demo
// shift does; in a real profile the search leaves it out until asked for Demo sales.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import type { OrderPage, PrintJobView, ShiftReportView, ShiftView } from '../../../shared/records';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { openJournalDb } from '../../../core/schema';
import { memoryLogger } from '../../../shared/logger';
import type { SystemPrinter } from '../../../core/records/printing/system-printer';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { call, sell } from './records-harness';

const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

/** The profile column of a print job, read from the database file itself. */
async function jobProfile(dir: string, id: number): Promise<string> {
  const db = openJournalDb(join(dir, 'counterpay.db'));
  try {
    return (db.prepare('SELECT profile FROM print_jobs WHERE id = ?').get(id) as { profile: string }).profile;
  } finally {
    db.close();
  }
}

/** A system printer that keeps the pages it is given (the PDF is made from the same HTML). */
function keepingPrinter(pages: string[]): SystemPrinter {
  return {
    available: true,
    note: '',
    listPrinters: async () => [],
    print: async (job) => {
      pages.push(job.html);
    },
    toPdf: async (job) => {
      pages.push(job.html);
      return new TextEncoder().encode('%PDF-1.4\n');
    },
  };
}

describe('profiles do not leak into each other', () => {
  it('a Demo sale is Demo everywhere, counts in a Demo shift and in no real one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-profiles-'));
    const pages: string[] = [];
    const core = await createCore({
      shell: 'browser',
      version: 't',
      dataDir: dir,
      store: confStore(dir),
      vault: fileVault(join(dir, 'secrets.json')),
      logger: memoryLogger(),
      clock: systemClock,
      systemPrinter: keepingPrinter(pages),
    });
    cores.push(core);

    // A real shift is open (opened under Sandbox) when the counter switches to Demo to train.
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'settings.setActiveProfile', { profile: 'sandbox' });
    const realShift = await call<ShiftView>(core, 'shift.open', { cashier: 'Tunde Bakare', openingFloat: '' });
    expect(realShift.profile).toBe('sandbox');
    await call(core, 'settings.setActiveProfile', { profile: 'demo' });
    const paid = await sell(core, 'SUCCESS');
    expect(paid.profile).toBe('demo');
    expect((await call<OrderView>(core, 'orders.get', { id: paid.id })).profile).toBe('demo');

    // The receipt says so, and the PDF's page too; its print job is recorded under Demo.
    const preview = await call<{ html: string; receipt: { demo: boolean } }>(core, 'receipts.preview', {
      orderId: paid.id,
    });
    expect(preview.receipt.demo).toBe(true);
    expect(preview.html.match(/DEMO — NOT A PAYMENT/g)).toHaveLength(2);
    await call<{ path: string }>(core, 'receipts.savePdf', { orderId: paid.id });
    expect(pages.at(-1)).toContain('<p class="rp-banner" role="alert">DEMO — NOT A PAYMENT</p>');
    const job = await call<PrintJobView>(core, 'receipts.browserPrinted', { orderId: paid.id });
    expect(job.kind).toBe('receipt');
    expect(await jobProfile(dir, job.id)).toBe('demo');

    // The real shift does not count the Demo sale made while it was open.
    const x = await call<ShiftReportView>(core, 'shift.report', {});
    expect(x.report.totals.paid).toEqual({ count: 0, amountKobo: 0 });
    expect(x.report.totals.openItems).toEqual([]);
    await call(core, 'shift.close', { acceptOpen: false });

    // A Demo shift (training) counts its Demo sales; in the Demo profile the search shows them.
    const demoShift = await call<ShiftView>(core, 'shift.open', { cashier: 'Ngozi Eze', openingFloat: '' });
    expect(demoShift.profile).toBe('demo');
    const again = await sell(core, 'SUCCESS', { seats: 'H1,H2' });
    const demoX = await call<ShiftReportView>(core, 'shift.report', {});
    expect(demoX.report.totals.paid).toEqual({ count: 1, amountKobo: again.amountKobo });
    expect(demoX.html).toContain('<p class="rp-banner" role="alert">DEMO SHIFT — NOT REAL MONEY</p>');
    expect(x.html).not.toContain('rp-banner');
    expect((await call<OrderPage>(core, 'orders.search', {})).total).toBe(2);

    // In a real profile the search leaves Demo sales out unless asked for them.
    await call(core, 'settings.setActiveProfile', { profile: 'sandbox' });
    expect((await call<OrderPage>(core, 'orders.search', {})).total).toBe(0);
    expect((await call<OrderPage>(core, 'orders.search', { text: paid.outOrderNo })).total).toBe(0);
    const withDemo = await call<OrderPage>(core, 'orders.search', { includeDemo: true });
    expect(withDemo.rows.map((r) => [r.id, r.profile])).toEqual([
      [again.id, 'demo'],
      [paid.id, 'demo'],
    ]);
  });
});
