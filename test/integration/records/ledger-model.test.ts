// Model-based test of the one ledger (issue 25): random days at a counter — sales paid, declined,
// cancelled, expired or left unknown; late payments heard by webhook, relay, query or sweep; paid
// sales the provider later reports otherwise; "refund to be arranged" and "tickets given"; top-ups
// that succeed, fail or hang; Demo sales; shifts (real and Demo) opened and closed across Lagos
// midnight — on a real SQLite journal with the real shift service. After every X and Z, every
// surface is compared with a model written here from the rules alone (docs/cashier-guide.md, "What
// the card total holds"): the report through the contract, the Shift screen's figures as React
// renders them, the printed text, the CSV, the payloads in the Hub's outbox, and the Hub's own
// projections, Shifts and Today on PGlite and on a real PostgreSQL (when its binaries are here:
// test/hub/helpers/pg-cluster.ts). Baskets (issue 38): tickets by type, items and combos, paid by
// card, in cash with change or split; cash drops; the drawer counted at close — the sales total, the
// tickets by type, the concessions, the tenders and the drawer on every surface equal the model.
// Cancels after the sale (issue 39): seats and concession lines of paid sales cancelled through the
// real undo engine, cash paid back from the drawer, card owed and returned later, across shifts and
// Lagos midnight — the refunds' lines and the drawer's cash paid out on the counter's surfaces.
// Failing seeds are kept below and replayed every run.
import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderJournal, OrderJournalReads } from '../../../core/orders';
import { LateOutcomeStore } from '../../../core/orders/late-outcomes';
import { HubOutbox, createOutboxSink } from '../../../core/hub-link/outbox';
import { escposOf } from '../../../core/records/printing/escpos';
import { shiftReportDoc } from '../../../core/records/shifts/shift-report-doc';
import { createShiftService, type ShiftDeps } from '../../../core/records/shifts/shift-service';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { DrawerStore } from '../../../core/records/shifts/drawer-store';
import { topupTotals } from '../../../core/records/shifts/topup-totals';
import { TopupJournalReads } from '../../../core/topups/topup-journal-reads';
import { TopupJournal } from '../../../core/topups/topup-journal';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { pgUnavailable, startPgCluster, type PgCluster } from '../../hub/helpers/pg-cluster';
import { enrollCounter, issueEnrollCode } from '../../../hub/store/counters';
import { shifts as hubShifts, today as hubToday } from '../../../hub/store/dashboard';
import { afterSaleFigures } from '../../../hub/store/after-sale-views';
import { caseAge } from '../../../shared/cases';
import { searchOrders, type OrderFilters } from '../../../hub/store/dashboard-orders';
import { storeSyncBatch } from '../../../hub/store/journal';
import { formatNaira, koboToNairaString } from '../../../shared/money';
import { ShiftReportViewSchema, type ShiftReport } from '../../../shared/records';
import { lagosDate, lagosDayStart } from '../../../shared/time';
import { ShiftFigures } from '../../../renderer/src/screens/shift/ShiftFigures';
import { escposText } from '../../helpers/loopback-printer';
import { openTempDb, sale, SALE_INPUT } from '../../helpers/orders-db';
import { checkBasket } from '../../../shared/basket-check';
import { filmPartOf, type SoldBasket } from '../../../shared/basket-sale';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import { checkBasketFigures, checkHubMix, checkZBasketLines, screenFigure } from '../../helpers/ledger-model-surfaces';
import * as undoModel from '../../helpers/ledger-model-refunds';
import { EXCHANGE_EXAMPLES, exchangeAct, modelCheckout } from '../../helpers/ledger-model-exchanges';
import { BASKET_EXAMPLES } from '../../helpers/ledger-model-examples';
import type { Sale } from '../../../shared/orders';
import { caseCounts } from '../../../core/cases';
import { CaseStore } from '../../../core/cases/case-store';
import {
  actionArb,
  actionArbBefore38,
  expected,
  priceBasket,
  TICKET_TYPES,
  type Action,
  type Expect,
  type MCase,
  type MDrawer,
  type MLate,
  type MSale,
  type MTopup,
} from '../../helpers/ledger-model';

// ---- one run ----------------------------------------------------------------------------------

const T0 = Date.UTC(2026, 9, 5, 8, 0, 0); // 09:00 in Lagos, in the past (the Hub refuses times a day ahead of its clock)

/** The Hub on PGlite, and on a real PostgreSQL when its binaries are here (test/hub/helpers/pg-cluster.ts). */
const hubs: { name: string; db: HubDb }[] = [];
let cluster: PgCluster | null = null;
let runs = 0;

