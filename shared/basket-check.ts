// A basket judged whole against the show's ticket types and the branch's catalogue: every problem
// names its line (the seat, or the concession line and what it is) and says what to fix; a basket
// without a problem comes back priced, with its amounts. Pure: the engine applies it below every
// door, a screen may apply it as the cashier types. Rules: docs/concessions.md.
import {
  BasketSchema,
  basketAmounts,
  itemsTaken,
  lineAmount,
  type Basket,
  type BasketAmounts,
  type BasketLine,
  type ChosenItem,
  type ConcessionLine,
  type ConcessionPricedLine,
  type TicketsLine,
} from './basket';
import { isSoldOut, type Catalogue, type Combo, type ConcessionItem } from './catalogue';
import { formatNaira } from './money';
import { bookingFeeForSale } from './orders';
import type { TicketType } from './programme';

/** A problem of a basket: where (`tickets.seats.2.ticketType`, `concessions.1.choices.Drink`, `tender.tenderedKobo`) and what to fix. */
export interface BasketProblem {
  path: (string | number)[];
  message: string;
}

/** What a basket is checked against. */
export interface BasketContext {
  /** The show's ticket types (from the programme); needed when the basket has tickets. */
  ticketTypes?: readonly TicketType[];
  /** The branch's catalogue; needed when the basket has concessions. */
  catalogue?: Catalogue;
}

export type BasketCheck =
  { ok: true; basket: Basket; lines: BasketLine[]; amounts: BasketAmounts } | { ok: false; problems: BasketProblem[] };

/** "A, B or C". */
function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** How a problem names its line, from the path and what the door sent. */
function lineName(path: readonly PropertyKey[], input: unknown): string | null {
  const [part, index, seatIndex] = path;
  const at = (v: unknown, k: PropertyKey): unknown =>
    typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  if (part === 'concessions' && typeof index === 'number') {
    const c = at(at(at(input, 'concessions'), index), 'code');
    const named = typeof c === 'string' && c.trim() !== '' ? c.trim() : null;
    return `Concessions, line ${index + 1}${named ? ` (${named.toUpperCase()})` : ''}`;
  }
  if (part === 'tickets' && index === 'seats' && typeof seatIndex === 'number') {
    const s = at(at(at(at(input, 'tickets'), 'seats'), seatIndex), 'seat');
    return typeof s === 'string' && s.trim() !== '' ? `Seat ${s.trim().toUpperCase()}` : `Seat ${seatIndex + 1}`;
  }
  return null;
}

function ticketLines(basket: Basket, types: readonly TicketType[], problems: BasketProblem[]): TicketsLine[] {
  const lines = new Map<string, TicketsLine>();
  const offered = orList(types.map((t) => t.name));
  basket.tickets?.seats.forEach((s, i) => {
    const type = types.find((t) => t.name.toLowerCase() === s.ticketType.toLowerCase());
    if (!type) {
      problems.push({
        path: ['tickets', 'seats', i, 'ticketType'],
        message:
          types.length === 0
            ? `Seat ${s.seat}: the show has no ticket types in the programme`
            : `Seat ${s.seat}: the show has no ticket type "${s.ticketType}"; choose ${offered}`,
      });
      return;
    }
    const line = lines.get(type.name) ?? {
      kind: 'tickets' as const,
      ticketType: type.name,
      seats: [],
      quantity: 0,
      unitKobo: type.priceKobo,
      feePerTicketKobo: type.bookingFeeKobo,
      amountKobo: 0,
      bookingFeeKobo: 0,
    };
    line.seats.push(s.seat);
    line.quantity++;
    line.amountKobo = lineAmount(line.quantity, line.unitKobo);
    line.bookingFeeKobo = bookingFeeForSale(line.quantity, line.feePerTicketKobo);
    lines.set(type.name, line);
  });
  return [...lines.values()];
}

/** The items a combo line holds (its choices resolved), or null with the problems said. */
function comboChosen(
  combo: Combo,
  line: ConcessionLine,
  at: (string | number)[],
  name: string,
  items: ReadonlyMap<string, ConcessionItem>,
  problems: BasketProblem[],
): ChosenItem[] | null {
  const before = problems.length;
  const chosen: ChosenItem[] = [];
  const given = new Map(Object.entries(line.choices).map(([k, v]) => [k.toLowerCase(), { key: k, code: v }]));
  for (const comp of combo.components) {
    const choice = given.get(comp.name.toLowerCase());
    given.delete(comp.name.toLowerCase());
    const options = comp.options.map((o) => items.get(o)).filter((o): o is ConcessionItem => o !== undefined);
    const available = options.filter((o) => !isSoldOut(o));
    const path = [...at, 'choices', choice?.key ?? comp.name];
    const say = (message: string) => problems.push({ path, message: `${name}: ${message}` });
    if (choice === undefined && options.length > 1) {
      say(
        available.length > 0
          ? `choose the ${comp.name}: ${orList(available.map((o) => o.name))}`
          : `every ${comp.name} is sold out: remove the combo`,
      );
      continue;
    }
    const item = choice === undefined ? options[0] : options.find((o) => o.code === choice.code);
    if (!item) {
      say(`${choice?.code ?? '?'} is not a ${comp.name} of this combo: choose ${orList(options.map((o) => o.name))}`);
      continue;
    }
    if (isSoldOut(item)) {
      const others = available.filter((o) => o.code !== item.code);
      say(
        others.length > 0
          ? `${item.name} is sold out: choose another ${comp.name} (${orList(others.map((o) => o.name))})`
          : `${item.name} is sold out, and so the combo: remove it`,
      );
      continue;
    }
    chosen.push({ component: comp.name, code: item.code, name: item.name, choice: options.length > 1 });
  }
  for (const { key } of given.values())
    problems.push({
      path: [...at, 'choices', key],
      message: `${name}: the combo has no ${key} to choose; its parts are ${orList(combo.components.map((c) => c.name))}`,
    });
  return problems.length > before ? null : chosen;
}

