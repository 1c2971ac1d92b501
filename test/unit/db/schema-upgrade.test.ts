// The database's one migration list on real SQLite files: a file made by the schema code before the
// list (test/fixtures/db/previous-schema.sql) opens with nothing re-run, nothing lost and the same
// shape as a new file; and the CHECK lists of the tables follow the shared constants.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { type Db } from '../../../core/db';
import { SCHEMA } from '../../../core/schema';
import { OrderJournal, OrderJournalReads, OrderTextIndex, searchOrders } from '../../../core/orders';
import { TopupJournalReads } from '../../../core/topups/topup-journal-reads';
import { ORDER_STATES } from '../../../shared/orders';
import { PRINT_JOB_KINDS, PRINT_JOB_STATUSES } from '../../../shared/records';
import { BATCH_STATES, TOPUP_STATES } from '../../../shared/topups';
import { sale } from '../../helpers/orders-db';

const FIXTURE = join(__dirname, '../../fixtures/db/previous-schema.sql');
const dirs: string[] = [];
const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-schema-'));
  dirs.push(dir);
  return join(dir, 'counterpay.db');
}

function openApp(file: string): Db {
  const db = openJournalDb(file);
  open.push(db);
  return db;
}

/** A file as the previous schema code left it, written without any of today's code. */
function previousFile(): string {
  const file = tempFile();
  const raw = new Database(file);
  raw.exec(readFileSync(FIXTURE, 'utf8'));
  raw.close();
  return file;
}

