// The sale form as typed (strings) and how it becomes a SaleInput: naira to kobo with parseNaira,
// the shared SaleInputSchema for instant per-field messages, seats kept in step with tickets. The
// booking fee is typed per ticket (`fee`), as the programme has it; the sale carries it for all tickets.
import { issueFields } from '../../../shared/errors';
import { koboToNairaString, parseNaira } from '../../../shared/money';
import {
  bookingFeeForSale,
  saleAmounts,
  SaleInputSchema,
  type FilmMemory,
  type SaleInput,
} from '../../../shared/orders';
import { splitSeats } from '../../../shared/seat-list';
import type { ShowView } from '../../../shared/programme';

export type { FilmMemory } from '../../../shared/orders';

export interface SaleDraft {
  filmName: string;
  filmTitle: string;
  showDate: string;
  showTime: string;
  seats: string;
  tickets: string;
  price: string;
  /** Booking fee per ticket, in naira as typed. */
  fee: string;
}
export type DraftKey = keyof SaleDraft;

/** Draft keys in screen order (the first invalid one gets the focus). */
const DRAFT_KEYS: DraftKey[] = ['filmName', 'filmTitle', 'showDate', 'showTime', 'seats', 'tickets', 'price', 'fee'];

/** Error keys of SaleInputSchema / the server that name a different draft field. */
const ERROR_TO_DRAFT: Record<string, DraftKey> = { priceKobo: 'price', bookingFeeKobo: 'fee' };

export function draftKeyOf(errorKey: string): DraftKey | 'sn' | null {
  const head = errorKey.split('.')[0] ?? '';
  if (head === 'sn') return 'sn';
  if (head in ERROR_TO_DRAFT) return ERROR_TO_DRAFT[head]!;
  return (DRAFT_KEYS as string[]).includes(head) ? (head as DraftKey) : null;
}

export function emptyDraft(today = '', showTime = ''): SaleDraft {
  return { filmName: '', filmTitle: '', showDate: today, showTime, seats: '', tickets: '', price: '', fee: '' };
}

/**
 * "250000" kobo -> "2500", "250050" -> "2500.50": what a cashier would type.
 * @internal for tests
 */
export function nairaInput(kobo: number): string {
  const s = koboToNairaString(kobo);
  return s.endsWith('.00') ? s.slice(0, -3) : s;
}

function findFilm(films: FilmMemory[], name: string): FilmMemory | undefined {
  const key = name.trim().toLowerCase();
  if (!key) return undefined;
  return films.find((f) => f.filmName.trim().toLowerCase() === key);
}

/** Applies one edit, with its knock-on effects: a known film fills title, price and fee per ticket; seats set the ticket count. */
export function editDraft(draft: SaleDraft, key: DraftKey, value: string, films: FilmMemory[]): SaleDraft {
  const next = { ...draft, [key]: value };
  if (key === 'filmName') {
    const film = findFilm(films, value);
    if (film) {
      next.filmName = film.filmName;
      next.filmTitle = film.filmTitle;
      next.price = nairaInput(film.priceKobo);
      next.fee = film.bookingFeePerTicketKobo === undefined ? '' : nairaInput(film.bookingFeePerTicketKobo);
    }
  }
  if (key === 'seats') {
    const n = splitSeats(value).filter(Boolean).length;
    if (n > 0) next.tickets = String(n);
  }
  return next;
}

/** The programme's show this hand-typed draft names (film name or title, date and time all match), or null. */
function programmeShowFor(draft: SaleDraft, shows: readonly ShowView[]): ShowView | null {
  const film = draft.filmName.trim().toLowerCase();
  const time = tidyTime(draft.showTime.trim());
  if (!film) return null;
  return (
    shows.find(
      (s) =>
        (s.filmName.toLowerCase() === film || s.filmTitle.toLowerCase() === film) &&
        s.date === draft.showDate.trim() &&
        s.time === time,
    ) ?? null
  );
}

/**
 * A draft that names a show of the programme takes the programme's title, price and booking fee
 * per ticket (its first ticket type), whatever an older sale of the
 * same film was charged: the same show costs the same, typed or picked.
 */
