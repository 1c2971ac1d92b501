// A screen's layout file, checked whole before anything is kept: the JSON file (LayoutFileSchema of
// seats.ts) or its CSV shorthand (`row,seats` lines), each row's cells read by the grammar of
// seats.ts, then the rows against each other and the layout as a whole. Errors name the row and
// the cell as written and say what to fix, as the programme CSV's errors do; any error and nothing
// is kept. Shared: the counter's import, the Hub's upload and the Hub's push use these very rules.
import {
  LayoutFileSchema,
  MAX_LAYOUT_CHARS,
  MAX_LAYOUT_SEATS,
  type LayoutCell,
  type LayoutError,
  type LayoutFile,
  type ScreenLayout,
  type SeatZone,
} from './seats';

export type LayoutParse = { kind: 'ok'; layout: ScreenLayout } | { kind: 'refused'; errors: LayoutError[] };

/** At most this many errors are returned (the first ones; a wrong file usually says so early). */
const MAX_LAYOUT_ERRORS = 100;

const CELL_RE = /^(?:(_)|(\d{1,3})(?:-(\d{1,3}))?([xwc])?(?::([^\s:]+))?)$/;
const GRAMMAR =
  'write a seat number (7), a range (1-10 or 10-1), _ for a gap, a flag after the number (7x blocked, 7w wheelchair place, 7c companion seat) and a zone at the end (1-4:vip)';

const fileError = (message: string): LayoutError => ({ row: null, cell: null, message });

/** Is this file the CSV shorthand (a .csv name, or text that is not a JSON object)? */
function isCsvShorthand(text: string, fileName: string): boolean {
  if (/\.csv$/i.test(fileName.trim())) return true;
  if (/\.json$/i.test(fileName.trim())) return false;
  return !text.trimStart().startsWith('{');
}

/**
 * Reads a layout file (JSON, or the CSV shorthand when the name ends .csv or the text is not a JSON
 * object) into a checked layout, or every error found, by row and cell.
 */
export function parseLayout(text: string, fileName: string): LayoutParse {
  if (text.length > MAX_LAYOUT_CHARS)
    return refused([fileError(`The file is too large: a layout is at most ${Math.floor(MAX_LAYOUT_CHARS / 1000)} kB`)]);
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return refused([fileError('The file is empty: write the screen and its rows')]);
  if (isCsvShorthand(body, fileName)) {
    const read = readCsvShorthand(body, fileName);
    return read.kind === 'file' ? checkLayoutFile(read.file) : refused(read.errors);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    return refused([
      fileError(
        `The file is not JSON (${e instanceof Error ? e.message : 'unreadable'}): save it as a counterpay-seat-layout/1 JSON file, or as the CSV shorthand (row,seats) with a .csv name`,
      ),
    ]);
  }
  return checkLayoutFile(json);
}

function refused(errors: LayoutError[]): LayoutParse {
  return { kind: 'refused', errors: errors.slice(0, MAX_LAYOUT_ERRORS) };
}

/** The row's name for an error at a path of the file (rows[i].…), when the file has one there. */
function rowAt(json: unknown, path: readonly PropertyKey[]): string | null {
  if (path[0] !== 'rows' || typeof path[1] !== 'number') return null;
  const rows = (json as { rows?: unknown }).rows;
  const r = Array.isArray(rows) ? (rows[path[1]] as { row?: unknown } | undefined) : undefined;
  return typeof r?.row === 'string' && r.row !== '' ? r.row : `number ${path[1] + 1}`;
}

/** Limits of the file said in the administrator's words. */
const SIZE_WORDS: Record<string, string> = {
  'too_big rows': 'The layout has more than 60 rows: at most 60 rows in one screen',
  'too_small rows': 'The layout has no rows: write each row, the front row first',
  'too_big zones': 'At most 10 zones in one layout',
};

/** A layout file already read as JSON (the Hub pushes it so): checked by the same rules as a file. */
export function checkLayoutFile(json: unknown): LayoutParse {
  const parsed = LayoutFileSchema.safeParse(json);
  if (!parsed.success) {
    return refused(
      parsed.error.issues.map((i) => {
        const where = i.path.join('.');
        const row = rowAt(json, i.path);
        const msg =
          SIZE_WORDS[`${i.code} ${where}`] ??
          (i.path[0] === 'format'
            ? 'The file must say "format": "counterpay-seat-layout/1"'
            : i.code === 'unrecognized_keys'
              ? `Remove ${i.keys.join(', ')}${where ? ` from ${where}` : ''}: a layout file has format, screen, zones and rows (each row: row and seats)`
              : `${where || 'The file'}: ${i.message}`);
        return { row, cell: null, message: msg };
      }),
    );
  }
  return checkRows(parsed.data);
}

