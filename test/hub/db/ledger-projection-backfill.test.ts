// Migration 013 (hub/db/migrations/013-ledger-projection.sql) gives the orders synced before it their
// ledger columns in SQL: each row must hold what `ledgerRow` (shared/ledger-row.ts), the rule the
// projector uses from then on, says of its facts. A database at migration 12 with one order of each
// kind in it (paid with and without its paid time, paid after closing kept and to be refunded, a
// paid sale reported otherwise, failed, cancelled, still waiting, unknown) is migrated; every row is
// compared. On PGlite and on a real PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { num, numOrNull } from '../../../hub/db/adapter';
import { migrate, MIGRATIONS } from '../../../hub/db/migrations';
import { openPgDb } from '../../../hub/db/pg-db';
import { openPgliteDb } from '../../../hub/db/pglite-db';
import { ledgerRow } from '../../../shared/ledger-row';
import type { OrderState } from '../../../shared/orders';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

const BEFORE = MIGRATIONS.filter((m) => m.version <= 12);

interface Old {
  ref: string;
  state: string;
  amount: number;
  createdAt: number;
  paidAt?: number;
  late?: {
    kind: 'paid-after-closing' | 'reported-otherwise';
    amount: number;
    at: number;
    how?: 'refund' | 'tickets-given';
  };
}
const ORDERS: Old[] = [
  { ref: 'R-PAID', state: 'paid', amount: 500_000, createdAt: 1_000, paidAt: 1_500 },
  { ref: 'R-PAID-NO-TIME', state: 'paid', amount: 300_000, createdAt: 2_000 },
  {
    ref: 'R-LATE-KEPT',
    state: 'failed',
    amount: 400_000,
    createdAt: 3_000,
    late: { kind: 'paid-after-closing', amount: 450_000, at: 9_000, how: 'tickets-given' },
  },
  {
    ref: 'R-LATE-NEW',
    state: 'cancelled',
    amount: 200_000,
    createdAt: 3_500,
    late: { kind: 'paid-after-closing', amount: 200_000, at: 9_500 },
  },
  {
    ref: 'R-LATE-REFUND',
    state: 'expired',
    amount: 250_000,
    createdAt: 4_000,
    late: { kind: 'paid-after-closing', amount: 250_000, at: 8_000, how: 'refund' },
  },
  {
    ref: 'R-OTHERWISE',
    state: 'paid',
    amount: 600_000,
    createdAt: 5_000,
    paidAt: 5_100,
    late: { kind: 'reported-otherwise', amount: 600_000, at: 7_000 },
  },
  { ref: 'R-FAILED', state: 'failed', amount: 100_000, createdAt: 6_000 },
  { ref: 'R-CANCELLED', state: 'cancelled', amount: 110_000, createdAt: 6_100 },
  { ref: 'R-EXPIRED', state: 'expired', amount: 120_000, createdAt: 6_200 },
  { ref: 'R-WAITING', state: 'waiting', amount: 130_000, createdAt: 6_300 },
  { ref: 'R-UNKNOWN', state: 'unknown', amount: 140_000, createdAt: 6_400 },
];

/** The orders as migration 12's projections held them. */
async function seed(db: HubDb): Promise<void> {
  await db.query(
    "insert into counters (id, name, branch, token_hash, enrolled_at) values ('ctr_1', 'Lane 1', 'B1', 'h', 1)",
  );
  let seq = 0;
  for (const o of ORDERS) {
    const [row] = await db.query<{ id: unknown }>(
      `insert into dash_orders (counter_id, reference, branch, practice, state, amount_kobo, created_at, updated_at, change_id)
       values ('ctr_1', $1, 'B1', false, $2, $3, $4, $4, nextval('dash_change_seq')) returning id`,
      [o.ref, o.state, o.amount, o.createdAt],
    );
    const id = num(row!.id);
    await db.query(
      `insert into dash_order_events (counter_id, seq, order_id, kind, at, status, received_at) values ('ctr_1', $1, $2, 'order.created', $3, 'queued', $3)`,
      [++seq, id, o.createdAt],
    );
    if (o.paidAt !== undefined)
      await db.query(
        `insert into dash_order_events (counter_id, seq, order_id, kind, at, status, received_at) values ('ctr_1', $1, $2, 'order.status', $3, 'paid', $3)`,
        [++seq, id, o.paidAt],
      );
    if (o.late)
      await db.query(
        `insert into dash_late (counter_id, reference, branch, order_id, kind, closed_as, provider_status, amount_kobo, source, practice, at, handled_how)
         values ('ctr_1', $1, 'B1', $2, $3, $4, 'SUCCESS', $5, 'webhook', false, $6, $7)`,
        [o.ref, id, o.late.kind, o.state, o.late.amount, o.late.at, o.late.how ?? null],
      );
  }
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
      return openPgDb({ url: await cluster.createDatabase('hub_backfill') });
    },
  },
];

describe.each(backends)('migration 013 backfills the ledger columns by ledgerRow, on $name', (b) => {
  it.skipIf(b.skip !== null)('every order synced before it holds what ledgerRow says of its facts', async () => {
    const db = await b.open();
    try {
      await migrate(db, BEFORE);
      await seed(db);
      expect(await migrate(db)).toEqual([13, ...MIGRATIONS.filter((m) => m.version > 13).map((m) => m.version)]);
      const rows = await db.query<Record<string, unknown>>(
        'select reference, outcome, counted_at, outcome_kobo, card_kobo, in_card from dash_orders order by id',
      );
      const got = rows.map((r) => ({
        ref: String(r.reference),
        outcome: String(r.outcome),
        countedAt: numOrNull(r.counted_at),
        outcomeKobo: num(r.outcome_kobo),
        cardKobo: num(r.card_kobo),
        inCard: r.in_card === true,
      }));
      const want = ORDERS.map((o) => ({
        ref: o.ref,
        ...ledgerRow(
          { createdAt: o.createdAt, state: o.state as OrderState, amountKobo: o.amount, paidAt: o.paidAt ?? null },
          o.late
            ? { kind: o.late.kind, amountKobo: o.late.amount, foundAt: o.late.at, refund: o.late.how === 'refund' }
            : null,
        ),
      }));
      expect(got).toEqual(want);
      // The rule's cases, spelt out: each sale in one line, at its time.
      expect(got.map((r) => [r.ref, r.outcome, r.countedAt, r.cardKobo])).toEqual([
        ['R-PAID', 'paid', 1_500, 500_000],
        ['R-PAID-NO-TIME', 'paid', 2_000, 300_000],
        ['R-LATE-KEPT', 'paid_after_closing', 9_000, 450_000],
        ['R-LATE-NEW', 'paid_after_closing', 9_500, 200_000],
        ['R-LATE-REFUND', 'paid_after_closing', 8_000, 0],
        ['R-OTHERWISE', 'paid', 5_100, 600_000],
        ['R-FAILED', 'failed', 6_000, 0],
        ['R-CANCELLED', 'cancelled', 6_100, 0],
        ['R-EXPIRED', 'expired', 6_200, 0],
        ['R-WAITING', 'open', 6_300, 0],
        ['R-UNKNOWN', 'open', 6_400, 0],
      ]);
    } finally {
      await db.close();
    }
  });
});