export function fillFromProgramme(draft: SaleDraft, shows: readonly ShowView[]): SaleDraft {
  const show = programmeShowFor(draft, shows);
  const type = show?.ticketTypes[0];
  if (!show || !type) return draft;
  return {
    ...draft,
    filmTitle: show.filmTitle,
    price: nairaInput(type.priceKobo),
    fee: nairaInput(type.bookingFeeKobo),
  };
}

/** What the cashier meant by a quick time: "1930" -> "19:30", "7:30" -> "07:30"; anything else unchanged. */
export function tidyTime(v: string): string {
  const t = v.trim().replace('.', ':');
  let m = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (!m) m = /^(\d{1,2})(\d{2})$/.exec(t);
  if (!m) return v;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h <= 23 && min <= 59 ? `${String(h).padStart(2, '0')}:${m[2]}` : v;
}

function money(text: string, emptyMeans: number | undefined): number | undefined | { error: string } {
  if (text.trim() === '') return emptyMeans;
  try {
    return parseNaira(text);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

interface DraftCheck {
  /** The input to send, when every field is fine. */
  input: SaleInput | null;
  /** Messages keyed by draft key (and 'sn' for the terminal). */
  errors: Partial<Record<DraftKey | 'sn', string>>;
  /** What the customer pays, when tickets, price and fee can be read. */
  totalKobo: number | null;
  ticketsKobo: number | null;
  /** The booking fee of all the tickets (fee per ticket × tickets), when it can be read. */
  bookingFeeKobo: number | null;
}

export function checkDraft(draft: SaleDraft, sn: string | null): DraftCheck {
  const errors: DraftCheck['errors'] = {};
  const price = money(draft.price, undefined);
  const fee = money(draft.fee, 0);
  if (typeof price === 'object') errors.price = price.error;
  if (typeof fee === 'object') errors.fee = fee.error;
  const ticketsText = draft.tickets.trim();
  const tickets = ticketsText === '' ? undefined : /^\d+$/.test(ticketsText) ? Number(ticketsText) : Number.NaN;
  const countable = typeof tickets === 'number' && Number.isInteger(tickets) && tickets > 0;
  // The fee per ticket times the tickets; a fee with no ticket count yet is checked as typed.
  const saleFee = typeof fee === 'number' ? (countable ? bookingFeeForSale(tickets, fee) : fee) : undefined;

  const candidate = {
    filmName: draft.filmName,
    filmTitle: draft.filmTitle,
    showDate: draft.showDate,
    showTime: draft.showTime,
    seats: draft.seats,
    tickets,
    priceKobo: typeof price === 'number' ? price : undefined,
    bookingFeeKobo: saleFee,
    sn: sn ?? '',
  };
  const parsed = SaleInputSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(issueFields(parsed.error.issues))) {
      const key = draftKeyOf(path);
      if (key && !errors[key]) errors[key] = message;
    }
  }
  if (!sn) errors.sn = 'No terminal yet: choose the serial port or type the terminal serial number (SN) under Terminal';

  let ticketsKobo: number | null = null;
  let totalKobo: number | null = null;
  let bookingFeeKobo: number | null = null;
  if (countable && typeof price === 'number' && typeof saleFee === 'number' && Number.isSafeInteger(saleFee)) {
    // The engine's own sum (shared/orders.ts): the form shows what the sale will charge, never its own arithmetic.
    try {
      const a = saleAmounts({ tickets: tickets!, priceKobo: price, bookingFeeKobo: saleFee });
      ticketsKobo = a.ticketsKobo;
      bookingFeeKobo = a.bookingFeeKobo;
      totalKobo = a.amountKobo;
    } catch {
      // Out of range: no total shown; the field's own error says what to fix.
    }
  }
  const ok = Object.keys(errors).length === 0 && parsed.success;
  return {
    input: ok
      ? { ...candidate, tickets: tickets!, priceKobo: price as number, bookingFeeKobo: saleFee as number, sn: sn! }
      : null,
    errors,
    totalKobo,
    ticketsKobo,
    bookingFeeKobo,
  };
}

export function sameDraft(a: SaleDraft, b: SaleDraft): boolean {
  return DRAFT_KEYS.every((k) => a[k] === b[k]);
}
