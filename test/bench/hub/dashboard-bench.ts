// The dashboard at scale (npm run bench:hub -- --dashboard): 1,000,000 orders across 60 counters
// (6 branches) seeded straight into the projection tables with set-based SQL, then Today, Needs
// attention and Orders searches over HTTP against a Hub process on that real PostgreSQL, and a
// 100,000-row CSV export streamed, with the Hub's resident memory sampled while it streams.
import { readFileSync } from 'node:fs';
import { openHubDb } from '../../../hub/db/open';
import { createManager } from '../../../hub/store/managers';
import { addDays, lagosDate } from '../../../shared/time';
import { Manager } from '../../hub/helpers/dashboard-client';
import { spawnHub } from '../../hub/helpers/hub-process';
import { percentile, round } from '../bench-stats';

export interface DashboardFigures {
  orders: number;
  counters: number;
  seedSeconds: number;
  /** The worst of the three p95s below. */
  dashboardP95MsAt1M: number;
  todayP95Ms: number;
  attentionP95Ms: number;
  searchP95Ms: number;
  /** Time to stream the whole export (exportRows rows, at least 100,000). */
  export100kMs: number;
  exportRows: number;
  exportPeakRssMb: number;
  exportBaselineRssMb: number;
}

const PW = 'bench manager password';
const DAY = 86_400_000;

