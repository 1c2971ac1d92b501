// The order journal on disk: the time of its writes (each a committed transaction) with an empty
// journal and with 100,000 orders stored; and at 100,000, the history search as the app runs it
// (the records module's word index, then the page's orders) and the journal's own lookups.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalDb } from '../../core/schema';
import { type Db } from '../../core/db';
import { createOutboxSink, HubOutbox } from '../../core/hub-link';
import { OrderJournal } from '../../core/orders/order-journal';
import { shiftCashierAt } from '../../core/records';
import { OrderTextIndex } from '../../core/orders/order-text-index';
import { searchOrders } from '../../core/orders/order-search';
import { koboToNairaString } from '../../shared/money';
import { SaleInputSchema, type OrderState } from '../../shared/orders';
import { createRng, type Rng } from '../helpers/chaos-random';
import { percentile, round } from './bench-stats';

export interface JournalFigures {
  writeP95MsAt0: number;
  writeP95MsAt100k: number;
  searchP95MsAt100k: number;
  /** p95 of one bare committed one-row insert on the same disk: the floor of any journal write. */
  diskCommitP95Ms: number;
  /** The history search (records module: word index + journal), by what the cashier typed. */
  searchP95ByKind: Record<string, number>;
  /** The journal's own indexed lookups. */
  lookupP95ByKind: Record<string, number>;
  /**
   * The search's floor, same rows, same run: one bare prepared SQLite query reading 50 random
   * orders by primary key (the page a search answers), p95 ms. Older runs' JSON lacks it.
   */
  pageReadP95Ms?: number;
  indexSeconds: number;
  stored: number;
  populateSeconds: number;
}

const DAY_MS = 86_400_000;
const FILMS = [
  'Lagos Nights',
  'King of Boys',
  'Anikulapo',
  'The Wedding Party',
  'Gangs of Lagos',
  'Battle on Buka Street',
  'Jagun Jagun',
  'A Tribe Called Judah',
];
const FINAL: readonly (readonly [OrderState, number])[] = [
  ['paid', 75],
  ['failed', 8],
  ['cancelled', 5],
  ['expired', 12],
];

function dayCode(ms: number): string {
  return new Date(ms).toISOString().slice(2, 10).replace(/-/g, '');
}

/** One sale's life in the journal: recorded, on the terminal, final. Returns each write's duration. */
function oneSale(
  j: OrderJournal,
  rng: Rng,
  at: number,
  n: number,
  timed: number[] | null,
): { outOrderNo: string; orderNo: string; id: number; day: string } {
  const tickets = rng.int(1, 4);
  const row = String.fromCharCode(65 + rng.int(0, 14));
  const sale = SaleInputSchema.parse({
    filmName: FILMS[rng.int(0, FILMS.length - 1)],
    filmTitle: `Hall ${rng.int(1, 6)}`,
    showDate: new Date(at).toISOString().slice(0, 10),
    showTime: `${rng.int(12, 22)}:30`,
    seats: Array.from({ length: tickets }, (_, i) => `${row}${i + 1}`).join(','),
    tickets,
    priceKobo: rng.int(15, 60) * 10_000,
    bookingFeeKobo: 10_000,
    sn: 'P30-0012345',
  });
  const t = (f: () => unknown) => {
    const t0 = performance.now();
    f();
    timed?.push(performance.now() - t0);
  };
  const day = dayCode(at);
  let id = 0;
  let outOrderNo = '';
  t(() => {
    const r = j.insert({
      sale,
      amountKobo: tickets * sale.priceKobo + sale.bookingFeeKobo,
      counterCode: `C${(n % 3) + 1}`,
      businessDay: day,
      createdAt: at,
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H1',
      merchantId: 'M1',
      note: 'Sale recorded; sending the order to the terminal',
    });
    id = r.id;
    outOrderNo = r.outOrderNo;
  });
  const orderNo = `${day}${String(100_000_000_000 + n)}`;
  t(() =>
    j.transition(id, 'waiting', 'Order on the terminal', {
      from: ['creating'],
      patch: { orderNo, waitingSince: at + 300, reason: null },
    }),
  );
  const to = rng.weighted(FINAL);
  t(() =>
    j.transition(id, to, 'Provider reports a final status', {
      patch:
        to === 'paid'
          ? {
              payNo: `${day}${String(500_000_000_000 + n)}`,
              providerStatus: 'SUCCESS',
              senderName: 'ADA OBI',
              senderAccount: '******1234',
              providerFeeKobo: 150,
              completedTime: at + 20_000,
            }
          : { providerStatus: to === 'expired' ? 'CLOSE' : to.toUpperCase() },
    }),
  );
  return { outOrderNo, orderNo, id, day };
}