interface RowRead {
  cells: LayoutCell[];
  errors: LayoutError[];
}

/**
 * What the whole layout may still spend, shared by its rows: a range is expanded into seats only
 * when it fits in the seats left (MAX_LAYOUT_SEATS in all), and reading stops at MAX_LAYOUT_ERRORS
 * errors (only those are returned). So any file within the size limits is read in bounded time: at
 * most MAX_LAYOUT_SEATS seats made and MAX_LAYOUT_ERRORS ranges looked at seat by seat, whatever
 * it repeats (the worst, 60 rows of `1-999 1-999 …`, took 1.0–1.6 s when every range was expanded).
 */
interface LayoutBudget {
  seatsLeft: number;
  /** Seats written past the limit (counted, never expanded): the file's "too many seats" error says them. */
  over: number;
  errorsLeft: number;
}

const newBudget = (): LayoutBudget => ({ seatsLeft: MAX_LAYOUT_SEATS, over: 0, errorsLeft: MAX_LAYOUT_ERRORS });

/** One row's cells, left to right, by the grammar; `zones` are the declared zone ids. */
function readRow(row: string, seats: string, zones: ReadonlySet<string>, budget: LayoutBudget): RowRead {
  const cells: LayoutCell[] = [];
  const errors: LayoutError[] = [];
  const err = (cell: string | null, message: string) => {
    errors.push({ row, cell, message: `Row ${row}: ${message}` });
    budget.errorsLeft -= 1;
  };
  const seen = new Set<number>();
  let over = false;
  let direction = 0; // +1 numbered rightwards, -1 leftwards, 0 not yet known
  let last: number | null = null;
  const tokens = seats.trim() === '' ? [] : seats.trim().split(/\s+/);
  for (const tok of tokens) {
    if (budget.errorsLeft <= 0) break;
    const m = CELL_RE.exec(tok);
    if (!m) {
      err(tok, `"${tok}" is not a cell: ${GRAMMAR}`);
      continue;
    }
    if (m[1]) {
      cells.push({ kind: 'gap', col: cells.length });
      continue;
    }
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    const flag = m[4];
    const zone = m[5] ?? null;
    if (from === 0 || to === 0) {
      err(tok, `seat numbers start at 1 (write ${tok.replace(/\b0\b/, '1')})`);
      continue;
    }
    if (zone !== null && !zones.has(zone)) {
      err(
        tok,
        zones.size === 0
          ? `the zone "${zone}" is not declared: declare it in the file's zones (a JSON file; the CSV shorthand has no zones)`
          : `the zone "${zone}" is not declared: use one of ${[...zones].join(', ')}, or declare it in zones`,
      );
      continue;
    }
    const step = to >= from ? 1 : -1;
    const size = Math.abs(to - from) + 1;
    // Past the layout's limit a range is counted, never expanded; the first one says so.
    if (size > budget.seatsLeft) {
      if (budget.over === 0)
        err(
          tok,
          `${tok} takes the layout past ${MAX_LAYOUT_SEATS} seats: at most ${MAX_LAYOUT_SEATS} in one screen. Check the ranges (1-200?)`,
        );
      budget.over += size;
      over = true;
      continue;
    }
    const twice = Array.from({ length: size }, (_, k) => from + k * step).filter((n) => seen.has(n));
    if (twice.length > 0) {
      err(tok, `seat ${row}${twice[0]} is written twice: each seat once per row`);
      continue;
    }
    if (from !== to) {
      if (direction !== 0 && step !== direction) {
        err(
          tok,
          `${tok} runs ${step > 0 ? 'left to right' : 'right to left'} but the row is numbered ${direction > 0 ? 'left to right' : 'right to left'}: number the whole row one way`,
        );
        continue;
      }
    }
    if (last !== null) {
      const dir = from > last ? 1 : -1;
      if (direction !== 0 && dir !== direction) {
        err(
          tok,
          `seat ${from} comes after seat ${last} but the row is numbered ${direction > 0 ? 'left to right' : 'right to left'}: number the whole row one way`,
        );
        continue;
      }
      direction = dir;
    }
    if (from !== to) direction = step;
    for (let n = from; ; n += step) {
      seen.add(n);
      cells.push({
        kind: 'seat',
        col: cells.length,
        id: `${row}${n}`,
        number: n,
        blocked: flag === 'x',
        wheelchair: flag === 'w',
        companion: flag === 'c',
        zone,
      });
      last = n;
      if (n === to) break;
    }
    budget.seatsLeft -= size;
  }
  if (errors.length === 0 && !over && !cells.some((c) => c.kind === 'seat'))
    err(null, 'the row has no seats: write its seats (for example 1-12) or remove the row');
  return { cells, errors };
}