async function run(actions: Action[]): Promise<void> {
  const tmp = openTempDb();
  let stopCheckout = async () => {};
  try {
    let now = T0;
    const clock = { now: () => now };
    const db = tmp.db;
    const outbox = new HubOutbox(db);
    const reader = new ShiftStore(db);
    const sink = createOutboxSink(outbox, { cashierAt: (at) => reader.cashierAt(at) });
    const journal = new OrderJournal(db, () => now, sink);
    const lateStore = new LateOutcomeStore(db, sink);
    const shiftStore = new ShiftStore(db, sink);
    let profile: 'demo' | 'production' = 'production';
    const svc = createShiftService({
      orders: new OrderJournalReads(db),
      shifts: shiftStore,
      drawer: new DrawerStore(db),
      topups: topupTotals(new TopupJournalReads(db)),
      settings: {
        get: () => ({ cinema: { name: 'Film House', branch: 'Lekki', footer: '' }, printing: { paper: '80' } }),
      } as unknown as ShiftDeps['settings'],
      counterName: () => 'Lane 1',
      profile: () => profile,
      jobs: { wasPrinted: () => false } as unknown as ShiftDeps['jobs'],
      printer: {} as ShiftDeps['printer'],
      clock: clock as ShiftDeps['clock'],
      onShift: () => {},
      cases: caseCounts(db),
    });

    const m = {
      sales: [] as MSale[],
      late: [] as MLate[],
      topups: [] as MTopup[],
      refunds: [] as undoModel.MRefund[],
      cases: [] as MCase[],
    };
    const caseStore = new CaseStore(db, sink);
    const undo = undoModel.modelUndo(db, journal, lateStore, sink, () => now);
    const checkout = modelCheckout(db, sink, () => now);
    stopCheckout = () => checkout.stop();
    const shiftModel: {
      id: number;
      openedAt: number;
      closedAt: number | null;
      demo: boolean;
      drawer: MDrawer;
      want: Expect | null;
    }[] = [];
    let payNo = 0;
    const topupJournal = new TopupJournal(db, () => now, sink);

    /** Every surface of one report equals the model. */
    const check = (r: ShiftReport, html: string, csvText: string, want: Expect) => {
      const t = r.totals;
      const where = `${r.kind} report ${r.id ?? ''} of shift ${r.shift.id}`;
      // The report as the contract carries it.
      expect(
        {
          card: t.card,
          pac: [t.paidAfterClosing.count, t.paidAfterClosing.amountKobo],
          refund: t.refundToArrange,
          topups: t.topupsSuccessful,
        },
        where,
      ).toEqual({
        card: { count: want.card.count, amountKobo: want.card.kobo },
        pac: [want.paidAfterClosing.count, want.paidAfterClosing.kobo],
        refund: { count: want.refund.count, amountKobo: want.refund.kobo },
        topups: { count: want.topupsOk.count, amountKobo: want.topupsOk.kobo },
      });
      expect([t.failed.amountKobo, t.cancelled.amountKobo, t.expired.amountKobo, t.open.amountKobo], where).toEqual([
        want.failed,
        want.cancelled,
        want.expired,
        want.open,
      ]);
      expect(
        t.paidAfterClosing.items.map((i) => [i.ref, i.at, i.payNo ?? null]),
        where,
      ).toEqual(
        want.paidAfterClosing.refs.map((ref, k) => [
          ref,
          want.paidAfterClosing.at[k],
          want.paidAfterClosing.payNos[k] ?? null,
        ]),
      );
      // The lines: the tickets, fees and per-show table count the card total's sales, and each
      // sale sold in the window is in exactly one outcome line.
      expect([t.ticketsSold, t.bookingFeesKobo], `${where}: tickets and booking fees`).toEqual([
        want.tickets,
        want.bookingFees,
      ]);
      expect(
        [t.shows.reduce((n, x) => n + x.amountKobo, 0), t.shows.reduce((n, x) => n + x.seats, 0)],
        `${where}: the per-show table sums to the counted sales' tickets and their fees`,
      ).toEqual([want.shows.kobo, want.shows.seats]);
      checkBasketFigures(r, html, csvText, want, where);
      // A sale wholly in cash is in no card line: on the tender lines alone.
      const soldHere = [...want.outcomeOf.values()].filter((x) => x !== 'cash');
      const lateSoldHere = t.paidAfterClosing.items.filter((i) => want.outcomeOf.has(i.ref)).length;
      expect(
        t.paid.count + lateSoldHere + t.failed.count + t.cancelled.count + t.expired.count + t.open.count,
        `${where}: each sale in one outcome line`,
      ).toBe(soldHere.length);
      expect(
        [t.paid.count, t.failed.count, t.cancelled.count, t.expired.count, t.open.count],
        `${where}: the outcome lines' counts`,
      ).toEqual(
        ['paid', 'failed', 'cancelled', 'expired', 'not_finished'].map((k) => soldHere.filter((x) => x === k).length),
      );
      // The Shift screen's figures, as React renders them from that report.
      const screen = renderToStaticMarkup(createElement(ShiftFigures, { report: r }));
      expect(screenFigure(screen, 'figure-taken'), where).toContain(formatNaira(want.card.kobo));
      expect(screenFigure(screen, 'figure-refund-to-arrange') ?? '', where).toBe(
        want.refund.count
          ? `Refund to be arranged (not in the card total) ${formatNaira(want.refund.kobo)} (${want.refund.count})`
          : '',
      );
      // Printed.
      const printed = escposText(escposOf(shiftReportDoc(r, false), '80')).map((l) => l.trim());
      const naira = (k: number) => formatNaira(k).replace('₦', 'N');
      expect(
        printed.find((l) => l.startsWith('CARD TOTAL')),
        where,
      ).toMatch(new RegExp(`^CARD TOTAL \\(${want.card.count}\\) +${naira(want.card.kobo).replace(/[.]/g, '\\.')}$`));
      const pacLine = printed.find((l) => l.startsWith('Paid after closing ('));
      if (want.paidAfterClosing.count)
        expect(pacLine, where).toMatch(
          new RegExp(
            `^Paid after closing \\(${want.paidAfterClosing.count}\\) +${naira(want.paidAfterClosing.kobo).replace(/[.]/g, '\\.')}$`,
          ),
        );
      else expect(pacLine, where).toBeUndefined();
      for (const p of want.paidAfterClosing.payNos)
        expect(
          printed.some((l) => l.includes(`payment ${p}`)),
          `${where}: payment ${p} printed`,
        ).toBe(true);
      expect(html, where).toContain(formatNaira(want.card.kobo));
      // The CSV.
      const csv = csvText.trimEnd().split('\r\n');
      expect(csv, where).toContain(`orders,card_total,${want.card.count},${koboToNairaString(want.card.kobo)},total`);
      expect(csv, where).toContain(
        `orders,paid_after_closing,${want.paidAfterClosing.count},${koboToNairaString(want.paidAfterClosing.kobo)},added`,
      );
      expect(csv, where).toContain(
        `orders,refund_to_arrange,${want.refund.count},${koboToNairaString(want.refund.kobo)},subtracted`,
      );
      // The rows marked added and subtracted sum to the card total (a detail row is never marked twice).
      const cells = csv.map((l) => l.split(','));
      const marked = (mark: string) =>
        cells.filter((c) => c[c.length - 1] === mark).reduce((n, c) => n + Math.round(Number(c[3]) * 100), 0);
      expect(marked('added') - marked('subtracted'), `${where}: the CSV's marks sum to the card total`).toBe(
        want.card.kobo,
      );
      expect(csv, `${where}: the CSV names the money`).toContain(
        r.shift.profile === 'demo' ? 'shift,profile,,Demo - not real money,' : 'shift,profile,,Production,',
      );
      for (const p of want.paidAfterClosing.payNos)
        expect(
          csv.some((l) => l.startsWith('paid_after_closing,') && l.includes(`payment ${p}`)),
          `${where}: payment ${p} in the CSV`,
        ).toBe(true);
    };

    const open = () => m.sales.filter((s) => ['creating', 'waiting', 'unknown'].includes(s.state));
    const openShift = () => shiftModel.find((s) => s.closedAt === null);
    /** Closes the open shift: counted (expected + off) unless `count` is false; uncounted is refused when the drawer had a float, cash or a drop. */
    const closeShift = (cur: (typeof shiftModel)[number], count: boolean | undefined, off: number | undefined) => {
      const before = expected(m, cur.openedAt, now, cur.demo, cur.drawer).drawer;
      const needed = before.float > 0 || before.cashTaken.count > 0 || before.drops.count > 0;
      let z: ReturnType<typeof svc.close> | null = null;
      if (count === false) {
        if (needed) expect(() => svc.close(true), `shift ${cur.id} closed uncounted`).toThrow(/Count the/);
        else z = svc.close(true);
      }
      if (!z) {
        cur.drawer.counted = Math.max(0, before.expected + (off ?? 0) * 10_000);
        z = svc.close(true, null, { counted: koboToNairaString(cur.drawer.counted) });
      }
      const want = expected(m, cur.openedAt, now, cur.demo, cur.drawer);
      const view = ShiftReportViewSchema.parse(z);
      cur.closedAt = now;
      cur.want = want;
      check(view.report, view.html, svc.exportCsv(view.report.id!).csv, want);
    };
    const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

    for (const a of actions) {
      now += 1000;
      switch (a.t) {
        case 'wait':
          now += a.minutes * 60_000;
          break;
        case 'sell': {
          let s: Sale;
          let amount: number;
          let basket: SoldBasket | undefined;
          let sold: Pick<MSale, 'tickets' | 'bookingFee' | 'tender' | 'cash' | 'types' | 'items'>;
          if (a.basket) {
            // A basket, priced by checkBasket against the catalogue and the show's ticket types, as
            // the engine prices it; the model's own arithmetic must agree.
            const p = priceBasket(a.basket);
            const c = checkBasket(
              {
                ...(p.seatTypes.length
                  ? {
                      tickets: {
                        filmName: SALE_INPUT.filmName,
                        filmTitle: SALE_INPUT.filmTitle,
                        showDate: SALE_INPUT.showDate,
                        showTime: SALE_INPUT.showTime,
                        seats: p.seatTypes.map((type, i) => ({ seat: `A${i + 1}`, ticketType: type })),
                      },
                    }
                  : {}),
                concessions: p.concessions.map((x) => ({
                  code: x.code,
                  quantity: x.quantity,
                  ...(x.code === 'CMB1' ? { choices: { Drink: x.drink } } : {}),
                })),
                tender:
                  p.tender === 'card'
                    ? { kind: 'card' }
                    : p.tender === 'cash'
                      ? { kind: 'cash', tenderedKobo: p.tendered }
                      : { kind: 'split', cashKobo: p.cash, tenderedKobo: p.tendered },
              },
              { ticketTypes: TICKET_TYPES, catalogue: DEMO_CATALOGUE },
            );
            if (!c.ok) throw new Error(`the basket was refused: ${JSON.stringify(c.problems)}`);
            expect(
              [c.amounts.totalKobo, c.amounts.cashKobo, c.amounts.cardKobo, c.amounts.bookingFeeKobo],
              "the model's arithmetic and checkBasket's",
            ).toEqual([p.total, p.cash, p.card, p.bookingFee]);
            basket = { lines: c.lines, tender: c.basket.tender, amounts: c.amounts };
            s = { ...filmPartOf(c.basket, basket), sn: p.tender === 'cash' ? '' : SALE_INPUT.sn };
            amount = c.amounts.cardKobo; // the order's amount is the card part, as checkout-sales.ts records it
            sold = {
              tickets: p.tickets,
              bookingFee: p.bookingFee,
              tender: p.tender,
              cash: p.cash,
              types: p.types,
              items: p.items,
            };
          } else {
            s = sale({
              seats: ['A1', 'A1,A2', 'A1,A2,A3'][a.tickets - 1]!,
              tickets: a.tickets,
              priceKobo: a.price * 50_000,
              bookingFeeKobo: a.fee * 10_000 * a.tickets,
            });
            amount = s.tickets * s.priceKobo + s.bookingFeeKobo;
            sold = {
              tickets: s.tickets,
              bookingFee: s.bookingFeeKobo,
              tender: 'card',
              cash: 0,
              types: [{ type: 'Ticket', quantity: s.tickets, amount: s.tickets * s.priceKobo, fee: s.bookingFeeKobo }],
              items: [],
            };
          }
          const cash = sold.tender === 'cash';
          const rec = journal.insert({
            sale: s,
            amountKobo: amount,
            ...(basket ? { basket } : {}),
            counterCode: 'C1',
            businessDay: lagosDate(now).replace(/-/g, '').slice(2),
            createdAt: now,
            expireSeconds: 300,
            state: 'creating',
            attempts: cash ? 0 : 1,
            headMerchantId: 'H',
            merchantId: 'M',
            note: 'sold',
            profile: a.demo ? 'demo' : 'production',
          });
          // A sale wholly in cash is paid at once (no card order); any other waits on the terminal.
          if (cash)
            expect(journal.transition(rec.id, 'paid', 'Paid in cash', { from: ['creating'] }).changed).toBe(true);
          else journal.transition(rec.id, 'waiting', 'on the terminal');
          m.sales.push({
            id: rec.id,
            ref: rec.outOrderNo,
            createdAt: now,
            amount,
            ...sold,
            ...undoModel.leftOf(a.basket, s),
            state: cash ? 'paid' : 'waiting',
            demo: a.demo,
            paidAt: cash ? now : null,
          });
          break;
        }
        case 'drop': {
          const cur = openShift();
          if (!cur) break;
          // What the drawer should hold now; a drop above it is refused.
          const holds = expected(m, cur.openedAt, now + 1, cur.demo, cur.drawer).drawer.expected;
          const kobo = Math.max(100, Math.floor((holds * a.share) / 100 / 100) * 100);
          if (kobo > holds)
            expect(() => svc.drop({ amount: koboToNairaString(kobo) }), `a drop of ${kobo} from ${holds}`).toThrow();
          else {
            svc.drop({ amount: koboToNairaString(kobo) });
            cur.drawer.drops.push({ at: now, amount: kobo });
          }
          break;
        }
        case 'settle': {
          const s = pick(open(), a.pick);
          if (!s) break;
          const r = journal.transition(
            s.id,
            a.to,
            'test',
            a.to === 'paid' ? { patch: { providerFeeKobo: a.providerFee, payNo: `PAY-${++payNo}` } } : {},
          );
          if (r.changed) {
            s.state = a.to;
            if (a.to === 'paid' && s.paidAt === null) s.paidAt = now;
          }
          break;
        }
        case 'latePaid': {
          const s = pick(
            m.sales.filter(
              (x) => ['failed', 'cancelled', 'expired'].includes(x.state) && !m.late.some((l) => l.ref === x.ref),
            ),
            a.pick,
          );
          if (!s) break;
          const rec = journal.get(s.id)!;
          const providerAt = Math.max(s.createdAt + 1, now - a.backMinutes * 60_000);
          const p = `LATE-${++payNo}`;
          const got = lateStore.record(
            rec,
            {
              outOrderNo: rec.outOrderNo,
              orderNo: rec.orderNo ?? '',
              status: 'SUCCESS',
              amountKobo: rec.amountKobo,
              payNo: p,
              completedTime: providerAt,
            },
            a.source,
            now,
          );
          expect(got).not.toBeNull();
          m.late.push({
            ref: s.ref,
            kind: 'paid-after-closing',
            amount: s.amount,
            foundAt: now,
            providerAt,
            payNo: p,
            refund: false,
            demo: s.demo,
          });
          break;
        }
        case 'reportedOtherwise': {
          const s = pick(
            m.sales.filter((x) => x.state === 'paid' && x.tender !== 'cash' && !m.late.some((l) => l.ref === x.ref)),
            a.pick,
          );
          if (!s) break;
          const rec = journal.get(s.id)!;
          const got = lateStore.record(
            rec,
            { outOrderNo: rec.outOrderNo, orderNo: rec.orderNo ?? '', status: a.status, amountKobo: rec.amountKobo },
            'query',
            now,
          );
          expect(got).not.toBeNull();
          m.late.push({
            ref: s.ref,
            kind: 'reported-otherwise',
            amount: s.amount,
            foundAt: now,
            providerAt: now,
            payNo: null,
            refund: false,
            demo: s.demo,
          });
          break;
        }
        case 'handle': {
          const l = pick(
            m.late.filter((x) => x.kind === 'paid-after-closing' && !x.refund && !(x as { handled?: boolean }).handled),
            a.pick,
          );
          if (!l) break;
          const s = m.sales.find((x) => x.ref === l.ref)!;
          lateStore.markHandled(journal.get(s.id)!, { how: a.how, by: 'Ada' }, now);
          (l as { handled?: boolean }).handled = true;
          l.refund = a.how === 'refund';
          break;
        }
        case 'topup': {
          const t = topupJournal.insertSingle(
            { profile: a.demo ? 'demo' : 'production', billsMerchantId: 'B1' },
            'C1',
            lagosDate(now).replace(/-/g, '').slice(2),
            { serviceType: 'airtime', provider: 'MTN', customerId: '08031234567', amountKobo: a.amount * 10_000 },
            'Sending',
          );
          const state = a.outcome === 'pending' ? 'pending' : a.outcome;
          topupJournal.move([{ id: t.id, to: state, note: 'the provider answered' }]);
          m.topups.push({ createdAt: now, amount: a.amount * 10_000, state, demo: a.demo });
          break;
        }
        case 'close':
        case 'shift': {
          const cur = openShift();
          if (!cur && a.t === 'close') break;
          if (!cur) {
            const demo = a.t === 'shift' && a.demo;
            const float = a.t === 'shift' ? (a.float ?? 0) * 1000 : 0; // naira
            profile = demo ? 'demo' : 'production';
            const s = svc.open(demo ? 'Demo Dee' : 'Ada', float ? String(float) : '');
            shiftModel.push({
              id: s.id,
              openedAt: now,
              closedAt: null,
              demo,
              drawer: { float: float * 100, drops: [], counted: null },
              want: null,
            });
          } else closeShift(cur, a.count, a.off);
          break;
        }
        case 'cancel': // in the open shift (the engine refuses one without), or a card refund returned
        case 'returned':
          await undoModel.act(undo, m, a, now, openShift(), expected);
          break;
        case 'exchange': // in a real shift (the engine refuses one without), a cash refund judged against the drawer
          await exchangeAct(checkout, m, a, now, openShift(), expected);
          break;
        case 'case': {
          // The complaint desk: a case opened (this counter's profile), or one still open resolved.
          const open = m.cases.filter((c) => c.resolvedAt === null);
          if (a.resolve && open.length > 0) {
            const c = open[a.pick % open.length]!;
            caseStore.resolve(c.id, { resolution: 'not-debited', by: 'Ada', note: '' }, now);
            c.resolvedAt = now;
          } else {
            const v = caseStore.open({
              search: { amountKobo: 100_000 },
              customer: '',
              openedBy: 'Ada',
              found: null,
              at: now,
              code: 'LANE1',
              profile,
            });
            m.cases.push({ id: v.id, openedAt: now, resolvedAt: null, demo: profile === 'demo' });
          }
          break;
        }
        case 'x': {
          const cur = openShift();
          if (!cur) break;
          const x = ShiftReportViewSchema.parse(svc.report());
          check(x.report, x.html, svc.exportCsv().csv, expected(m, cur.openedAt, now, cur.demo, cur.drawer));
          break;
        }
      }
    }

    // What the Hub is sent: each closed shift's takings and Z report are the model's card total.
    const events = outbox.readAfter(0, 100_000);
    for (const s of shiftModel.filter((x) => x.closedAt !== null)) {
      const closed = events.find((e) => e.kind === 'shift.closed' && e.payload.shiftId === String(s.id));
      const z = events.find((e) => e.kind === 'zreport' && e.payload.shiftId === String(s.id));
      expect(closed?.kind === 'shift.closed' && closed.payload.cardTotalKobo, `shift ${s.id} takings sent`).toBe(
        s.want!.card.kobo,
      );
      expect(z?.kind === 'zreport' && [z.payload.totalKobo, z.payload.count], `shift ${s.id} Z sent`).toEqual([
        s.want!.card.kobo,
        s.want!.card.count,
      ]);
      const line = z?.kind === 'zreport' ? z.payload.lines.find((l) => l.label === 'Paid after closing') : undefined;
      expect(line && [line.count, line.kobo], `shift ${s.id} Z's paid after closing sent`).toEqual([
        s.want!.paidAfterClosing.count,
        s.want!.paidAfterClosing.kobo,
      ]);
      // The Z's basket lines sent: the sales total, the tenders and the drawer.
      checkZBasketLines(z?.kind === 'zreport' ? z.payload.lines : [], s.want!, `shift ${s.id} Z's basket lines sent`);
    }

    // The Hub: the journal stored as a counter sends it, then its Shifts view per Lagos day.
    for (const { name: on, db: hub } of events.length ? hubs : []) {
      const { code } = await issueEnrollCode(hub, Date.now(), 10);
      const branch = `B-RUN-${++runs}`; // a branch of its own: the Hub's Today adds up a branch's counters
      const c = await enrollCounter(hub, { code, counterName: `Lane ${runs}`, branch, appVersion: '1' }, Date.now());
      for (let i = 0; i < events.length; i += 400)
        await storeSyncBatch(hub, c.counterId, events.slice(i, i + 400), Date.now());
      const days = [...new Set(shiftModel.map((s) => lagosDate(s.openedAt)))];
      for (const day of days) {
        const v = await hubShifts(hub, { kind: 'all' }, day, { counterId: c.counterId });
        const mine = shiftModel.filter((s) => lagosDate(s.openedAt) === day || s.closedAt === null);
        const sum = (demo: boolean) =>
          mine.filter((s) => s.demo === demo && s.want).reduce((n, s) => n + s.want!.card.kobo, 0);
        expect(v.totals.cardTotalKobo, `${on}: Hub's card takings on ${day}`).toBe(sum(false));
        expect(v.practice.cardTotalKobo, `${on}: Hub's practice takings on ${day}`).toBe(sum(true));
        for (const row of v.shifts) {
          const s = shiftModel.find((x) => String(x.id) === row.shiftId)!;
          expect(row.practice, `shift ${s.id} practice on the Hub (${on})`).toBe(s.demo);
          expect(row.cardTotalKobo, `shift ${s.id} takings on the Hub (${on})`).toBe(s.want ? s.want.card.kobo : null);
          expect(
            row.zreports.map((z) => z.totalKobo),
            `shift ${s.id} Z on the Hub (${on})`,
          ).toEqual(s.want ? [s.want.card.kobo] : []);
          // Its sales by category and tender: the shift's own sales (a practice shift's practice sales).
          const own = {
            ...m,
            sales: m.sales.filter((x) => x.demo === s.demo),
            late: m.late.filter((x) => x.demo === s.demo),
          };
          checkHubMix(
            row.sales,
            expected(own, s.openedAt, s.closedAt!, s.demo),
            `shift ${s.id} by category and tender on the Hub (${on})`,
          );
        }
      }
      // A late payment on the Hub's order row: at the one time (lateAt), as on the counter's reports.
      for (const l of m.late) {
        const page = await searchOrders(
          hub,
          { kind: 'all' },
          { reference: l.ref, counterId: c.counterId, practice: 'include' } as OrderFilters,
          1,
        );
        expect(
          page.orders[0]?.late && [page.orders[0].late.kind, page.orders[0].late.at],
          `late ${l.ref} on the Hub (${on})`,
        ).toEqual([l.kind, l.providerAt]);
      }
      // The Hub's Today of each Lagos day the run touched: sales paid that day (sold that day or
      // earlier), money taken after closing learnt that day (kept in the takings, or refund due), the
      // other sales of the day by how they ended (a sale paid after closing in that line alone, on the
      // day it was learnt), successful top-ups.
      const touched = [
        ...new Set(
          [
            ...m.sales.map((x) => x.createdAt),
            ...m.sales.flatMap((x) => (x.paidAt === null ? [] : [x.paidAt])),
            ...m.late.map((x) => x.foundAt),
            ...m.topups.map((x) => x.createdAt),
            ...m.refunds.flatMap((x) => (x.returnedAt === null ? [x.at] : [x.at, x.returnedAt])),
            ...m.cases.map((x) => x.openedAt),
          ].map((t) => lagosDate(t)),
        ),
      ];
      for (const d of touched) {
        const v = await hubToday(hub, { kind: 'all' }, d, branch);
        // After the sale on Today: card refunds owed now, refunds paid that day by tender, open cases by age.
        const real = m.refunds.filter((x) => !x.demo);
        const dayOf = (t: number | null) => t !== null && lagosDate(t) === d;
        const tally = (list: { amount: number }[]) => [list.length, list.reduce((n, x) => n + x.amount, 0)];
        const openCases = m.cases.filter((x) => !x.demo && x.resolvedAt === null);
        const after = await afterSaleFigures(hub, { kind: 'all' }, d, now, branch);
        expect(
          [
            tally(real.filter((x) => x.tender === 'card' && x.returnedAt === null)),
            tally(real.filter((x) => x.tender === 'cash' && dayOf(x.returnedAt))),
            tally(real.filter((x) => x.tender === 'card' && dayOf(x.returnedAt))),
            [
              openCases.length,
              openCases.filter((x) => caseAge(x.openedAt, now) === 'flagged').length,
              openCases.filter((x) => caseAge(x.openedAt, now) === 'overdue').length,
            ],
          ],
          `${on}: Hub's Today ${d}, after the sale`,
        ).toEqual([
          [after.owedCount, after.owedKobo],
          [after.paidCashCount, after.paidCashKobo],
          [after.paidCardCount, after.paidCardKobo],
          [after.openCases, after.flaggedCases, after.overdueCases],
        ]);
        // The day's real sales by category and tender.
        checkHubMix(
          v.sales,
          expected(m, lagosDayStart(d), lagosDayStart(d) + 86_400_000, false),
          `${on}: Hub's Today ${d} by category and tender`,
        );
        for (const practice of [false, true]) {
          const from = lagosDayStart(d);
          const inDay = (t: number) => t >= from && t < from + 86_400_000;
          const sales = m.sales.filter((x) => x.demo === practice && inDay(x.createdAt));
          // Paid: card payments (a sale wholly in cash is in the sales by category and tender, not here).
          const paid = m.sales.filter(
            (x) => x.demo === practice && x.tender !== 'cash' && x.state === 'paid' && inDay(x.paidAt ?? x.createdAt),
          );
          const late = m.late.filter((x) => x.kind === 'paid-after-closing' && x.demo === practice && inDay(x.foundAt));
          const kept = late.filter((x) => !x.refund);
          const refund = late.filter((x) => x.refund);
          const ok = m.topups.filter((x) => x.demo === practice && inDay(x.createdAt) && x.state === 'success');
          const kobo = (list: { amount: number }[]) => list.reduce((n, x) => n + x.amount, 0);
          const paidAfterClosing = (ref: string) =>
            m.late.some((l) => l.ref === ref && l.kind === 'paid-after-closing');
          const closedAs = (state: string) => sales.filter((x) => x.state === state && !paidAfterClosing(x.ref)).length;
          expect(practice ? v.practice : v.totals, `${on}: Hub's Today ${d}${practice ? ' (practice)' : ''}`).toEqual({
            paidCount: paid.length + kept.length,
            paidKobo: kobo(paid) + kobo(kept),
            // Each sale in one outcome: paid after closing (on the day learnt) is not also failed, cancelled or expired.
            failedCount: closedAs('failed'),
            cancelledCount: closedAs('cancelled'),
            expiredCount: closedAs('expired'),
            openCount: sales.filter((x) => ['creating', 'waiting', 'unknown'].includes(x.state)).length,
            topupCount: ok.length,
            topupKobo: kobo(ok),
            paidAfterClosingCount: kept.length,
            paidAfterClosingKobo: kobo(kept),
            refundDueCount: refund.length,
            refundDueKobo: kobo(refund),
          });
        }
      }
    }
  } finally {
    await stopCheckout();
    tmp.cleanup();
  }
}

