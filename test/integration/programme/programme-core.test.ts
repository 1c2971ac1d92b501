// The programme through the composed core (Demo profile: the embedded sandbox over loopback HTTP,
// the journal on a real SQLite file): the CSV import behind the PIN, all or nothing; the next
// shows; a sale of a picked show reaching the sandbox with exactly the productInfo of that show —
// the same Sale the hand-typed form makes; the programme sale written with its order; a Hub copy replacing it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confStore } from '../../../browser-shell/boot';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { fileVault } from '../../../core/settings/secret-vault';
import type { OrderView } from '../../../shared/orders';
import type { NextShows, ProgrammeImportResult, ProgrammeSummary, SeatCheckResult } from '../../../shared/programme';
import { lagosDate, lagosHm } from '../../../shared/time';
import { orderReaches } from '../../helpers/core-events';
import { openJournalDb } from '../../../core/schema';
import { journalPath } from '../../../core/data-folder/journal-file';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

const dirs = new WeakMap<Core, string>();
async function boot(): Promise<Core> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-programme-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
  });
  cores.push(core);
  dirs.set(core, dir);
  return core;
}
async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok)
    throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), {
      code: r.error.code,
      details: r.error.details,
    });
  return r.value as T;
}

const MIN = 60_000;
function at(offsetMin: number) {
  const t = Math.floor((Date.now() + offsetMin * MIN) / MIN) * MIN;
  return { date: lagosDate(t), time: lagosHm(t) };
}
const HEADER = 'film,title,rating,screen,date,time,ticketType,price,bookingFee';

