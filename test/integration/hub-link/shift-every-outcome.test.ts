// One shift with every outcome, through the real sandbox and a real Hub (PGlite): paid, paid from
// an earlier shift, paid after closing (found by the reconciliation sweep), failed, cancelled,
// expired, still open, and top-ups that succeed and fail. The X and Z figures, the printed card
// total, the CSV, the outbox's shift.closed and zreport payloads and the Hub's copy all agree, to
// the kobo. A cancelled, failed or open amount in the takings, or a payment after closing left out
// of them, fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { readJournal } from '../../../hub/store/journal';
import { OrderJournalReads, createLateSweep } from '../../../core/orders';
import { createPosClient } from '../../../core/provider';
import { shiftTotals } from '../../../core/records/shifts/shift-totals';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { shiftReportDoc } from '../../../core/records/shifts/shift-report-doc';
import { shiftReportCsv } from '../../../core/records/shifts/shift-csv';
import { escposOf } from '../../../core/records/printing/escpos';
import { TopupJournalReads } from '../../../core/topups';
import { systemTimers } from '../../../core/lib';
import { memoryLogger } from '../../../shared/logger';
import type { ShiftReport } from '../../../shared/records';
import type { OrderState } from '../../../shared/orders';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { linkCounter, stopHubNow, type LinkedCounter } from '../../helpers/hub-link';
import { inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';
import { SALE_INPUT } from '../../helpers/orders-db';
import { escposText } from '../../helpers/loopback-printer';

let sb: OrdersSandbox;
let dir: string;
let db: HubDb;
let hub: TestHub;
let counter: LinkedCounter;
let expire = 300;

beforeAll(async () => {
  sb = await startOrdersSandbox();
  dir = mkdtempSync(join(tmpdir(), 'counterpay-every-outcome-'));
  db = await openHubDb({ databaseUrl: null, dataDir: null });
  hub = await startTestHub({ db });
  const enrollment = await enroll(hub, 'Counter 3', sb.merchant.merchantId);
  counter = linkCounter({
    file: join(dir, 'counter.sqlite'),
    hubUrl: hub.url,
    enrollment,
    sandbox: sb,
    counterName: 'Every Lane',
    expireSeconds: () => expire,
  });
});
afterAll(async () => {
  await counter?.close();
  if (hub) await stopHubNow(hub);
  await db?.close();
  await sb?.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One ticket at `naira`, no booking fee; played on the terminal (or left waiting, or left to expire). */
async function sale(naira: number, outcome: 'SUCCESS' | 'FAIL' | 'CANCEL' | 'EXPIRE' | null) {
  const checkout = counter.checkout!;
  expire = outcome === 'EXPIRE' ? 1 : 300;
  const v = await checkout.sell({
    ...SALE_INPUT,
    seats: 'A1',
    tickets: 1,
    priceKobo: naira * 100,
    bookingFeeKobo: 0,
    sn: sb.merchant.terminalSn,
  });
  await inState(checkout, v.id, 'waiting');
  if (outcome === null) return checkout.get(v.id)!;
  const to: OrderState =
    outcome === 'SUCCESS' ? 'paid' : outcome === 'FAIL' ? 'failed' : outcome === 'CANCEL' ? 'cancelled' : 'expired';
  if (outcome !== 'EXPIRE') sb.sandbox.present(sb.merchant.terminalSn, outcome);
  return inState(checkout, v.id, to);
}

describe('a shift with every outcome', () => {
  it('X and Z figures, printed card total, CSV, outbox payloads and the Hub copy agree to the kobo', async () => {
    const checkout = counter.checkout!;
    const earlier = await sale(1_000, null); // sold before the shift, paid during it
    const shift = counter.shifts.open('Ada', 500_000, Date.now(), 'production');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(checkout, earlier.id, 'paid');
    await sale(7_100, 'SUCCESS');
    await sale(2_700, 'SUCCESS');
    await sale(3_000, 'FAIL');
    await sale(4_000, 'CANCEL');
    await sale(5_000, 'EXPIRE');
    const late = await sale(6_000, 'EXPIRE');
    // The customer was debited after the counter closed the sale: the provider takes it late, and
    // nobody tells the counter (no webhook here) — the sweep finds it.
    const taken = sb.sandbox.reportLate(late.orderNo!, 'SUCCESS');
    const sweep = createLateSweep({
      checkout,
      getPos: () => createPosClient(sb.providerConfig(), { logger: memoryLogger() }),
      now: Date.now,
      timers: systemTimers,
      logger: memoryLogger(),
      tuning: { ratePerSec: 100 },
    });
    const swept = await sweep.run();
    expect(swept).toMatchObject({ checked: 4, paidAfterClosing: 1, unknown: [], incomplete: null });
    expect(checkout.get(late.id)).toMatchObject({
      state: 'expired',
      late: { kind: 'paid-after-closing', amountKobo: 600_000, payNo: taken.payNo, source: 'sweep' },
    });
    const open = await sale(8_000, null);
    counter.db
      .transaction(() => {
        const owner = { profile: 'production' as const, billsMerchantId: 'B1' };
        const ok = counter.topups.insertSingle(
          owner,
          'C3',
          '250131',
          { serviceType: 'airtime', provider: 'MTN', customerId: '08031234567', amountKobo: 50_000 },
          'Sending',
        );
        counter.topups.move([{ id: ok.id, to: 'success', note: 'SUCCESS', patch: { orderNo: 'BO-1' } }]);
        const no = counter.topups.insertSingle(
          owner,
          'C3',
          '250131',
          { serviceType: 'airtime', provider: 'GLO', customerId: '08051234567', amountKobo: 30_000 },
          'Sending',
        );
        counter.topups.move([{ id: no.id, to: 'fail', note: 'FAIL', patch: { orderNo: 'BO-2' } }]);
      })
      .immediate();

    const totals = (to: number) =>
      shiftTotals(
        new OrderJournalReads(counter.db),
        topupTotals(new TopupJournalReads(counter.db)),
        shift.openedAt,
        to,
      );
    const x = totals(Date.now() + 1);
    expect(x).toMatchObject({
      paid: { count: 2, amountKobo: 980_000 },
      paidLate: { count: 1, amountKobo: 100_000 },
      paidAfterClosing: {
        count: 1,
        amountKobo: 600_000,
        items: [{ ref: late.outOrderNo, amountKobo: 600_000, payNo: taken.payNo, closedAs: 'expired' }],
      },
      failed: { count: 1, amountKobo: 300_000 },
      cancelled: { count: 1, amountKobo: 400_000 },
      // Each sale in the one outcome it ended in: the one paid after closing is not also expired.
      expired: { count: 1, amountKobo: 500_000 },
      open: { count: 1, amountKobo: 800_000 },
      // The tickets of every sale in the card total: 2 paid, 1 sold earlier and paid now, 1 paid after closing.
      ticketsSold: 4,
      topups: { successKobo: 50_000 },
    });
    expect(x.topups.lines.map((l) => [l.state, l.count, l.amountKobo])).toEqual([
      ['success', 1, 50_000],
      ['fail', 1, 30_000],
    ]);
    expect(x.openItems.map((i) => i.ref)).toEqual([open.outOrderNo]);

    const report = counter.shifts.close(shift.id, Date.now() + 2, (s) => ({
      kind: 'Z',
      shift: s,
      generatedAt: s.closedAt!,
      cinemaName: 'Film House',
      branch: 'Lekki',
      counterName: 'Every Lane',
      totals: { ...totals(s.closedAt!), sweep: swept },
    }));
    const z = report.totals;
    expect([z.paid, z.paidLate, z.paidAfterClosing.amountKobo, z.failed, z.cancelled, z.open]).toEqual([
      x.paid,
      x.paidLate,
      600_000,
      x.failed,
      x.cancelled,
      x.open,
    ]);

    // Printed: the card total is paid + paid from earlier shifts + paid after closing; each late payment listed.
    const printed = escposText(escposOf(shiftReportDoc(report as ShiftReport, false), '80'));
    const line = (start: string) => printed.find((l) => l.trim().startsWith(start))?.trim() ?? `(no line "${start}")`;
    expect(line('CARD TOTAL')).toMatch(/N16,800\.00$/);
    expect(line('Paid by card (card part) (2)')).toMatch(/N9,800\.00$/);
    expect(line('Paid after closing (1)')).toMatch(/N6,000\.00$/);
    expect(line('Cancelled (1)')).toMatch(/N4,000\.00$/);
    expect(printed.some((l) => l.includes(late.outOrderNo) && l.includes('N6,000.00'))).toBe(true);
    expect(printed.join(' ').replace(/\s+/g, ' ')).toContain(
      'At closing, asked the provider again about 4 closed orders: 1 newly found paid after closing (counted above).',
    );

    const csv = shiftReportCsv(report as ShiftReport)
      .csv.trimEnd()
      .split('\r\n');
    for (const l of [
      'orders,paid,2,9800.00,added',
      'orders,failed,1,3000.00,',
      'orders,cancelled,1,4000.00,',
      'orders,expired,1,5000.00,',
      'orders,not_finished,1,8000.00,',
      'orders,paid_late_from_earlier_shifts,1,1000.00,added',
      'orders,paid_after_closing,1,6000.00,added',
      'orders,card_total,4,16800.00,total',
      'topups,success,1,500.00,',
      'topups,fail,1,300.00,',
      'topups,total_not_in_card_total,1,500.00,',
    ])
      expect(csv).toContain(l);
    expect(
      csv.some(
        (l) =>
          l.startsWith(`paid_after_closing,${late.outOrderNo} (was expired; taken `) &&
          l.endsWith(`; payment ${taken.payNo}),1,6000.00,`),
      ),
    ).toBe(true);

    // The outbox: the shift's takings are the card total (top-ups apart, on their own lines), nothing else.
    const events = counter.events();
    const closed = events.find((e) => e.kind === 'shift.closed')!;
    const zr = events.find((e) => e.kind === 'zreport')!;
    expect(closed.payload).toEqual({ shiftId: String(shift.id), cashier: 'Ada', cardTotalKobo: 1_680_000 });
    expect(zr.payload).toMatchObject({ shiftId: String(shift.id), totalKobo: 1_680_000, count: 2 + 1 + 1 });
    const lines = Object.fromEntries(
      (zr.payload as { lines: { label: string; kobo: number; count: number }[] }).lines.map((l) => [
        l.label,
        [l.count, l.kobo],
      ]),
    );
    expect(lines).toMatchObject({
      'Paid by card (card part)': [2, 980_000],
      'Sold earlier, paid now': [1, 100_000],
      'Paid after closing': [1, 600_000],
      Failed: [1, 300_000],
      Cancelled: [1, 400_000],
      Expired: [1, 500_000],
      'No outcome yet': [1, 800_000],
      'Top-ups: Successful (not in card total)': [1, 50_000],
    });
    expect(events.filter((e) => e.kind === 'order.late').map((e) => e.payload)).toEqual([
      expect.objectContaining({
        reference: late.outOrderNo,
        kind: 'paid-after-closing',
        closedAs: 'expired',
        amountKobo: 600_000,
        payNo: taken.payNo,
        source: 'sweep',
      }),
    ]);

    // The Hub's copy: event for event, and its Z report with the same total.
    await counter.synced();
    expect(await readJournal(db, counter.conn.counterId)).toEqual(events);
    const hubZ = await db.query<{ total_kobo: unknown }>('select total_kobo from dash_zreports where counter_id = $1', [
      counter.conn.counterId,
    ]);
    expect(hubZ.map((r) => Number(r.total_kobo))).toEqual([1_680_000]);
  }, 60_000);
});