function concessionLines(basket: Basket, catalogue: Catalogue | undefined, problems: BasketProblem[]) {
  const items = new Map((catalogue?.items ?? []).map((i) => [i.code, i]));
  const combos = new Map((catalogue?.combos ?? []).map((c) => [c.code, c]));
  const lines: ConcessionPricedLine[] = [];
  /** The basket's index of each priced line. */
  const indexes: number[] = [];
  basket.concessions.forEach((line, i) => {
    const at = ['concessions', i];
    const item = items.get(line.code);
    const combo = combos.get(line.code);
    const entry = item ?? combo;
    if (!entry) {
      problems.push({
        path: [...at, 'code'],
        message: `Concessions, line ${i + 1}: no item or combo has the code ${line.code}; check the code`,
      });
      return;
    }
    const name = `Concessions, line ${i + 1} (${entry.name})`;
    if (entry.soldOut || (item && isSoldOut(item))) {
      problems.push({ path: [...at, 'code'], message: `${name}: sold out; remove the line` });
      return;
    }
    let chosen: ChosenItem[] = [];
    if (item && Object.keys(line.choices).length > 0) {
      problems.push({ path: [...at, 'choices'], message: `${name}: an item has no choices; only a combo does` });
      return;
    }
    if (combo) {
      const c = comboChosen(combo, line, at, name, items, problems);
      if (!c) return;
      chosen = c;
    }
    lines.push({
      kind: item ? 'item' : 'combo',
      code: entry.code,
      name: entry.name,
      category: entry.category,
      quantity: line.quantity,
      unitKobo: entry.priceKobo,
      amountKobo: lineAmount(line.quantity, entry.priceKobo),
      chosen,
    });
    indexes.push(i);
  });
  return { lines, indexes, items };
}

/** Counted items the basket takes more of than are left: said once per item, on the first line that takes it. */
function stockProblems(c: ReturnType<typeof concessionLines>): BasketProblem[] {
  const problems: BasketProblem[] = [];
  for (const [code, taken] of itemsTaken(c.lines)) {
    const item = c.items.get(code);
    if (item?.stock === undefined || taken <= item.stock) continue;
    const first = c.lines.findIndex(
      (l) => l.code === code || (l.kind === 'combo' && l.chosen.some((x) => x.code === code)),
    );
    const i = c.indexes[first] ?? 0;
    problems.push({
      path: ['concessions', i, 'quantity'],
      message: `Concessions, line ${i + 1} (${c.lines[first]?.name ?? code}): only ${item.stock} ${item.name} left and the basket takes ${taken}; sell at most ${item.stock}`,
    });
  }
  return problems;
}

function tenderProblems(basket: Basket, amounts: BasketAmounts): BasketProblem[] {
  const t = basket.tender;
  const naira = formatNaira;
  if (t.kind === 'cash' && t.tenderedKobo < amounts.totalKobo)
    return [
      {
        path: ['tender', 'tenderedKobo'],
        message: `${naira(t.tenderedKobo)} tendered is less than the ${naira(amounts.totalKobo)} to pay: take at least ${naira(amounts.totalKobo)}, or split with card`,
      },
    ];
  if (t.kind !== 'split') return [];
  if (t.cashKobo <= 0)
    return [{ path: ['tender', 'cashKobo'], message: 'Enter the cash part (more than ₦0.00), or take it all by card' }];
  if (amounts.cardKobo <= 0)
    return [
      {
        path: ['tender', 'cashKobo'],
        message: `The cash part ${naira(t.cashKobo)} covers the whole ${naira(amounts.totalKobo)}: take it all as cash (a split leaves more than ₦0.00 for the card)`,
      },
    ];
  if (amounts.tenderedKobo < t.cashKobo)
    return [
      {
        path: ['tender', 'tenderedKobo'],
        message: `${naira(amounts.tenderedKobo)} tendered is less than the cash part ${naira(t.cashKobo)}: take at least ${naira(t.cashKobo)}`,
      },
    ];
  return [];
}

/** The basket judged whole: its shape, its lines against the show and the catalogue, stock, the tender. */
export function checkBasket(input: unknown, ctx: BasketContext): BasketCheck {
  const parsed = BasketSchema.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const line = lineName(issue.path, input);
        return {
          path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
          message: line ? `${line}: ${issue.message}` : issue.message,
        };
      }),
    };
  const basket = parsed.data;
  if (!basket.tickets && basket.concessions.length === 0)
    return { ok: false, problems: [{ path: [], message: 'The basket is empty: add tickets or concessions' }] };
  const problems: BasketProblem[] = [];
  const tickets = ticketLines(basket, ctx.ticketTypes ?? [], problems);
  const concessions = concessionLines(basket, ctx.catalogue, problems);
  const lines = [...tickets, ...concessions.lines];
  problems.push(...stockProblems(concessions));
  if (problems.length > 0) return { ok: false, problems };
  const amounts = basketAmounts(lines, basket.tender);
  const tender = tenderProblems(basket, amounts);
  if (tender.length > 0) return { ok: false, problems: tender };
  return { ok: true, basket, lines, amounts };
}
