// The basket's keys as pure rules: the ticket types typed in a few keys (`2a1c`: 2 Adult, 1 Child,
// in seat order), the concessions pad (a code, the digits of a position, or words of a name), the
// lines and their quantities (`+`/`-`), a combo's choices, the tender as typed, and the basket a
// door sends. No money is added up here: the engine prices the basket (`sale.priceBasket`).
import type { BasketInput, Tender, TenderKind } from '../../../shared/basket';
import { MAX_LINE_QUANTITY } from '../../../shared/basket';
import { isSoldOut, type Catalogue } from '../../../shared/catalogue';
import { parseNaira } from '../../../shared/money';
import type { ShowView, TicketType } from '../../../shared/programme';

// ---- ticket types per seat ----

export type TypeKeys = { ok: true; types: string[] } | { ok: false; message: string };

/** The show's ticket type a few letters name: the one whose name starts with them (any case), if only one does. */
export function typeByLetters(types: readonly TicketType[], letters: string): TicketType | string {
  const l = letters.toLowerCase();
  const exact = types.find((t) => t.name.toLowerCase() === l);
  if (exact) return exact;
  const starts = types.filter((t) => t.name.toLowerCase().startsWith(l));
  if (starts.length === 1) return starts[0]!;
  const names = types.map((t) => `${t.name.slice(0, 1).toLowerCase()} ${t.name}`).join(', ');
  return starts.length === 0
    ? `No ticket type starts with “${letters}”: type ${names}`
    : `“${letters}” could be ${starts.map((t) => t.name).join(' or ')}: type more letters`;
}

/**
 * `2a1c` (or `2a 1c`, `a a c`, `2 adult 1 child`) for `seats` seats: the ticket type of each seat in
 * seat order. A count left out is 1; seats the keys leave over keep `rest` (the show's chosen type).
 */
export function parseTypeKeys(
  text: string,
  show: Pick<ShowView, 'ticketTypes'>,
  seats: number,
  rest: string,
): TypeKeys {
  const clean = text.trim();
  const out: string[] = [];
  if (clean !== '') {
    const re = /\s*(\d*)\s*([a-z]+)\s*/giy;
    let at = 0;
    for (let m = re.exec(clean); m; m = re.exec(clean)) {
      at = re.lastIndex;
      const type = typeByLetters(show.ticketTypes, m[2]!);
      if (typeof type === 'string') return { ok: false, message: type };
      const n = m[1] === '' ? 1 : Number(m[1]);
      if (n === 0) return { ok: false, message: `0 ${type.name}: leave it out, or type how many` };
      for (let i = 0; i < n; i++) out.push(type.name);
    }
    if (at !== clean.length)
      return {
        ok: false,
        message: `Type a number and the first letter of a ticket type, e.g. 2a1c for 2 Adult 1 Child`,
      };
  }
  if (out.length > seats)
    return {
      ok: false,
      message: `${out.length} tickets typed for ${seats} seat${seats === 1 ? '' : 's'}: pick more seats or type fewer`,
    };
  while (out.length < seats) out.push(rest);
  return { ok: true, types: out };
}

