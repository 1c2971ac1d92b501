// The owner of the catalogue's tables: the catalogue in use (replaced whole, in one transaction),
// where it came from, and each entry's sold-out mark. Entries are kept as the catalogue's own JSON
// (checked before they are written, and again when read), in the catalogue's order.
import { CatalogueSchema, type Catalogue } from '../../shared/catalogue';
import type { CatalogueSource } from '../../shared/contract-catalogue';
import type { Db } from '../db';

interface EntryRow {
  kind: 'item' | 'combo';
  json: string;
  soldOut: number;
}

export class CatalogueStore {
  /** The catalogue as last read (this store alone writes its tables: each write forgets it). */
  private cached: { source: CatalogueSource | null; catalogue: Catalogue | null } | null = null;

  constructor(private readonly db: Db) {}

  source(): CatalogueSource | null {
    return this.read().source;
  }

  /** The catalogue in use, each entry with its sold-out mark; null when there is none. */
  catalogue(): Catalogue | null {
    return this.read().catalogue;
  }

  private read(): { source: CatalogueSource | null; catalogue: Catalogue | null } {
    this.cached ??= { source: this.readSource(), catalogue: this.readCatalogue() };
    return this.cached;
  }

  private readSource(): CatalogueSource | null {
    const row = this.db
      .prepare('SELECT kind, imported_at AS importedAt, file_name AS fileName FROM catalogue_source WHERE id = 1')
      .get() as CatalogueSource | undefined;
    return row ?? null;
  }

  private readCatalogue(): Catalogue | null {
    if (!this.readSource()) return null;
    const rows = this.db
      .prepare('SELECT kind, entry_json AS json, sold_out AS soldOut FROM catalogue_entries ORDER BY position')
      .all() as EntryRow[];
    const items: unknown[] = [];
    const combos: unknown[] = [];
    for (const r of rows) {
      const entry = { ...(JSON.parse(r.json) as object), soldOut: r.soldOut === 1 };
      (r.kind === 'item' ? items : combos).push(entry);
    }
    return CatalogueSchema.parse({ items, combos });
  }

  /** Replaces the whole catalogue and its source: all of it or, on any failure, none of it. */
  replace(source: CatalogueSource & { hubVersion?: number }, c: Catalogue): void {
    this.cached = null;
    this.db.transaction(() => {
      this.db.exec('DELETE FROM catalogue_entries;');
      const put = this.db.prepare(
        'INSERT INTO catalogue_entries (code, position, kind, entry_json, sold_out, sold_out_at) VALUES (?, ?, ?, ?, ?, NULL)',
      );
      let position = 0;
      for (const { soldOut, ...item } of c.items)
        put.run(item.code, position++, 'item', JSON.stringify(item), soldOut ? 1 : 0);
      for (const { soldOut, ...combo } of c.combos)
        put.run(combo.code, position++, 'combo', JSON.stringify(combo), soldOut ? 1 : 0);
      this.db
        .prepare(
          `INSERT INTO catalogue_source (id, kind, file_name, hub_version, imported_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, file_name = excluded.file_name,
             hub_version = excluded.hub_version, imported_at = excluded.imported_at`,
        )
        .run(source.kind, source.fileName, source.hubVersion ?? null, source.importedAt);
    })();
  }

  /** The Hub's version of the catalogue in use when it came from the Hub (null: none, or not the Hub's). */
  hubVersion(): number | null {
    const r = this.db.prepare('SELECT kind, hub_version AS v FROM catalogue_source WHERE id = 1').get() as
      { kind: string; v: number | null } | undefined;
    return r?.kind === 'hub' ? r.v : null;
  }

  /** Marks an entry sold out or back on sale; false when no entry has this code. */
  setSoldOut(code: string, soldOut: boolean, at: number): boolean {
    this.cached = null;
    const r = this.db
      .prepare('UPDATE catalogue_entries SET sold_out = ?, sold_out_at = ? WHERE code = ?')
      .run(soldOut ? 1 : 0, at, code);
    return r.changes > 0;
  }
}
