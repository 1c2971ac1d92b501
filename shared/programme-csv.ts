// A programme file, checked whole before anything is kept: the header, every value of every row
// (money exact: ₦ with at most two decimals becomes kobo), then the rows against each other (one
// film has one title; one screen shows one film at a time; a ticket type once per show). Errors
// name the line and the column, as the top-up batch does; any error and nothing is kept. Shared:
// the counter's import and the Hub's (the manager's upload) use these very rules.
import { readCsvTable, type CsvTableSpec } from './csv-table';
import { parseNaira } from './money';
import { MAX_PROGRAMME_ROWS, TIME_RE, isCalendarDate, showKey, type Programme, type Show } from './programme';
import type { RowError } from './topups';

export const PROGRAMME_COLUMNS = [
  'film',
  'title',
  'rating',
  'screen',
  'date',
  'time',
  'ticketType',
  'price',
  'bookingFee',
] as const;
type ProgrammeColumn = (typeof PROGRAMME_COLUMNS)[number];
const LAYOUT = PROGRAMME_COLUMNS.join(',');
const HEADER_ALIASES: Record<string, ProgrammeColumn> = {
  film: 'film',
  filmname: 'film',
  name: 'film',
  title: 'title',
  filmtitle: 'title',
  printedtitle: 'title',
  titleasprinted: 'title',
  rating: 'rating',
  classification: 'rating',
  age: 'rating',
  screen: 'screen',
  hall: 'screen',
  auditorium: 'screen',
  date: 'date',
  showdate: 'date',
  day: 'date',
  time: 'time',
  showtime: 'time',
  starts: 'time',
  start: 'time',
  tickettype: 'ticketType',
  ticket: 'ticketType',
  type: 'ticketType',
  price: 'price',
  pricenaira: 'price',
  ticketprice: 'price',
  amount: 'price',
  bookingfee: 'bookingFee',
  fee: 'bookingFee',
  bookingfeenaira: 'bookingFee',
};
const TABLE: CsvTableSpec<ProgrammeColumn> = {
  aliases: HEADER_ALIASES,
  required: ['film', 'title', 'screen', 'date', 'time', 'ticketType', 'price'],
  layout: LAYOUT,
  optional: 'rating and bookingFee may be empty',
  maxRows: MAX_PROGRAMME_ROWS,
  what: 'programme',
  split: 'Split it by week.',
  exampleAmount: 4500,
};
const MAX_KOBO = 1_000_000_000;

/** The template offered for download: the header and two shows of two ticket types. */
export function programmeTemplate(today: string): string {
  return [
    LAYOUT,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${today},19:30,Adult,4500,200`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${today},19:30,Child,3000,200`,
    `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${today},18:00,Adult,3500,`,
    `Inside Out 2,INSIDE OUT 2,PG,Screen 2,${today},18:00,Child,2500,`,
    '',
  ].join('\r\n');
}

interface ProgrammeFileCheck {
  /** The whole programme when every row is right; null otherwise. */
  programme: Programme | null;
  totalRows: number;
  errors: RowError[];
}

function money(text: string, what: string, opts: { emptyIs?: number; positive: boolean }): number | string {
  const t = text.trim();
  if (t === '') return opts.emptyIs ?? `Enter the ${what} in naira, for example 4500 or 4500.50`;
  let kobo: number;
  try {
    kobo = parseNaira(t);
  } catch {
    return `"${t}" is not a ${what} in naira: write it like 4500 or 4500.50 (at most two decimals, no other signs)`;
  }
  if (opts.positive && kobo <= 0) return `The ${what} must be more than ₦0.00`;
  if (kobo > MAX_KOBO) return `The ${what} looks wrong (over ₦10,000,000): check it`;
  return kobo;
}