describe('the programme through the core', () => {
  it('imports all or nothing behind the PIN, lists the next shows, and sells a picked show as the same Sale', async () => {
    const core = await boot();
    const next = at(30);
    const later = at(120);
    const csv = [
      HEADER,
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Adult,4500,200`,
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Child,3000.50,150.25`,
      `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${later.date},${later.time},Child,2500,`,
      `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${later.date},${later.time},Adult,3500,`,
    ].join('\n');

    // Behind the admin PIN, like other settings imports.
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'settings.lock', {});
    await expect(call(core, 'programme.import', { csv, by: 'Ada' })).rejects.toMatchObject({ code: 'PIN_REQUIRED' });
    await call(core, 'settings.unlock', { pin: '2468' });
    await call(core, 'shift.open', { cashier: 'Ngozi', openingFloat: '' });

    // One bad row: nothing is written.
    const bad = await call<ProgrammeImportResult>(core, 'programme.import', {
      csv: `${csv}\nDune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Student,12.345,`,
      fileName: 'bad.csv',
      by: 'Ada',
    });
    expect(bad).toMatchObject({ imported: false, totalRows: 5, errorCount: 1, errors: [{ line: 6, column: 'price' }] });
    expect((await call<ProgrammeSummary>(core, 'programme.summary', {})).source).toBeNull();

    const changed = new Promise<ProgrammeSummary>((ok) => {
      const off = core.events.subscribe((name, payload) => {
        if (name === 'programme.changed') {
          off();
          ok(payload as ProgrammeSummary);
        }
      });
    });
    const good = await call<ProgrammeImportResult>(core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
    expect(good.imported).toBe(true);
    expect(good.summary).toMatchObject({
      films: 2,
      screens: 2,
      shows: 2,
      source: { kind: 'csv', fileName: 'week.csv', by: 'Ada' },
    });
    expect((await changed).shows).toBe(2);

    const list = await call<NextShows>(core, 'programme.next', {});
    expect(list.shows.map((s) => [s.filmName, s.time, s.defaultTicketType])).toEqual([
      ['Dune 2', next.time, 'Adult'],
      ['Inside Out 2', later.time, 'Child'],
    ]);
    const dune = list.shows[0]!;

    // Without a Hub the seat check is skipped, and says so.
    expect(
      await call<SeatCheckResult>(core, 'programme.checkSeats', { showId: dune.id, seats: 'f7 f8' }),
    ).toMatchObject({ kind: 'skipped' });

    // Wrong seats come back on the seats field; a ticket type the show does not have, on its own.
    await expect(
      call(core, 'programme.charge', { showId: dune.id, ticketType: 'Child', seats: 'F7,F7', sn: 'DEMO-POS-0001' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { fields: { seats: 'Seat F7 is listed twice' } } });
    await expect(
      call(core, 'programme.charge', { showId: dune.id, ticketType: 'Senior', seats: 'F7', sn: 'DEMO-POS-0001' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { fields: { ticketType: expect.stringContaining('choose one of Adult, Child') } },
    });

    const order = await call<OrderView>(core, 'programme.charge', {
      showId: dune.id,
      ticketType: 'child',
      seats: 'f7 f8',
      sn: 'DEMO-POS-0001',
    });
    // The same Sale as the hand-typed form would send for this show: booking fee per ticket, times the tickets.
    expect(order.sale).toEqual({
      filmName: 'Dune 2',
      filmTitle: 'DUNE: PART TWO',
      showDate: next.date,
      showTime: next.time,
      seats: 'F7,F8',
      tickets: 2,
      priceKobo: 300_050,
      bookingFeeKobo: 30_050,
      sn: 'DEMO-POS-0001',
    });
    expect(order.amountKobo).toBe(630_150);
    await orderReaches(core, order.id, 'waiting');
    const atSandbox = core
      .demo()!
      .sandbox.listPosOrders()
      .find((o) => o.outOrderNo === order.outOrderNo)!;
    expect(atSandbox.productInfo).toEqual({
      filmName: 'Dune 2',
      filmTitle: 'DUNE: PART TWO',
      filmTicketNum: '2',
      seatNum: 'F7,F8',
      filmTicketAmount: '6001.00',
      filmFeeAmount: '300.50',
      filmDate: next.date,
      filmTime: next.time,
    });

    // Paid: Child is now the most sold for Dune 2, yet each show still offers its programme's first type.
    const paid = orderReaches(core, order.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    const after = await call<NextShows>(core, 'programme.next', {});
    expect(after.shows.map((s) => s.defaultTicketType)).toEqual(['Adult', 'Child']);

    // The shift reads per show: seats sold and takings.
    const report = await call<{ report: { totals: { shows: unknown[] } } }>(core, 'shift.report', {});
    expect(report.report.totals.shows).toEqual([
      {
        filmName: 'Dune 2',
        filmTitle: 'DUNE: PART TWO',
        showDate: next.date,
        showTime: next.time,
        orders: 1,
        seats: 2,
        amountKobo: 630_150,
      },
    ]);

    // A Hub copy comes in the same way; an older or repeated version is refused; the old show id is gone.
    const hubCopy = {
      films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
      screens: ['Screen 1'],
      shows: [
        {
          film: 'Dune 2',
          screen: 'Screen 1',
          date: later.date,
          time: later.time,
          ticketTypes: [{ name: 'Adult', priceKobo: 500_000, bookingFeeKobo: 0 }],
        },
      ],
    };
    expect(core.replaceProgramme({ kind: 'hub', version: 7, receivedAt: Date.now() }, hubCopy).replaced).toBe(true);
    expect(core.replaceProgramme({ kind: 'hub', version: 7, receivedAt: Date.now() }, hubCopy)).toMatchObject({
      replaced: false,
    });
    expect((await call<ProgrammeSummary>(core, 'programme.summary', {})).source).toMatchObject({
      kind: 'hub',
      version: 7,
    });
    await expect(
      call(core, 'programme.charge', { showId: dune.id, ticketType: 'Adult', seats: 'F9', sn: 'DEMO-POS-0001' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(() =>
      core.replaceProgramme({ kind: 'hub', version: 8, receivedAt: Date.now() }, { ...hubCopy, films: [] }),
    ).toThrow(/not in the programme/);

    // Versions are compared within one enrollment only: a counter joined to a new (or rebuilt) Hub
    // takes that Hub's version 1 over the old Hub's version 7, then refuses a repeat of it.
    expect(
      core.replaceProgramme({ kind: 'hub', version: 1, receivedAt: Date.now(), counterId: 'ctr_new' }, hubCopy)
        .replaced,
    ).toBe(true);
    expect(
      core.replaceProgramme({ kind: 'hub', version: 1, receivedAt: Date.now(), counterId: 'ctr_new' }, hubCopy),
    ).toMatchObject({ replaced: false });
    expect((await call<ProgrammeSummary>(core, 'programme.summary', {})).source).toMatchObject({
      kind: 'hub',
      version: 1,
      counterId: 'ctr_new',
    });
  });
});

describe('a programme sale is one write with its order', () => {
  it("records the programme sale in the order's own transaction: neither without the other, and paid is the order's", async () => {
    const core = await boot();
    const next = at(30);
    const csv = [HEADER, `Dune 2,DUNE: PART TWO,12A,Screen 1,${next.date},${next.time},Adult,4500,200`].join('\n');
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
    await call(core, 'shift.open', { cashier: 'Ngozi', openingFloat: '' });
    const dune = (await call<NextShows>(core, 'programme.next', {})).shows[0]!;
    const charge = { showId: dune.id, ticketType: 'Adult', seats: 'F7', sn: 'DEMO-POS-0001' };

    // A second connection to the same journal file: the programme's write fails midway through the sale.
    const db = openJournalDb(journalPath(dirs.get(core)!));
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    db.exec(
      "CREATE TRIGGER no_programme_sale BEFORE INSERT ON programme_sales BEGIN SELECT RAISE(ABORT, 'disk says no'); END;",
    );
    await expect(call(core, 'programme.charge', charge)).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/could not be recorded.*nothing was sent/),
    });
    expect([count('orders'), count('programme_sales')]).toEqual([0, 0]);
    expect(core.demo()!.sandbox.listPosOrders()).toEqual([]);

    // And the other way round: an order the journal refuses leaves no programme sale.
    db.exec('DROP TRIGGER no_programme_sale');
    db.exec("CREATE TRIGGER no_order BEFORE INSERT ON orders BEGIN SELECT RAISE(ABORT, 'disk says no'); END;");
    await expect(call(core, 'programme.charge', charge)).rejects.toMatchObject({ code: 'INTERNAL' });
    expect([count('orders'), count('programme_sales')]).toEqual([0, 0]);
    db.exec('DROP TRIGGER no_order');

    const order = await call<OrderView>(core, 'programme.charge', charge);
    expect([count('orders'), count('programme_sales')]).toEqual([1, 1]);
    const paid = orderReaches(core, order.id, 'paid');
    await orderReaches(core, order.id, 'waiting');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    // Paid is the order's own state: the programme keeps no copy of it to fall behind.
    const columns = (db.prepare('PRAGMA table_info(programme_sales)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('paid');
    expect(db.prepare('SELECT show_key AS showKey, ticket_type AS type, screen FROM programme_sales').get()).toEqual({
      showKey: dune.key,
      type: 'Adult',
      screen: 'Screen 1',
    });
    db.close();
  });
});
