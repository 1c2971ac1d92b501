// Each branch's screen layouts (table screen_layouts): uploaded by head office on the Screens page,
// checked by the counter's very rules (shared/seat-layout.ts), kept as the layout file
// (counterpay-seat-layout/1 JSON) and pushed to the branch's counters with the programme
// (Programme.layouts). A change moves the branch's programme version on, so its counters fetch it.
import type { ScreenRow, ScreensView } from '../../shared/hub-seats-contract';
import { checkLayoutFile } from '../../shared/seat-layout';
import type { LayoutFile, ScreenLayout } from '../../shared/seats';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { RELAY_CHANNEL } from './notifications';
import { programmeNotice } from './programme';

type Row = Record<string, unknown>;

export const screenKey = (screen: string) => screen.trim().toLowerCase();

/** The layout file that reads back to this layout (a CSV shorthand upload is kept as JSON too). */
export function layoutFileOf(l: ScreenLayout): LayoutFile {
  return {
    format: 'counterpay-seat-layout/1',
    screen: l.screen,
    zones: l.zones,
    rows: l.rows.map((r) => ({
      row: r.row,
      seats: r.cells
        .map((c) =>
          c.kind === 'gap'
            ? '_'
            : `${c.number}${c.blocked ? 'x' : c.wheelchair ? 'w' : c.companion ? 'c' : ''}${c.zone ? `:${c.zone}` : ''}`,
        )
        .join(' '),
    })),
  };
}

/** A stored file read back as a layout (it was checked when uploaded; null if it no longer reads). */
function layoutOfRow(text: string): ScreenLayout | null {
  const r = checkLayoutFile(JSON.parse(text) as unknown);
  return r.kind === 'ok' ? r.layout : null;
}

/** The branch's programme version moves on (when it has one) and its counters are told: they fetch the layouts with it. */
async function bumpProgramme(q: SqlRunner, branch: string, by: string, now: number): Promise<void> {
  const v = await q.query<{ version: unknown }>(
    `update programme_versions set version = version + 1, updated_at = $2, updated_by = $3 where branch = $1 returning version`,
    [branch, now, by],
  );
  if (v[0]) await q.query('select pg_notify($1, $2)', [RELAY_CHANNEL, programmeNotice(branch, num(v[0].version))]);
}

export async function saveLayout(
  db: HubDb,
  branch: string,
  layout: ScreenLayout,
  fileName: string,
  by: string,
  now: number,
): Promise<void> {
  await db.tx(async (q) => {
    await q.query(
      `insert into screen_layouts (branch, screen_key, screen, layout, capacity, file_name, updated_at, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (branch, screen_key) do update set screen = excluded.screen, layout = excluded.layout, capacity = excluded.capacity,
         file_name = excluded.file_name, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [
        branch,
        screenKey(layout.screen),
        layout.screen,
        JSON.stringify(layoutFileOf(layout)),
        layout.capacity,
        fileName,
        now,
        by,
      ],
    );
    await bumpProgramme(q, branch, by, now);
  });
}

/** Removes a screen's layout (its shows are sold with typed seats again); false when it had none. */
export async function deleteLayout(
  db: HubDb,
  branch: string,
  screen: string,
  by: string,
  now: number,
): Promise<boolean> {
  return db.tx(async (q) => {
    const r = await q.query('delete from screen_layouts where branch = $1 and screen_key = $2 returning screen', [
      branch,
      screenKey(screen),
    ]);
    if (r.length) await bumpProgramme(q, branch, by, now);
    return r.length > 0;
  });
}

/** The layout files pushed to the branch's counters with the programme. */
export async function layoutFiles(q: SqlRunner, branch: string): Promise<LayoutFile[]> {
  const rows = await q.query<Row>('select layout from screen_layouts where branch = $1 order by screen_key', [branch]);
  return rows.map((r) => JSON.parse(String(r.layout)) as LayoutFile);
}

/** Layouts of the branches asked (by branch, then screen key). */
export async function layoutsOf(q: SqlRunner, branches: string[]): Promise<Map<string, ScreenLayout>> {
  const out = new Map<string, ScreenLayout>();
  if (!branches.length) return out;
  const rows = await q.query<Row>(
    'select branch, screen_key, layout from screen_layouts where branch = any($1::text[])',
    [branches],
  );
  for (const r of rows) {
    const l = layoutOfRow(String(r.layout));
    if (l) out.set(`${String(r.branch)}\u0000${String(r.screen_key)}`, l);
  }
  return out;
}

/** The branch's screens: those of its programme, and any other with a layout. */
export async function screensView(q: SqlRunner, branch: string): Promise<ScreensView> {
  const named = await q.query<Row>('select name from programme_screens where branch = $1 order by position', [branch]);
  const layouts = await q.query<Row>(
    'select screen_key, screen, layout, file_name, updated_at, updated_by from screen_layouts where branch = $1 order by screen_key',
    [branch],
  );
  const byKey = new Map(layouts.map((r) => [String(r.screen_key), r]));
  const screens: ScreenRow[] = [];
  const seen = new Set<string>();
  const row = (screen: string, inProgramme: boolean, l: Row | undefined): ScreenRow => ({
    screen,
    inProgramme,
    layout: l ? layoutOfRow(String(l.layout)) : null,
    fileName: l ? String(l.file_name) : null,
    updatedAt: l ? numOrNull(l.updated_at) : null,
    updatedBy: l ? String(l.updated_by) : null,
  });
  for (const n of named) {
    const k = screenKey(String(n.name));
    if (seen.has(k)) continue;
    seen.add(k);
    screens.push(row(String(n.name), true, byKey.get(k)));
  }
  for (const l of layouts) if (!seen.has(String(l.screen_key))) screens.push(row(String(l.screen), false, l));
  return { branch, screens };
}
