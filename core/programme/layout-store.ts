// The owner of programme_layouts (programme-003): each screen's checked layout, from a file imported
// on this counter or from the Hub's programme. A layout is replaced whole, never edited in place.
import { ScreenLayoutSchema, type ScreenLayout } from '../../shared/seats';
import type { Db } from '../db';

export type LayoutSource = 'file' | 'hub';

export class LayoutStore {
  constructor(private readonly db: Db) {}

  /** The screen's layout (the name as any case), or null: its shows keep typed seats. */
  get(screen: string): ScreenLayout | null {
    const r = this.db
      .prepare('SELECT layout_json AS json FROM programme_layouts WHERE screen = ?')
      .get(screen.trim()) as { json: string } | undefined;
    if (!r) return null;
    const parsed = ScreenLayoutSchema.safeParse(JSON.parse(r.json));
    return parsed.success ? parsed.data : null;
  }

  list(): { screen: string; layout: ScreenLayout | null; source: LayoutSource }[] {
    const rows = this.db.prepare('SELECT screen, source FROM programme_layouts ORDER BY screen').all() as {
      screen: string;
      source: LayoutSource;
    }[];
    return rows.map((r) => ({ screen: r.screen, layout: this.get(r.screen), source: r.source }));
  }

  sourceOf(screen: string): LayoutSource | null {
    const r = this.db.prepare('SELECT source FROM programme_layouts WHERE screen = ?').get(screen.trim()) as
      { source: LayoutSource } | undefined;
    return r?.source ?? null;
  }

  /** Replaces one screen's layout whole (a file imported on this counter). */
  put(layout: ScreenLayout, source: LayoutSource, now: number, meta: { fileName?: string; by?: string } = {}): void {
    this.db
      .prepare(
        `INSERT INTO programme_layouts (screen, layout_json, source, file_name, imported_by, replaced_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(screen) DO UPDATE SET screen = excluded.screen, layout_json = excluded.layout_json, source = excluded.source,
           file_name = excluded.file_name, imported_by = excluded.imported_by, replaced_at = excluded.replaced_at`,
      )
      .run(layout.screen, JSON.stringify(layout), source, meta.fileName ?? null, meta.by ?? null, now);
  }

  /** The Hub's layouts replace every layout the Hub gave before (and a file's of the same screen); call inside the programme's transaction. */
  replaceFromHub(layouts: readonly ScreenLayout[], now: number): void {
    this.db.prepare("DELETE FROM programme_layouts WHERE source = 'hub'").run();
    for (const l of layouts) this.put(l, 'hub', now);
  }
}
