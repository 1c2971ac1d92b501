// Every door to an undo after the sale (docs/refunds.md), in one table: today the cashier's Cancel
// (`refunds.cancel`) and Exchange (`refunds.exchange`). Through the composed core (Demo profile, the journal on a real SQLite file),
// a supervisor's approval cannot be skipped by any of them: no approval is refused at the schema, a
// wrong PIN is refused in the engine (and audited), nothing is written either way; the admin PIN
// lets it through. The doors are found by introspection (the calls whose handlers reach the
// checkout's undo) and must equal the table, so a new door is not missed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { calls } from '../../../shared/contract';
import type { OrderView } from '../../../shared/orders';
import type { ShiftReport } from '../../../shared/records';
import { CANCEL_INVALID, EXCHANGE_INVALID, type RefundView } from '../../../shared/refunds';
import { lagosDate, lagosHm } from '../../../shared/time';
import { handlerSources, sourcesCalling } from '../../helpers/door-introspection';

const ctx = { trusted: true, sender: 'test' };
const PIN = '2468';
const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

type Result = { ok: true; value: unknown } | { ok: false; code: string; message: string };
async function raw(core: Core, name: string, args: unknown): Promise<Result> {
  const r = await core.dispatch(name, args, ctx);
  return r.ok ? { ok: true, value: r.value } : { ok: false, code: r.error.code, message: r.error.message };
}
async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await raw(core, name, args);
  if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
  return r.value as T;
}