// ---- the runs --------------------------------------------------------------------------------------

/** Seeds (and shrunk paths) that once failed, replayed on every run. */
const REGRESSION_SEEDS: { seed: number; path?: string; why: string; before38?: boolean }[] = [
  // Found with the bug of issue 25 planted (the Z's "paid after closing" also counting orders
  // reported otherwise); shrunk to: sell, pay, reported otherwise (FAIL), …, X.
  {
    seed: 595765221,
    path: '17:1:1:0:1:2:2:2:3:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2:2',
    why: 'paid after closing counted a sale reported otherwise (planted bug, 2026-11-27)',
    before38: true,
  },
  // Found with the Hub's Today planted to keep a refund to be arranged in the takings.
  {
    seed: -1698715628,
    path: '5:0:0:0:0:0:0:1:1:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0',
    why: "the Hub's Today kept a refund to be arranged in the takings (planted bug, 2026-11-27)",
    before38: true,
  },
];

/** Hand-written days that must always hold (each once failed or guards a rule named in issue 25). */
const REGRESSION_EXAMPLES: { why: string; actions: Action[] }[] = [
  {
    why: 'a paid sale reported otherwise is not "paid after closing" on the Z (the planted bug of issue 25)',
    actions: [
      { t: 'shift', demo: false },
      { t: 'sell', price: 2, tickets: 1, fee: 1, demo: false },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
      { t: 'reportedOtherwise', pick: 0, status: 'FAIL' },
      { t: 'sell', price: 3, tickets: 2, fee: 0, demo: false },
      { t: 'settle', pick: 0, to: 'expired', providerFee: 0 },
      { t: 'latePaid', pick: 0, source: 'sweep', backMinutes: 5 },
      { t: 'shift', demo: false },
    ],
  },
  {
    why: 'a refund to be arranged is out of the card total; a top-up is apart; a Demo sale stays out of a real shift',
    actions: [
      { t: 'shift', demo: false },
      { t: 'sell', price: 1, tickets: 2, fee: 1, demo: false },
      { t: 'settle', pick: 0, to: 'cancelled', providerFee: 0 },
      { t: 'latePaid', pick: 0, source: 'webhook', backMinutes: 2 },
      { t: 'handle', pick: 0, how: 'refund' },
      { t: 'topup', amount: 3, outcome: 'success', demo: false },
      { t: 'sell', price: 4, tickets: 1, fee: 0, demo: true },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 0 },
      { t: 'x' },
      { t: 'shift', demo: false },
    ],
  },
  {
    why: 'a shift open across Lagos midnight; a sale of the first shift paid in the next one; a Demo shift counts Demo sales',
    actions: [
      { t: 'shift', demo: false },
      { t: 'sell', price: 5, tickets: 3, fee: 2, demo: false },
      { t: 'wait', minutes: 900 },
      { t: 'shift', demo: false },
      { t: 'shift', demo: false },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 300 },
      { t: 'shift', demo: false },
      { t: 'shift', demo: true },
      { t: 'sell', price: 1, tickets: 1, fee: 0, demo: true },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 0 },
      { t: 'shift', demo: true },
    ],
  },
];