/** Tables (the word index's internal ones aside), their columns and their indexes. */
function shapeOf(db: Db) {
  const tables = (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'records_order_text_%' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  return {
    tables: Object.fromEntries(tables.map((t) => [t, db.prepare(`PRAGMA table_info(${t})`).all()])),
    indexes: db
      .prepare(
        "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name",
      )
      .all(),
  };
}

describe('one migration list', () => {
  it('names every migration once', () => {
    const names = SCHEMA.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('opens a file made by the previous schema with nothing re-run, newer migrations applied once, nothing lost, and the shape of a new file', () => {
    const file = previousFile();
    const before = new Database(file, { readonly: true });
    const applied = before.prepare('SELECT name, applied_at FROM schema_migrations ORDER BY name').all();
    before.close();

    const db = openApp(file);
    // What the file had applied stays exactly as it was; migrations newer than the file run once.
    const after = db.prepare('SELECT name, applied_at FROM schema_migrations ORDER BY name').all() as {
      name: string;
      applied_at: number;
    }[];
    expect(after.filter((m) => (applied as { name: string }[]).some((a) => a.name === m.name))).toEqual(applied);
    expect(after.map((m) => m.name).sort()).toEqual(SCHEMA.map((m) => m.name).sort());
    expect(shapeOf(db)).toEqual(shapeOf(openApp(tempFile())));

    // The journal, the search and the shift totals read the old rows.
    const journal = new OrderJournal(db, () => Date.UTC(2026, 10, 21, 19));
    expect(journal.get(1)).toMatchObject({
      state: 'paid',
      profile: 'production',
      amountKobo: 710_000,
      outOrderNo: 'C1-261121-0001',
    });
    expect(searchOrders(db, { text: 'Lagos', states: [], limit: 10 }).ids).toEqual([2, 1]);
    const orders = new OrderJournalReads(db);
    const all = { excludeDemo: true };
    expect(
      orders
        .ledgerSales(0, Date.UTC(2027, 0, 1))
        .map((r) => [r.state, r.providerFeeKobo])
        .sort(),
    ).toEqual([
      ['creating', 0],
      ['paid', 1_050],
    ]);
    expect(orders.openOrders(Date.UTC(2027, 0, 1), 10, all).map((o) => o.outOrderNo)).toEqual(['C1-261121-0002']);
    expect(new TopupJournalReads(db).openItems(Date.UTC(2027, 0, 1), 10, all)).toMatchObject([
      { id: 1, state: 'sending', amountKobo: 100_000 },
    ]);

    // And the next sale takes the next number and is found.
    const s = sale({ seats: 'G4', tickets: 1 });
    const rec = journal.insert({
      sale: s,
      amountKobo: 360_000,
      counterCode: 'C1',
      businessDay: '261121',
      createdAt: Date.UTC(2026, 10, 21, 19),
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      note: 'sold',
      profile: 'production',
    });
    expect(rec.outOrderNo).toBe('C1-261121-0003');
    new OrderTextIndex(db).catchUp();
    expect(searchOrders(db, { text: 'G4', states: [], limit: 10 }).ids).toEqual([rec.id]);
  });

  it('opening twice runs nothing the second time', () => {
    const file = tempFile();
    const first = openApp(file);
    const applied = first.prepare('SELECT name, applied_at FROM schema_migrations ORDER BY name').all();
    first.close();
    open.pop();
    expect(openApp(file).prepare('SELECT name, applied_at FROM schema_migrations ORDER BY name').all()).toEqual(
      applied,
    );
  });
});

describe('CHECK lists from the shared constants', () => {
  /** Which of `values` (plus one no list holds) the column takes. */
  function accepted(db: Db, table: string, column: string, values: readonly string[]): string[] {
    const ok: string[] = [];
    for (const v of [...values, 'not-a-value']) {
      db.exec('SAVEPOINT probe');
      try {
        db.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = 1`).run(v);
        ok.push(v);
      } catch (e) {
        expect(String(e)).toMatch(/CHECK constraint failed/);
      }
      db.exec('ROLLBACK TO probe; RELEASE probe');
    }
    return ok;
  }

  it('the orders, top-ups, batches and print jobs take exactly their shared lists', () => {
    const db = openApp(tempFile());
    const s = sale();
    new OrderJournal(db, () => 1).insert({
      sale: s,
      amountKobo: 710_000,
      counterCode: 'C1',
      businessDay: '261121',
      createdAt: 1,
      expireSeconds: 300,
      state: 'creating',
      attempts: 1,
      headMerchantId: 'H',
      merchantId: 'M',
      note: 'sold',
      profile: 'production',
    });
    db.exec(`
      INSERT INTO topups (reference, profile, bills_merchant_id, service_type, provider, customer_id, amount_kobo, state, business_day, created_at, updated_at)
        VALUES ('T1', 'production', 'B1', 'airtime', 'MTN', '08031234567', 100000, 'queued', '261121', 1, 1);
      INSERT INTO topup_batches (profile, bills_merchant_id, file_name, state, chunk_size, total_rows, bad_rows, created_at, updated_at)
        VALUES ('production', 'B1', 'f.csv', 'draft', 10, 1, 0, 1, 1);
      INSERT INTO print_jobs (kind, title, payload_json, target_json, target_text, status, created_at, updated_at)
        VALUES ('test-page', 't', '{}', '{}', 't', 'pending', 1, 1);
    `);
    expect(accepted(db, 'orders', 'state', ORDER_STATES)).toEqual([...ORDER_STATES]);
    expect(accepted(db, 'topups', 'state', TOPUP_STATES)).toEqual([...TOPUP_STATES]);
    expect(accepted(db, 'topup_batches', 'state', BATCH_STATES)).toEqual([...BATCH_STATES]);
    expect(accepted(db, 'print_jobs', 'kind', PRINT_JOB_KINDS)).toEqual([...PRINT_JOB_KINDS]);
    expect(accepted(db, 'print_jobs', 'status', PRINT_JOB_STATUSES)).toEqual([...PRINT_JOB_STATUSES]);
  });

  it('a file made before pickup slips takes them as print jobs, its old jobs kept (records-006)', () => {
    const db = openApp(previousFile());
    expect(db.prepare('SELECT id, kind, order_id, profile FROM print_jobs').all()).toEqual([
      { id: 1, kind: 'receipt', order_id: 1, profile: 'production' },
    ]);
    expect(accepted(db, 'print_jobs', 'kind', PRINT_JOB_KINDS)).toEqual([...PRINT_JOB_KINDS]);
    expect(PRINT_JOB_KINDS).toContain('pickup-slip');
  });
});