/** A counter in the Demo profile with a PIN, a programme show, an open shift and one sale paid in cash (seats A1, A2). */
async function counter(): Promise<{ core: Core; sale: OrderView; logger: ReturnType<typeof memoryLogger> }> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-undo-doors-'));
  const logger = memoryLogger();
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    clock: systemClock,
    integrations: { port: 0, dropScanMs: 3_600_000 },
  });
  cores.push(core);
  await call(core, 'settings.setPin', { newPin: PIN });
  const t = Math.floor((Date.now() + 60 * 60_000) / 60_000) * 60_000;
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${lagosDate(t)},${lagosHm(t)},Adult,1500,500`,
  ].join('\n');
  await call(core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
  await call(core, 'shift.open', { cashier: 'Ngozi', openingFloat: '' });
  const show = { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: lagosDate(t), showTime: lagosHm(t) };
  const sale = await call<OrderView>(core, 'sale.sellBasket', {
    tickets: {
      ...show,
      seats: [
        { seat: 'A1', ticketType: 'Adult' },
        { seat: 'A2', ticketType: 'Adult' },
      ],
    },
    concessions: [],
    tender: { kind: 'cash', tenderedKobo: 500_000 },
  });
  expect(sale.state).toBe('paid');
  return { core, sale, logger };
}

/** The table: every door to an undo, and the arguments it takes for one seat of the sale with an approval. */
const DOORS: {
  name: string;
  call: string;
  invalid: string;
  /** What the done undo gave back. */
  refunds: unknown[];
  /** The X report after it: the drawer's cash paid out and expected, the sales total and net sales. */
  x: { paidOut: { count: number; amountKobo: number }; expectedKobo: number; salesKobo: number; netKobo: number };
  args: (sale: OrderView, approval: unknown) => Record<string, unknown>;
}[] = [
  {
    name: 'Cancel (the Orders screen)',
    call: 'refunds.cancel',
    invalid: CANCEL_INVALID,
    // 1,500 and its 500 booking fee, back in cash from the drawer at once
    refunds: [{ tender: 'cash', amountKobo: 200_000, approved: { how: 'pin' } }],
    // 4,000 taken, 2,000 paid out; the sales stay, net sales fall.
    x: { paidOut: { count: 1, amountKobo: 200_000 }, expectedKobo: 200_000, salesKobo: 400_000, netKobo: 200_000 },
    args: (sale, approval) => ({
      orderId: sale.id,
      seats: ['A1'],
      reason: 'customer-request',
      cashier: 'Ngozi',
      ...(approval === undefined ? {} : { approval }),
    }),
  },
  {
    name: 'Exchange (the Orders screen)',
    call: 'refunds.exchange',
    invalid: EXCHANGE_INVALID,
    // To another seat of the same show at the same price: nothing paid, nothing owed.
    refunds: [],
    // The new sale is a cash sale of 0.00: nothing paid out, nothing new taken.
    x: { paidOut: { count: 0, amountKobo: 0 }, expectedKobo: 400_000, salesKobo: 400_000, netKobo: 400_000 },
    args: (sale, approval) => ({
      orderId: sale.id,
      seats: ['A1'],
      to: {
        filmName: sale.sale.filmName,
        filmTitle: sale.sale.filmTitle,
        showDate: sale.sale.showDate,
        showTime: sale.sale.showTime,
        seats: [{ seat: 'B1', ticketType: 'Adult' }],
      },
      reason: 'wrong-show-or-seats',
      cashier: 'Ngozi',
      ...(approval === undefined ? {} : { approval }),
    }),
  },
];

describe('a supervisor’s approval cannot be skipped by any door to an undo', () => {
  for (const door of DOORS) {
    it(`${door.name}: no approval → refused at the schema; a wrong PIN → PIN_WRONG, audited; nothing written; the PIN → done`, async () => {
      const { core, sale, logger } = await counter();
      const none = await raw(core, door.call, door.args(sale, undefined));
      expect(none).toMatchObject({ ok: false, code: 'VALIDATION', message: door.invalid });
      const empty = await raw(core, door.call, door.args(sale, { pin: '' }));
      expect(empty).toMatchObject({ ok: false, code: 'VALIDATION' });
      const wrong = await raw(core, door.call, door.args(sale, { pin: '975310' }));
      expect(wrong).toMatchObject({ ok: false, code: 'PIN_WRONG' });
      expect(logger.lines.some((l) => l.msg === 'undo refused: approval not given')).toBe(true);
      expect(JSON.stringify(logger.lines)).not.toContain('975310');
      const code = await raw(core, door.call, door.args(sale, { code: 'ABCD-2345' }));
      expect(code).toMatchObject({ ok: false, code: 'NOT_READY' });
      expect(await call(core, 'refunds.ofOrder', { orderId: sale.id })).toEqual({
        refunds: [],
        links: { exchangedFrom: null, exchangedTo: [], cancelledSeats: [] },
      });
      const told: unknown[] = [];
      const off = core.events.subscribe((name, payload) => void (name === 'refunds.changed' && told.push(payload)));
      const done = await call<{ refunds: RefundView[] }>(core, door.call, door.args(sale, { pin: PIN }));
      off();
      // The screens follow: the list as 'refunds.list' answers it (a cash refund is not owed).
      const list = await call<{ owed: number; items: RefundView[] }>(core, 'refunds.list', {});
      expect(list).toMatchObject({ owed: 0, items: door.refunds.map(() => ({ refundNo: 'R0001', tender: 'cash' })) });
      expect(told).toEqual([list]);
      expect(done.refunds).toMatchObject(door.refunds);
      expect(await call(core, 'refunds.ofOrder', { orderId: sale.id })).toMatchObject({
        links: { cancelledSeats: ['A1'] },
      });
      // The X report: what the undo did to the drawer and the sales.
      const x = await call<{ report: ShiftReport }>(core, 'shift.report', {});
      expect([x.report.totals.drawer?.cashPaidOut, x.report.totals.drawer?.expectedKobo]).toEqual([
        door.x.paidOut,
        door.x.expectedKobo,
      ]);
      expect([x.report.totals.salesTotal?.amountKobo, x.report.totals.refunds?.netSalesKobo]).toEqual([
        door.x.salesKobo,
        door.x.netKobo,
      ]);
    });
  }
});

describe('the table names every door to an undo (found by introspection, not typed by hand)', () => {
  it('the contract calls whose handlers reach the checkout’s undo are the table’s calls', () => {
    const reaching = Object.entries(handlerSources(Object.keys(calls)))
      .filter(([, src]) => /\b(?:undo\.cancel|exchanges\.exchange)\s*\(/.test(src))
      .map(([name]) => name);
    expect(reaching.sort()).toEqual(DOORS.map((d) => d.call).sort());
  });

  it('only the known doors call the undo; only the undo writes it, after the approval', () => {
    // Beside the contract's calls, one door over HTTP: the box office's POST /v1/charges/{reference}/refund
    // (core/integrations/charge-desk.ts), whose approval test/integration/integrations/charge-refund.test.ts
    // proves the same way (none refused at the schema, a wrong PIN and a code without a Hub refused, nothing written).
    expect(sourcesCalling(/\b(?:undo\.cancel|exchanges\.exchange)\s*\(/)).toEqual([
      'core/integrations/charge-desk.ts',
      'core/orders/orders-module.ts',
    ]);
    expect(sourcesCalling(/\bcancelSale\s*\(/)).toEqual(['core/orders/undo-cancel.ts', 'core/orders/undo-service.ts']);
    expect(sourcesCalling(/\bapprove\s*\(\s*\n?\s*d\.undo/)).toEqual([
      'core/orders/exchange.ts',
      'core/orders/undo-cancel.ts',
    ]);
  });
});