/** One statement per table, generated in the server: no rows cross the network. */
export async function seed(
  url: string,
  orders: number,
  counters: number,
  days: number,
  now: number,
  log: (s: string) => void,
): Promise<void> {
  const db = await openHubDb({ databaseUrl: url, dataDir: null });
  try {
    await db.query(
      `insert into counters (id, name, branch, token_hash, enrolled_at, app_version, profile, last_seen_at, last_sync_at, clock_offset_ms, queue_length, open_payments)
       select 'ctr_b' || lpad(g::text, 4, '0'), 'Till ' || g, 'BR-' || (1 + (g - 1) / 10), md5('c' || g), $1::bigint, '0.1.0', 'production',
              case when g % 20 = 0 then $1::bigint else $2::bigint end, case when g % 20 = 0 then $1::bigint else $2::bigint end, case when g % 15 = 0 then 120000 else 150 end, 0, 0
         from generate_series(1, $3::int) g`,
      [now - days * DAY, now - 30_000, counters],
    );
    log(`seeding ${orders.toLocaleString('en-US')} orders over ${days} days ...`);
    const span = days * DAY;
    await db.query(
      `insert into dash_orders (id, counter_id, reference, branch, profile, practice, order_no, pay_no, state, amount_kobo, film_name, film_title, show_date, show_time,
                                seats, tickets, cashier, created_at, updated_at, change_id, outcome, counted_at, outcome_kobo, card_kobo, in_card,
                                tender, total_kobo, cash_part_kobo, card_part_kobo)
       select g, 'ctr_b' || lpad(c::text, 4, '0'), 'R' || g, 'BR-' || (1 + (c - 1) / 10), case when g % 50 = 0 then 'demo' else 'production' end, g % 50 = 0,
              '24' || lpad(g::text, 10, '0'),
              case when g % 100 < 90 then 'PAY' || g end,
              st, amount,
              (array['Dune', 'Heat', 'Up', 'Alien', 'Jaws', 'Rocky', 'Coco', 'Cars'])[1 + g % 8], 'Title', '2026-01-01', '19:30',
              chr(65 + (g % 20)) || (1 + g % 30), 1, 'Cashier ' || (c * 3 + g % 3),
              t, t + 20000, g,
              -- the ledger's row (shared/ledger-row.ts) of a sale with no paid time recorded: counted when sold
              st, t, amount, case when st = 'paid' then amount else 0 end, st = 'paid',
              -- one ticket by card, as a sale before baskets (shared/basket-sale.ts soldBasketOf)
              'card', amount, 0, amount
         from generate_series(1, $1::int) g,
              lateral (select 1 + ((g::bigint * 7919) % $2::int)::int as c, $3::bigint - ((($1::bigint - g) * $4::bigint) / $1::bigint) as t,
                              case when g % 100 < 90 then 'paid' when g % 100 < 94 then 'failed' when g % 100 < 97 then 'cancelled' else 'expired' end as st,
                              250000::bigint * (1 + g % 20) as amount) x`,
      [orders, counters, now - 60_000, span],
    );
    await db.query(`select setval('dash_orders_id_seq', $1::bigint)`, [orders]);
    await db.query(`select setval('dash_change_seq', $1::bigint)`, [orders]);
    // A few payments still open or unknown; shifts (some left open); top-ups; Z reports.
    await db.query(
      `update dash_orders set state = case when id % 2 = 0 then 'waiting' else 'unknown' end, pay_no = null,
              outcome = 'open', counted_at = created_at, card_kobo = 0, in_card = false where id % 20011 = 0`,
    );
    // Each sale's one Ticket line (projection-lines.ts): Today and Shifts sum them by category.
    await db.query(
      `insert into dash_order_lines (order_id, position, kind, code, name, category, quantity, unit_kobo, amount_kobo, fee_kobo, chosen)
       select id, 0, 'tickets', 'Ticket', 'Ticket', 'Tickets', tickets, amount_kobo, amount_kobo, 0, '{}' from dash_orders`,
    );
    await db.query(
      `insert into dash_order_events (counter_id, seq, order_id, kind, at, status, received_at)
       select counter_id, id, id, 'order.created', created_at, 'queued', created_at from dash_orders`,
    );
    await db.query(
      `insert into dash_shifts (counter_id, shift_id, branch, cashier, profile, practice, opened_at, closed_at, float_kobo, card_total_kobo)
       select c.id, 'S' || d || '-' || s, c.branch, 'Cashier ' || s, 'production', false, $1::bigint - d::bigint * ${DAY} + s::bigint * 21600000,
              case when d = 0 and s = 1 then null else $1::bigint - d::bigint * ${DAY} + s::bigint * 21600000 + 20000000 end, 0, 5000000
         from counters c, generate_series(0, $2::int - 1) d, generate_series(0, 1) s`,
      [now - 12 * 3_600_000, days],
    );
    await db.query(
      `insert into dash_zreports (counter_id, seq, branch, shift_id, report_no, from_at, to_at, total_kobo, count, lines, at)
       select counter_id, row_number() over (), branch, shift_id, row_number() over (partition by counter_id order by opened_at), opened_at, closed_at, card_total_kobo, 20,
              '[{"label":"Card","kobo":5000000,"count":20}]'::jsonb, closed_at
         from dash_shifts where closed_at is not null`,
    );
    await db.query(
      `insert into dash_topups (counter_id, reference, branch, kind, amount_kobo, provider, customer_id, state, profile, practice, created_at, updated_at)
       select 'ctr_b' || lpad((1 + g % $1::int)::text, 4, '0'), 'T' || g, 'BR-' || (1 + (g % $1::int) / 10), 'airtime', 100000, 'MTN', '0803', 'success', 'production', false,
              $2::bigint - g::bigint * 50000, $2::bigint - g::bigint * 50000
         from generate_series(1, 100000) g`,
      [counters, now],
    );
    await db.query('analyze');
    await createManager(db, { name: 'Bench Head Office', password: PW, role: 'head-office', branch: null }, now);
    await createManager(db, { name: 'Bench Branch', password: PW, role: 'branch', branch: 'BR-3' }, now);
  } finally {
    await db.close();
  }
}

const rssMb = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0; // the process is gone: its exit is reported below
  }
};

/** One call's time. The Hub limits requests per address (20/s sustained): a 429 waits as told and is not timed. */
async function timed(m: Manager, path: string): Promise<number> {
  return (await call(m, path)).ms;
}