/** "2 Adult, 1 Child": the types of the seats in words, in the order first chosen. */
export function typesInWords(types: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${t}`).join(', ');
}

/** The keys that give these types back (`2a1c`), for a row of seats set one by one. */
export function typeKeysOf(types: readonly string[], show: Pick<ShowView, 'ticketTypes'>): string {
  const parts: string[] = [];
  let i = 0;
  while (i < types.length) {
    let j = i;
    while (j < types.length && types[j] === types[i]) j++;
    parts.push(`${j - i}${shortestLetters(show.ticketTypes, types[i]!)}`);
    i = j;
  }
  return parts.join('');
}

function shortestLetters(types: readonly TicketType[], name: string): string {
  for (let n = 1; n <= name.length; n++) {
    const letters = name.slice(0, n).toLowerCase();
    const found = typeByLetters(types, letters);
    if (typeof found !== 'string' && found.name === name) return letters;
  }
  return name.toLowerCase();
}

// ---- the concessions pad ----

/** An entry of the pad: an item or a combo, with its number on the pad (from 1). */
export interface PadEntry {
  kind: 'item' | 'combo';
  position: number;
  code: string;
  name: string;
  category: string;
  priceKobo: number;
  soldOut: boolean;
}

/** The catalogue as the pad lists it: items then combos, numbered from 1. */
export function padEntries(c: Catalogue): PadEntry[] {
  const entries: PadEntry[] = [];
  for (const it of c.items) entries.push({ kind: 'item', position: 0, ...pick(it), soldOut: isSoldOut(it) });
  for (const co of c.combos) entries.push({ kind: 'combo', position: 0, ...pick(co), soldOut: co.soldOut });
  return entries.map((e, i) => ({ ...e, position: i + 1 }));
}
function pick(e: { code: string; name: string; category: string; priceKobo: number }) {
  return { code: e.code, name: e.name, category: e.category, priceKobo: e.priceKobo };
}

/**
 * What the pad's box finds for what was typed, best first: the code exactly, then the entry at that
 * position (digits), then codes starting with it, then names holding every word.
 */
export function padFind(entries: readonly PadEntry[], query: string): PadEntry[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...entries];
  const found: PadEntry[] = [];
  const add = (e: PadEntry | undefined) => {
    if (e && !found.includes(e)) found.push(e);
  };
  add(entries.find((e) => e.code.toLowerCase() === q));
  if (/^\d+$/.test(q)) add(entries.find((e) => e.position === Number(q)));
  for (const e of entries) if (e.code.toLowerCase().startsWith(q)) add(e);
  const words = q.split(/\s+/);
  for (const e of entries) if (words.every((w) => e.name.toLowerCase().includes(w))) add(e);
  return found;
}

// ---- the concession lines ----

/** A concession line as the cashier builds it: the code, how many, a combo's choices (component → item code). */
export interface PadLine {
  code: string;
  quantity: number;
  choices: Record<string, string>;
}

/** A combo's component that asks a choice (more than one item), with its items by key (1, 2, 3…). */
export interface ChoiceAsk {
  line: number;
  component: string;
  options: { key: string; code: string; name: string; soldOut: boolean }[];
}

/** Adds an entry: an item already in the basket gets one more; a combo is a line of its own (its choices asked). */
export function addLine(lines: readonly PadLine[], code: string, c: Catalogue): { lines: PadLine[]; selected: number } {
  const isItem = c.items.some((i) => i.code === code);
  const at = isItem ? lines.findIndex((l) => l.code === code) : -1;
  if (at >= 0) return { lines: changeQuantity(lines, at, 1), selected: at };
  return { lines: [...lines, { code, quantity: 1, choices: {} }], selected: lines.length };
}

/** `+` / `-` on a line: its quantity up or down (1 to 99); `-` at 1 removes it. */
export function changeQuantity(lines: readonly PadLine[], index: number, step: 1 | -1): PadLine[] {
  const line = lines[index];
  if (!line) return [...lines];
  const q = line.quantity + step;
  if (q < 1) return lines.filter((_, i) => i !== index);
  return lines.map((l, i) => (i === index ? { ...l, quantity: Math.min(q, MAX_LINE_QUANTITY) } : l));
}

/** The next choice a combo line still needs, or null when all are made (or it is an item). */
export function nextChoice(lines: readonly PadLine[], index: number, c: Catalogue): ChoiceAsk | null {
  const line = lines[index];
  const combo = line ? c.combos.find((co) => co.code === line.code) : undefined;
  if (!line || !combo) return null;
  for (const comp of combo.components) {
    if (comp.options.length < 2 || line.choices[comp.name] !== undefined) continue;
    return {
      line: index,
      component: comp.name,
      options: comp.options.map((code, i) => {
        const item = c.items.find((it) => it.code === code);
        return { key: String(i + 1), code, name: item?.name ?? code, soldOut: item ? isSoldOut(item) : true };
      }),
    };
  }
  return null;
}

/** A choice made for a combo line. */
export function choose(lines: readonly PadLine[], index: number, component: string, code: string): PadLine[] {
  return lines.map((l, i) => (i === index ? { ...l, choices: { ...l.choices, [component]: code } } : l));
}

// ---- the tender ----

export interface TenderDraft {
  kind: TenderKind;
  /** Cash: the amount tendered; split: the cash part, in naira as typed. */
  cash: string;
}

/** The tender as typed, or why it cannot be sent yet. */
export function tenderOf(d: TenderDraft): { tender: Tender } | { missing: string } {
  if (d.kind === 'card') return { tender: { kind: 'card' } };
  const what = d.kind === 'cash' ? 'the cash tendered' : 'the cash part';
  if (d.cash.trim() === '') return { missing: `Type ${what}` };
  let kobo: number;
  try {
    kobo = parseNaira(d.cash);
  } catch (e) {
    return { missing: e instanceof Error ? e.message : String(e) };
  }
  return d.kind === 'cash'
    ? { tender: { kind: 'cash', tenderedKobo: kobo } }
    : { tender: { kind: 'split', cashKobo: kobo } };
}

// ---- the basket ----

export interface TicketsPart {
  show: Pick<ShowView, 'filmName' | 'filmTitle' | 'date' | 'time'>;
  seats: readonly string[];
  types: readonly string[];
}

/** The basket a door sends: the tickets (when seats are chosen), the concession lines, the tender. */
export function basketOf(tickets: TicketsPart | null, lines: readonly PadLine[], tender: Tender): BasketInput {
  return {
    ...(tickets && tickets.seats.length > 0
      ? {
          tickets: {
            filmName: tickets.show.filmName,
            filmTitle: tickets.show.filmTitle,
            showDate: tickets.show.date,
            showTime: tickets.show.time,
            seats: tickets.seats.map((seat, i) => ({ seat, ticketType: tickets.types[i] ?? '' })),
          },
        }
      : {}),
    concessions: lines.map((l) => ({ code: l.code, quantity: l.quantity, choices: { ...l.choices } })),
    tender,
  };
}

/** The engine's problems sorted to where the screen shows them: a seat, a concession line, the tender, or the basket. */
export interface PlacedProblems {
  seats: Map<number, string[]>;
  lines: Map<number, string[]>;
  tender: string[];
  basket: string[];
}

export function placeProblems(
  problems: readonly { path: readonly (string | number)[]; message: string }[],
): PlacedProblems {
  const out: PlacedProblems = { seats: new Map(), lines: new Map(), tender: [], basket: [] };
  const put = (m: Map<number, string[]>, i: number, msg: string) => m.set(i, [...(m.get(i) ?? []), msg]);
  for (const p of problems) {
    const [a, b, c] = p.path;
    if (a === 'tickets' && b === 'seats' && typeof c === 'number') put(out.seats, c, p.message);
    else if (a === 'concessions' && typeof b === 'number') put(out.lines, b, p.message);
    else if (a === 'tender') out.tender.push(p.message);
    else out.basket.push(p.message);
  }
  return out;
}

/** Only the tender is wrong (the lines priced fine): the lines can be priced by card meanwhile. */
export function onlyTender(problems: readonly { path: readonly (string | number)[] }[]): boolean {
  return problems.length > 0 && problems.every((p) => p.path[0] === 'tender');
}