function checkZones(zones: readonly SeatZone[]): LayoutError[] {
  const seen = new Set<string>();
  const errors: LayoutError[] = [];
  for (const z of zones) {
    if (seen.has(z.id)) errors.push(fileError(`The zone ${z.id} is declared twice: declare each zone once`));
    seen.add(z.id);
  }
  return errors;
}

/** The rows read and checked against each other: every row once, the seats within the limit, one seat to sell at least. */
function checkRows(file: LayoutFile): LayoutParse {
  const errors: LayoutError[] = checkZones(file.zones);
  const zoneIds = new Set(file.zones.map((z) => z.id));
  const rows: ScreenLayout['rows'] = [];
  const seenRows = new Set<string>();
  const budget = newBudget();
  budget.errorsLeft -= errors.length;
  let seats = 0;
  let capacity = 0;
  for (const r of file.rows) {
    if (budget.errorsLeft <= 0) break;
    if (seenRows.has(r.row)) {
      errors.push({ row: r.row, cell: null, message: `Row ${r.row} is listed twice: list each row once` });
      budget.errorsLeft -= 1;
      continue;
    }
    seenRows.add(r.row);
    const read = readRow(r.row, r.seats, zoneIds, budget);
    errors.push(...read.errors);
    for (const c of read.cells) {
      if (c.kind !== 'seat') continue;
      seats += 1;
      if (!c.blocked) capacity += 1;
    }
    rows.push({ row: r.row, cells: read.cells });
  }
  if (budget.over > 0)
    errors.push(
      fileError(
        `The layout has ${seats + budget.over} seats: at most ${MAX_LAYOUT_SEATS} in one screen. Check the ranges (1-200?)`,
      ),
    );
  if (errors.length === 0 && capacity === 0)
    errors.push(fileError('Every seat is blocked: a layout needs at least one seat that can be sold'));
  if (errors.length > 0) return refused(errors);
  const width = Math.max(1, ...rows.map((r) => r.cells.length));
  return { kind: 'ok', layout: { screen: file.screen.trim(), zones: file.zones, rows, width, capacity } };
}

type CsvRead = { kind: 'file'; file: unknown } | { kind: 'errors'; errors: LayoutError[] };

/** The screen's name a CSV shorthand file gets when it has no `screen,…` line: its file name ("Screen 1.csv"). */
function screenFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.[^.]*$/, '').trim();
}

const unquote = (v: string) =>
  v
    .trim()
    .replace(/^"(.*)"$/s, '$1')
    .trim();

/**
 * The CSV shorthand: an optional `screen,<name>` line (else the file's name), an optional header
 * `row,seats`, then one `row,seats` line per row, front first. No zones.
 */
function readCsvShorthand(text: string, fileName: string): CsvRead {
  const errors: LayoutError[] = [];
  let screen: string | null = null;
  const rows: { row: string; seats: string }[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const comma = line.indexOf(',');
    const first = unquote(comma < 0 ? line : line.slice(0, comma));
    const rest = comma < 0 ? '' : unquote(line.slice(comma + 1));
    if (first.toLowerCase() === 'screen' && rows.length === 0) {
      screen = rest;
      return;
    }
    if (first.toLowerCase() === 'row' && rest.toLowerCase() === 'seats') return;
    if (comma < 0) {
      errors.push({
        row: first.toUpperCase() || null,
        cell: null,
        message: `Line ${i + 1}: write the row, a comma, then its seats (for example F,1-12 _ 13-24)`,
      });
      return;
    }
    rows.push({ row: first.toUpperCase(), seats: rest });
  });
  if (errors.length > 0) return { kind: 'errors', errors };
  const name = screen ?? screenFromFileName(fileName);
  if (!name)
    return {
      kind: 'errors',
      errors: [fileError('Name the screen: a first line screen,<its name> (for example screen,Screen 1)')],
    };
  if (rows.length === 0)
    return { kind: 'errors', errors: [fileError('The file has no rows: one line per row, row,seats (F,1-12)')] };
  return { kind: 'file', file: { format: 'counterpay-seat-layout/1', screen: name, zones: [], rows } };
}
