// Migration 015 (hub/db/migrations/015-sale-lines-and-tenders.sql) gives the sales synced before it
// their lines and tender: each is one `Ticket` line by card, exactly what `soldBasketOf`
// (shared/basket-sale.ts), the rule the projector uses from then on, makes of the sale its journal's
// order.created holds (the first, when a counter sent it twice); a sale whose journal names no sale
// is one line of its amount. On PGlite and on a real PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { num } from '../../../hub/db/adapter';
import { migrate, MIGRATIONS } from '../../../hub/db/migrations';
import { openPgDb } from '../../../hub/db/pg-db';
import { openPgliteDb } from '../../../hub/db/pglite-db';
import { soldBasketOf } from '../../../shared/basket-sale';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

const BEFORE = MIGRATIONS.filter((m) => m.version <= 14);
const SALES = [
  { ref: 'R-1', amount: 520_000, sale: { seats: 'A1,A2', tickets: 2, priceKobo: 250_000, bookingFeeKobo: 20_000 } },
  { ref: 'R-2', amount: 300_000, sale: { seats: 'B4', tickets: 1, priceKobo: 300_000, bookingFeeKobo: 0 } },
  { ref: 'R-3', amount: 90_000, sale: null },
];

async function seed(db: HubDb): Promise<void> {
  await db.query(
    "insert into counters (id, name, branch, token_hash, enrolled_at) values ('ctr_1', 'Lane 1', 'B1', 'h', 1)",
  );
  let seq = 0;
  for (const s of SALES) {
    await db.query(
      `insert into dash_orders (counter_id, reference, branch, practice, state, amount_kobo, tickets, created_at, updated_at, change_id,
                                outcome, counted_at, outcome_kobo, card_kobo, in_card)
       values ('ctr_1', $1, 'B1', false, 'paid', $2, $3, 10, 10, nextval('dash_change_seq'), 'paid', 10, $2, $2, true)`,
      [s.ref, s.amount, s.sale?.tickets ?? null],
    );
    const payload = {
      reference: s.ref,
      amountKobo: s.amount,
      sn: 'SN',
      ...(s.sale
        ? { sale: { filmName: 'f', filmTitle: 'F', showDate: '2026-01-01', showTime: '19:30', ...s.sale } }
        : {}),
    };
    await db.query(
      `insert into journal (counter_id, seq, kind, at, payload, received_at) values ('ctr_1', $1, 'order.created', 10, $2::jsonb, 10)`,
      [++seq, JSON.stringify(payload)],
    );
  }
  // R-1 sent again later with other figures: the first is the sale.
  await db.query(
    `insert into journal (counter_id, seq, kind, at, payload, received_at) values ('ctr_1', $1, 'order.created', 20, $2::jsonb, 20)`,
    [
      ++seq,
      JSON.stringify({
        reference: 'R-1',
        amountKobo: 1,
        sn: 'SN',
        sale: {
          filmName: 'f',
          filmTitle: 'F',
          showDate: '2026-01-01',
          showTime: '19:30',
          seats: 'Z9',
          tickets: 9,
          priceKobo: 1,
          bookingFeeKobo: 1,
        },
      }),
    ],
  );
}

let cluster: PgCluster | null = null;
afterAll(() => cluster?.stop());
const backends = [
  { name: 'PGlite', skip: null as string | null, open: () => openPgliteDb(null) },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    open: async () => {
      cluster = await startPgCluster();
      return openPgDb({ url: await cluster.createDatabase('hub_lines_backfill') });
    },
  },
];

describe.each(backends)('migration 015 backfills each sale as one Ticket line by card, on $name', (b) => {
  it.skipIf(b.skip !== null)('every sale synced before it holds what soldBasketOf makes of its journal', async () => {
    const db = await b.open();
    try {
      await migrate(db, BEFORE);
      await seed(db);
      expect(await migrate(db)).toEqual(MIGRATIONS.filter((m) => m.version > 14).map((m) => m.version));
      const orders = await db.query<Record<string, unknown>>(
        'select reference, tender, total_kobo, cash_part_kobo, card_part_kobo from dash_orders order by id',
      );
      expect(
        orders.map((o) => [o.reference, o.tender, num(o.total_kobo), num(o.cash_part_kobo), num(o.card_part_kobo)]),
      ).toEqual(SALES.map((s) => [s.ref, 'card', s.amount, 0, s.amount]));
      const lines = await db.query<Record<string, unknown>>(
        `select o.reference, l.kind, l.code, l.category, l.quantity, l.unit_kobo, l.amount_kobo, l.fee_kobo, l.chosen
           from dash_order_lines l join dash_orders o on o.id = l.order_id order by o.id, l.position`,
      );
      const want = SALES.map((s) => {
        if (!s.sale) return [s.ref, 'tickets', 'Ticket', 'Tickets', 0, 0, s.amount, 0, []];
        const l = soldBasketOf({ sale: s.sale }).lines[0]!;
        if (l.kind !== 'tickets') throw new Error('a tickets line');
        return [s.ref, 'tickets', l.ticketType, 'Tickets', l.quantity, l.unitKobo, l.amountKobo, l.bookingFeeKobo, []];
      });
      expect(
        lines.map((l) => [
          l.reference,
          l.kind,
          l.code,
          l.category,
          num(l.quantity),
          num(l.unit_kobo),
          num(l.amount_kobo),
          num(l.fee_kobo),
          l.chosen,
        ]),
      ).toEqual(want);
    } finally {
      await db.close();
    }
  });
});
