// Order search at 100,000 orders on a real SQLite file: the right rows, through this module's
// covering index, and the time each kind of search takes (printed, not asserted: machines differ).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchOrders, type SearchQuery } from '../../../core/orders/order-search';
import { OrderTextIndex } from '../../../core/orders/order-text-index';
import type { Db } from '../../../core/db/database';
import { openTempDb } from '../../helpers/orders-db';

const N = 100_000;
const STATES = ['paid', 'paid', 'paid', 'paid', 'failed', 'cancelled', 'expired', 'unknown'] as const;
const FILMS = [
  'AVENGERS-2D',
  'DUNE-3',
  'LION-KING',
  'LAGOS-NIGHTS',
  'KING-OF-BOYS',
  'ANIKULAPO',
  'BRIDGET-JONES',
  'GLADIATOR-II',
];
const START = Date.UTC(2025, 0, 1);
const STEP = 60_000; // an order a minute: about 70 days of a very busy counter

let db: Db;
let cleanup: () => void;

/** Writes N orders in one transaction, straight into the journal's table (seeding, not selling). */
function seed(d: Db): void {
  const ins = d.prepare(
    `INSERT INTO orders (out_order_no, counter_code, business_day, seq, head_merchant_id, merchant_id, state, film_name, film_title, show_date, show_time,
       seats, tickets, price_kobo, booking_fee_kobo, amount_kobo, sn, expire_seconds, created_at, expires_at, updated_at, order_no, pay_no)
     VALUES (?, 'C1', ?, ?, 'H', 'M', ?, ?, ?, '2025-01-01', '19:30', ?, ?, ?, 0, ?, 'SN-000001', 300, ?, ?, ?, ?, ?)`,
  );
  d.transaction(() => {
    for (let i = 1; i <= N; i++) {
      const film = FILMS[i % FILMS.length]!;
      const tickets = (i % 4) + 1;
      const price = 150_000 + (i % 7) * 50_000;
      const at = START + i * STEP;
      const seats = Array.from(
        { length: tickets },
        (_, k) => `${String.fromCharCode(65 + (i % 20))}${(i % 30) + k + 1}`,
      ).join(',');
      const state = STATES[i % STATES.length]!;
      ins.run(
        `C1-${String(250101 + Math.floor(i / 1440)).padStart(6, '0')}-${String(i).padStart(6, '0')}`,
        String(i),
        i,
        state,
        film,
        `${film} (2D)`,
        seats,
        tickets,
        price,
        tickets * price,
        at,
        at + 300_000,
        at,
        state === 'paid' ? `2501${String(i).padStart(14, '0')}` : null,
        state === 'paid' ? `77${String(i).padStart(14, '0')}` : null,
      );
    }
  })();
  const t0 = performance.now();
  new OrderTextIndex(d).catchUp();
  console.log(`indexed ${N} orders for search in ${Math.round(performance.now() - t0)} ms`);
  d.exec('ANALYZE');
}

function timed(q: Partial<SearchQuery>, runs = 20): { ms: number[]; p50: number; p95: number; total: number } {
  const full: SearchQuery = { text: '', states: [], limit: 50, ...q };
  const ms: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    total = searchOrders(db, full).total;
    ms.push(performance.now() - t0);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { ms, p50: sorted[Math.floor(runs * 0.5)]!, p95: sorted[Math.ceil(runs * 0.95) - 1]!, total };
}

beforeAll(() => {
  ({ db, cleanup } = openTempDb());
  seed(db);
}, 120_000);
afterAll(() => cleanup());

describe(`order search at ${N.toLocaleString('en')} orders`, () => {
  it('finds the right orders, newest first, and pages through them with a cursor', () => {
    const one = searchOrders(db, { text: '054321', states: [], limit: 50 });
    expect(one.ids).toEqual([54321]);
    expect(searchOrders(db, { text: 'c1-250138-054321', states: [], limit: 50 }).ids).toEqual([54321]);
    const byPay = searchOrders(db, { text: `77${String(40000).padStart(14, '0')}`, states: [], limit: 50 });
    expect(byPay.ids).toEqual([40000]);
    // ANIKULAPO is every 8th order (i % 8 === 5), and all of those are cancelled (STATES[5]).
    const film = searchOrders(db, { text: 'anikulapo', states: ['cancelled'], limit: 50 });
    expect(film.total).toBe(N / 8);
    expect(film.ids[0]).toBeGreaterThan(film.ids[1]!);
    expect(searchOrders(db, { text: 'anikulapo', states: ['paid'], limit: 50 }).total).toBe(0);
    let cursor: string | undefined;
    const seen = new Set<number>();
    for (let page = 0; page < 5; page++) {
      const p = searchOrders(db, { text: '', states: ['unknown'], limit: 200, cursor });
      for (const id of p.ids) seen.add(id);
      cursor = p.next ?? undefined;
    }
    expect(seen.size).toBe(1000);
  });

  it('looks words up in the trigram index and the amount index, never reading every order', () => {
    const plan = (sql: string, ...args: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
    const words = plan(
      'SELECT id FROM orders WHERE id IN (SELECT id FROM (SELECT rowid AS id FROM records_order_text WHERE records_order_text MATCH ? UNION SELECT id FROM orders WHERE amount_kobo = ?)) ORDER BY created_at DESC, id DESC LIMIT 51',
      'refs : "0543"',
      5,
    );
    expect(words).toMatch(/VIRTUAL TABLE INDEX/);
    expect(words).toMatch(/records_orders_amount/);
    expect(words).not.toMatch(/SCAN orders(?! USING)/);
    expect(plan("SELECT id FROM orders WHERE state IN ('unknown') ORDER BY created_at DESC, id DESC LIMIT 51")).toMatch(
      /records_orders_state_created/,
    );
  });

  it('measures each kind of search (p50/p95 of 20 runs, logged)', () => {
    const cases: [string, Partial<SearchQuery>][] = [
      ['newest page, no filter', {}],
      ['order number (exact, rare)', { text: 'C1-250138-054321' }],
      ['payNo (rare)', { text: `77${String(40000).padStart(14, '0')}` }],
      ['film word (1 in 8)', { text: 'dune' }],
      ['seat (common)', { text: 'F7' }],
      ['amount in naira', { text: '3,500' }],
      ['state unknown (1 in 8)', { states: ['unknown'] }],
      ['one day', { from: '2025-02-01', to: '2025-02-01' }],
      ['page 100 via cursor', { cursor: `${START + (N - 5000) * STEP}.${N - 5000}` }],
      ['no match at all', { text: 'zzzz-nothing' }],
    ];
    const lines: string[] = [];
    let worst = 0;
    for (const [name, q] of cases) {
      const r = timed(q);
      worst = Math.max(worst, r.p95);
      lines.push(
        `${name.padEnd(28)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  (${r.total} match)`,
      );
    }
    console.log(`order search, ${N} orders:\n${lines.join('\n')}\nworst p95 ${worst.toFixed(1)} ms`);
    expect(lines).toHaveLength(cases.length);
  });
});