export function checkProgrammeFile(text: string): ProgrammeFileCheck {
  const table = readCsvTable(text, TABLE);
  if (!table.ok) return { programme: null, totalRows: table.totalRows, errors: table.errors };
  const { syntax, totalRows } = table;

  const errors: RowError[] = [...syntax];
  const films = new Map<string, { name: string; title: string; rating: string; line: number }>();
  const screens = new Map<string, string>();
  const shows = new Map<string, Show & { line: number; types: Map<string, number> }>();
  const cell = (fields: string[], col: ProgrammeColumn): string => table.cell(fields, col).trim();

  for (const rec of table.rows) {
    const add = (column: string, message: string) => errors.push({ line: rec.line, column, message });
    const before = errors.length;
    const tooWide = table.widthProblem(rec);
    if (tooWide) {
      add('', tooWide);
      continue;
    }
    const v = Object.fromEntries(PROGRAMME_COLUMNS.map((c) => [c, cell(rec.fields, c)])) as Record<
      ProgrammeColumn,
      string
    >;
    const text = (col: ProgrammeColumn, what: string, max: number, required = true) => {
      if (required && v[col] === '') add(col, `Enter the ${what}`);
      else if (v[col].length > max) add(col, `The ${what} is at most ${max} characters`);
    };
    text('film', 'film name', 100);
    text('title', 'film title as printed on the ticket', 100);
    text('rating', 'rating', 10, false);
    text('screen', 'screen', 40);
    text('ticketType', 'ticket type (Adult, Child, Student…)', 30);
    if (!isCalendarDate(v.date))
      add(
        'date',
        v.date === ''
          ? 'Enter the show date as yyyy-MM-dd, for example 2025-03-31'
          : `"${v.date}" is not a date: write it as yyyy-MM-dd, for example 2025-03-31`,
      );
    if (!TIME_RE.test(v.time))
      add(
        'time',
        v.time === ''
          ? 'Enter the show time as HH:mm, for example 19:30'
          : `"${v.time}" is not a time: write it as HH:mm (24-hour), for example 19:30`,
      );
    const price = money(v.price, 'price', { positive: true });
    const fee = money(v.bookingFee, 'booking fee', { emptyIs: 0, positive: false });
    if (typeof price === 'string') add('price', price);
    if (typeof fee === 'string') add('bookingFee', fee);
    if (errors.length > before) continue;

    // The row against the rows before it.
    const filmKey = v.film.toLowerCase();
    const film = films.get(filmKey);
    if (!film) films.set(filmKey, { name: v.film, title: v.title, rating: v.rating, line: rec.line });
    else {
      if (film.title !== v.title)
        add('title', `Line ${film.line} gives ${film.name} the title "${film.title}": one film has one title`);
      if (film.rating !== v.rating)
        add('rating', `Line ${film.line} gives ${film.name} the rating "${film.rating}": one film has one rating`);
    }
    if (!screens.has(v.screen.toLowerCase())) screens.set(v.screen.toLowerCase(), v.screen);
    const key = showKey({ date: v.date, time: v.time, screen: v.screen });
    const show = shows.get(key);
    const type = { name: v.ticketType, priceKobo: price as number, bookingFeeKobo: fee as number };
    if (!show) {
      shows.set(key, {
        film: film?.name ?? v.film,
        screen: screens.get(v.screen.toLowerCase())!,
        date: v.date,
        time: v.time,
        ticketTypes: [type],
        line: rec.line,
        types: new Map([[v.ticketType.toLowerCase(), rec.line]]),
      });
    } else if (show.film.toLowerCase() !== filmKey) {
      add(
        'film',
        `Line ${show.line} has ${show.film} on ${show.screen} at ${v.date} ${v.time}: one screen shows one film at a time`,
      );
    } else if (show.types.has(v.ticketType.toLowerCase())) {
      add(
        'ticketType',
        `Line ${show.types.get(v.ticketType.toLowerCase())} already has the ticket type ${v.ticketType} for this show`,
      );
    } else {
      show.types.set(v.ticketType.toLowerCase(), rec.line);
      show.ticketTypes.push(type);
    }
  }
  errors.sort((a, b) => a.line - b.line);
  if (errors.length > 0) return { programme: null, totalRows, errors };
  const programme: Programme = {
    films: [...films.values()].map((f) => ({ name: f.name, title: f.title, rating: f.rating })),
    screens: [...screens.values()],
    shows: [...shows.values()].map((s) => ({
      film: s.film,
      screen: s.screen,
      date: s.date,
      time: s.time,
      ticketTypes: s.ticketTypes,
    })),
  };
  return { programme, totalRows, errors: [] };
}