async function call(m: Manager, path: string): Promise<{ ms: number; json: Record<string, unknown> }> {
  for (;;) {
    const t0 = performance.now();
    const r = await m.get(path);
    const ms = performance.now() - t0;
    if (r.status === 429) {
      await new Promise((ok) =>
        setTimeout(ok, Number((r.json.details as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 100) + 5),
      );
      continue;
    }
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 300)}`);
    return { ms, json: r.json };
  }
}

export async function dashboardBench(
  databaseUrl: string,
  o: { orders: number; rounds: number; log: (s: string) => void },
): Promise<DashboardFigures> {
  const counters = 60;
  const days = 60;
  const now = Date.now();
  const t0 = performance.now();
  await seed(databaseUrl, o.orders, counters, days, now, o.log);
  const seedSeconds = round((performance.now() - t0) / 1000);
  o.log(`seeded in ${seedSeconds} s; starting a Hub on it`);
  const proc = await spawnHub(['--database-url', databaseUrl]);
  let stderr = '';
  proc.child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let stopping = false;
  proc.child.once('exit', (code, signal) => {
    if (!stopping) o.log(`the Hub process ended during the run (code ${code}, signal ${signal}): ${stderr}`);
  });
  try {
    const ho = new Manager(proc.url);
    const br = new Manager(proc.url);
    for (const [m, n] of [
      [ho, 'Bench Head Office'],
      [br, 'Bench Branch'],
    ] as const) {
      const r = await m.login(n, PW);
      if (r.status !== 200) throw new Error(`login ${n}: ${r.text}`);
    }
    const today = lagosDate(now);
    const searches = [
      '/orders',
      '/orders?orderNo=0000123457',
      '/orders?orderNo=4567',
      '/orders?payNo=PAY777770',
      '/orders?film=dune',
      `/orders?film=jaws&from=${addDays(today, -3)}&to=${today}`,
      '/orders?counterId=ctr_b0017',
      `/orders?cashier=Cashier%2052&from=${addDays(today, -10)}&to=${today}`,
      '/orders?state=failed',
      '/orders?amountKobo=1250000',
      `/orders?seat=C4&from=${today}&to=${today}`,
      '/orders?state=unknown',
    ];
    // Warm up: the first run of each plans it and reads it into the cache.
    for (const p of ['/today', '/attention', ...searches]) {
      await timed(ho, p);
      await timed(br, p);
    }
    const todayMs: number[] = [];
    const attentionMs: number[] = [];
    const searchMs: number[] = [];
    for (let i = 0; i < o.rounds; i++) {
      for (const m of [ho, br]) {
        todayMs.push(await timed(m, '/today'));
        attentionMs.push(await timed(m, '/attention'));
        for (const s of searches) searchMs.push(await timed(m, s));
      }
      // The next page of a search (keyset cursor).
      const cursor = ((await call(ho, '/orders?film=heat')).json as { nextCursor: string }).nextCursor;
      searchMs.push(await timed(ho, `/orders?film=heat&cursor=${cursor}`));
    }

    // Export: enough whole days for 100,000 real orders.
    const perDay = (o.orders * 0.98) / days;
    const span = Math.max(1, Math.ceil(100_000 / perDay));
    const from = addDays(today, -span);
    const to = addDays(today, -1);
    o.log(`export ${from} .. ${to} (about ${Math.round(perDay * span).toLocaleString('en-US')} rows) ...`);
    const pid = proc.child.pid!;
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 20);
    let e0 = 0;
    let res: Response;
    for (;;) {
      e0 = performance.now();
      res = await fetch(`${proc.url}/api/v1/dashboard/orders.csv?from=${from}&to=${to}`, {
        headers: { cookie: `cp_manager=${ho.cookie}` },
      });
      if (res.status !== 429) break;
      // The searches used up the per-address allowance: wait as told, then start the clock again.
      const j = (await res.json()) as { details?: { retryAfterMs?: number } };
      await new Promise((ok) => setTimeout(ok, (j.details?.retryAfterMs ?? 100) + 5));
    }
    if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
    let rows = -1;
    let tail = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const text = tail + Buffer.from(chunk).toString('utf8');
      const parts = text.split('\r\n');
      tail = parts.pop()!;
      rows += parts.length;
    }
    const exportMs = performance.now() - e0;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    const f = {
      todayP95Ms: round(percentile(todayMs, 95)),
      attentionP95Ms: round(percentile(attentionMs, 95)),
      searchP95Ms: round(percentile(searchMs, 95)),
    };
    return {
      orders: o.orders,
      counters,
      seedSeconds,
      ...f,
      dashboardP95MsAt1M: Math.max(f.todayP95Ms, f.attentionP95Ms, f.searchP95Ms),
      export100kMs: round(exportMs),
      exportRows: rows,
      exportPeakRssMb: round(peak),
      exportBaselineRssMb: round(baseline),
    };
  } finally {
    stopping = true;
    await proc.kill();
  }
}