interface Made {
  outOrderNo: string;
  orderNo: string;
  payNo: string | null;
  amountKobo: number;
  film: string;
  seat: string;
  id: number;
  day: string;
}

/** `count` settled sales over the 365 days from `from`, three counters, written as the journal writes them. */
function fillJournal(db: Db, rng: Rng, count: number, from: number): Made[] {
  const perDay = Math.max(1, Math.ceil(count / 365));
  const insOrder = db.prepare(
    `INSERT INTO orders (out_order_no, counter_code, business_day, seq, head_merchant_id, merchant_id, state, film_name, film_title, show_date,
       show_time, seats, tickets, price_kobo, booking_fee_kobo, amount_kobo, sn, expire_seconds, created_at, expires_at, updated_at, waiting_since,
       attempts, order_no, pay_no, provider_fee_kobo, fee_pattern, sender_name, sender_account, completed_time, provider_status, reason)
     VALUES (?, ?, ?, ?, 'H1', 'M1', ?, ?, ?, ?, ?, ?, ?, ?, 10000, ?, 'P30-0012345', 300, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insEvent = db.prepare(
    'INSERT INTO order_events (order_id, at, from_state, to_state, note) VALUES (?, ?, ?, ?, ?)',
  );
  const counter = db.prepare(
    `INSERT INTO order_counters (counter_code, business_day, last_seq) VALUES (?, ?, ?)
     ON CONFLICT (counter_code, business_day) DO UPDATE SET last_seq = max(last_seq, excluded.last_seq)`,
  );
  const made: Made[] = [];
  const seqs = new Map<string, number>();
  const batch = db.transaction((first: number, last: number) => {
    for (let n = first; n < last; n++) {
      const at = from + Math.floor(n / perDay) * DAY_MS + (n % perDay) * 60_000;
      const day = dayCode(at);
      const code = `C${(n % 3) + 1}`;
      const seq = (seqs.get(`${code}-${day}`) ?? 0) + 1;
      seqs.set(`${code}-${day}`, seq);
      const outOrderNo = `${code}-${day}-${String(seq).padStart(4, '0')}`;
      const tickets = rng.int(1, 4);
      const row = String.fromCharCode(65 + rng.int(0, 14));
      const price = rng.int(15, 60) * 10_000;
      const state = rng.weighted(FINAL);
      const orderNo = `${day}${String(100_000_000_000 + n)}`;
      const paid = state === 'paid';
      const payNo = paid ? `${day}${String(500_000_000_000 + n)}` : null;
      const film = FILMS[rng.int(0, FILMS.length - 1)]!;
      const r = insOrder.run(
        outOrderNo,
        code,
        day,
        seq,
        state,
        film,
        `Hall ${rng.int(1, 6)}`,
        new Date(at).toISOString().slice(0, 10),
        `${rng.int(12, 22)}:30`,
        Array.from({ length: tickets }, (_, i) => `${row}${i + 1}`).join(','),
        tickets,
        price,
        tickets * price + 10_000,
        at,
        at + 300_000,
        at + 20_000,
        at + 300,
        orderNo,
        payNo,
        paid ? 150 : null,
        paid ? 'IN_DEDUCT' : null,
        paid ? 'ADA OBI' : null,
        paid ? '******1234' : null,
        at + 20_000,
        state === 'expired' ? 'CLOSE' : paid ? 'SUCCESS' : state.toUpperCase(),
        paid ? null : 'Provider reports a final status',
      );
      const id = Number(r.lastInsertRowid);
      insEvent.run(id, at, null, 'creating', 'Sale recorded; sending the order to the terminal');
      insEvent.run(id, at + 300, 'creating', 'waiting', 'Order on the terminal');
      insEvent.run(id, at + 20_000, 'waiting', state, 'Provider reports a final status');
      counter.run(code, day, seq);
      made.push({ outOrderNo, orderNo, payNo, amountKobo: tickets * price + 10_000, film, seat: `${row}1`, id, day });
    }
  });
  for (let n = 0; n < count; n += 10_000) batch.immediate(n, Math.min(count, n + 10_000));
  return made;
}

function diskCommitP95(dir: string): number {
  const db = new Database(join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (a INTEGER)');
  const st = db.prepare('INSERT INTO t VALUES (?)');
  const ms: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    st.run(i);
    ms.push(performance.now() - t0);
  }
  db.close();
  return percentile(ms, 95);
}

export async function runJournalBench(o: {
  stored: number;
  sampleSales: number;
  lookups: number;
  seed: number;
  baseDir: string;
}): Promise<JournalFigures> {
  const dir = mkdtempSync(join(o.baseDir, 'counterpay-bench-journal-'));
  const rng = createRng(o.seed).fork('journal');
  let db: Db | null = null;
  try {
    const floor = diskCommitP95(dir);
    db = openJournalDb(join(dir, 'journal.sqlite'));
    // As wired in the app: every event also goes to the Hub's outbox, in its transaction.
    const j = new OrderJournal(
      db,
      () => Date.now(),
      createOutboxSink(new HubOutbox(db), { cashierAt: shiftCashierAt(db) }),
    );
    // openDatabase builds the app's whole schema, the search indexes on the journal included.
    const end = Date.UTC(2025, 2, 31, 12);
    // ---- writes with an empty journal ----
    const at0: number[] = [];
    for (let i = 0; i < o.sampleSales; i++) oneSale(j, rng, end + i * 1000, i, at0);
    // ---- fill to `stored` (straight SQL in large transactions: the journal API would take minutes) ----
    const t0 = performance.now();
    const made = fillJournal(db, rng, o.stored - o.sampleSales, end - 365 * DAY_MS);
    // A journal in use for months has its WAL checkpointed as it goes; start the sample from there.
    db.pragma('wal_checkpoint(TRUNCATE)');
    const populateSeconds = (performance.now() - t0) / 1000;
    // ---- writes with `stored` orders ----
    const atFull: number[] = [];
    for (let i = 0; i < o.sampleSales; i++) oneSale(j, rng, end + DAY_MS + i * 1000, o.stored + i, atFull);
    // ---- the history search as the app runs it (records module), and the journal's lookups ----
    const ti = performance.now();
    const textIndex = new OrderTextIndex(db);
    textIndex.catchUp();
    const indexSeconds = (performance.now() - ti) / 1000;
    const pick = (test: (m: Made) => boolean = () => true): Made => {
      for (;;) {
        const m = made[rng.int(0, made.length - 1)]!;
        if (test(m)) return m;
      }
    };
    const search = (text: string) => {
      textIndex.catchUp();
      const r = searchOrders(db!, { text, states: [], limit: 50 });
      for (const id of r.ids) j.get(id);
      return r.ids;
    };
    const searches: Record<string, () => unknown> = {
      outOrderNo: () => search(pick().outOrderNo),
      'orderNo (last 8)': () => search(pick().orderNo.slice(-8)),
      payNo: () => search(pick((m) => m.payNo !== null).payNo!),
      film: () => search(pick().film.split(' ').pop()!),
      seat: () => search(pick().seat),
      amount: () => search(koboToNairaString(pick().amountKobo)),
      'film + seat': () => {
        const m = pick();
        return search(`${m.film.split(' ').pop()!} ${m.seat}`);
      },
    };
    const lookups: Record<string, () => unknown> = {
      outOrderNo: () => j.findByOutOrderNo(pick().outOrderNo),
      orderNo: () => j.findByOrderNo(pick().orderNo),
      businessDay: () => j.listDay(pick().day),
      history: () => j.history(pick().id),
    };
    const p95Of = (fns: Record<string, () => unknown>): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const [kind, f] of Object.entries(fns)) {
        const ms: number[] = [];
        for (let i = 0; i < o.lookups; i++) {
          const t = performance.now();
          const r = f();
          ms.push(performance.now() - t);
          if (r === null || (Array.isArray(r) && r.length === 0)) throw new Error(`${kind} found nothing`);
        }
        out[kind] = round(percentile(ms, 95), 3);
      }
      return out;
    };
    const searchP95ByKind = p95Of(searches);
    const lookupP95ByKind = p95Of(lookups);
    const page = db.prepare(`SELECT * FROM orders WHERE id IN (${Array.from({ length: 50 }, () => '?').join(',')})`);
    const pageReadP95Ms = p95Of({ page: () => page.all(Array.from({ length: 50 }, () => pick().id)) }).page!;
    return {
      writeP95MsAt0: round(percentile(at0, 95), 2),
      writeP95MsAt100k: round(percentile(atFull, 95), 2),
      searchP95MsAt100k: Math.max(...Object.values(searchP95ByKind)),
      diskCommitP95Ms: round(floor, 2),
      searchP95ByKind,
      lookupP95ByKind,
      pageReadP95Ms,
      indexSeconds: round(indexSeconds, 1),
      stored: o.stored,
      populateSeconds: round(populateSeconds, 1),
    };
  } finally {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
