// Temp SQLite files for order tests: a fresh directory per call, removed by `cleanup`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournalDb } from '../../core/schema';
import { type Db, type OpenOptions } from '../../core/db';
import { SaleInputSchema, type Sale } from '../../shared/orders';

export function tempDbFile(prefix = 'counterpay-orders-'): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { file: join(dir, 'counterpay.sqlite'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The app's whole schema, unless `opts.migrations` asks for an older file (upgrade tests). */
export function openTempDb(opts: Partial<OpenOptions> = {}): { db: Db; file: string; cleanup: () => void } {
  const t = tempDbFile();
  const db = openJournalDb(t.file, opts);
  return {
    db,
    file: t.file,
    cleanup: () => {
      try {
        db.close();
      } catch {
        /* already closed */
      }
      t.cleanup();
    },
  };
}

export const SALE_INPUT = {
  filmName: 'Lagos Nights',
  filmTitle: 'Hall 2',
  showDate: '2025-01-31',
  showTime: '19:30',
  seats: 'F7,F8',
  tickets: 2,
  priceKobo: 350_000,
  bookingFeeKobo: 10_000,
  sn: 'P30-0012345',
};

export function sale(over: Partial<typeof SALE_INPUT> = {}): Sale {
  return SaleInputSchema.parse({ ...SALE_INPUT, ...over });
}