REGRESSION_EXAMPLES.push({
  why: 'a sale failed, then paid after closing in the same shift, is in "Paid after closing" alone, and its tickets and fees count with the card total (issue 37)',
  actions: [
    { t: 'shift', demo: false },
    { t: 'sell', price: 4, tickets: 2, fee: 1, demo: false },
    { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
    { t: 'sell', price: 3, tickets: 3, fee: 2, demo: false },
    { t: 'settle', pick: 0, to: 'failed', providerFee: 0 },
    { t: 'latePaid', pick: 0, source: 'webhook', backMinutes: 1 },
    { t: 'sell', price: 1, tickets: 1, fee: 0, demo: false },
    { t: 'settle', pick: 0, to: 'failed', providerFee: 0 },
    { t: 'x' },
  ],
});

REGRESSION_EXAMPLES.push({
  why: 'a split whose card part expired, then was paid after closing in the same shift, is in "Paid after closing" alone, not also cash to hand back (issue 38, seed 672188167)',
  actions: [
    { t: 'shift', demo: false },
    {
      t: 'sell',
      price: 0,
      tickets: 0,
      fee: 0,
      demo: false,
      basket: { seats: [], concessions: [], tender: 'split', over: 0, cashPercent: 1 },
    },
    { t: 'settle', pick: 0, to: 'expired', providerFee: 0 },
    { t: 'latePaid', pick: 0, source: 'webhook', backMinutes: 0 },
    { t: 'x' },
    { t: 'handle', pick: 0, how: 'refund' },
    { t: 'shift', demo: false, count: false, off: 0 },
  ],
});

REGRESSION_EXAMPLES.push(...BASKET_EXAMPLES, ...undoModel.CANCEL_EXAMPLES, ...EXCHANGE_EXAMPLES);

/** A day: the counter opens a shift (real or Demo), the random actions, then an X and the close. */
const day = (first: boolean, actions: Action[]): Action[] => [
  { t: 'shift', demo: first },
  ...actions,
  { t: 'wait', minutes: 1 },
  { t: 'x' },
  { t: 'close' },
];
const propertyOf = (arb: fc.Arbitrary<Action>) =>
  fc.asyncProperty(
    fc.boolean(),
    fc.array(arb, { minLength: 10, maxLength: 40, size: 'max' }),
    async (demo, actions) => {
      await run(day(demo, actions));
    },
  );
/** The kept seeds' paths walk the actions as they were before baskets (issue 25). */
const propertyBefore38 = propertyOf(actionArbBefore38);
const property = propertyOf(actionArb);

describe('one ledger: every surface equals the model', () => {
  beforeAll(async () => {
    hubs.push({ name: 'PGlite', db: await openHubDb({ dataDir: null }) });
    if (!pgUnavailable) {
      cluster = await startPgCluster();
      hubs.push({
        name: 'PostgreSQL',
        db: await openHubDb({ databaseUrl: await cluster.createDatabase('ledger_model'), dataDir: null }),
      });
    }
  }, 120_000);
  afterAll(async () => {
    for (const h of hubs) await h.db.close();
    cluster?.stop();
  });

  it.each(REGRESSION_EXAMPLES.map((e) => [e.why, e.actions] as const))('kept example: %s', async (_why, actions) => {
    await run([...actions, { t: 'wait', minutes: 1 }, { t: 'x' }, { t: 'close' }]);
  });

  it.each(REGRESSION_SEEDS.map((s) => [s.why, s] as const))('kept seed: %s', async (_why, s) => {
    await fc.assert(s.before38 ? propertyBefore38 : property, {
      seed: s.seed,
      ...(s.path ? { path: s.path } : {}),
      numRuns: 1,
      endOnFailure: true,
    });
  });

  it('random days at a counter', async () => {
    await fc.assert(property, { numRuns: Number(process.env.LEDGER_MODEL_RUNS ?? 40) });
  });
});
