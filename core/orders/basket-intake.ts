// Checks a basket before anything is recorded, below every door: the basket judged whole against
// the show's ticket types (the programme's) and the branch's catalogue (checkBasket: every problem
// names its line), the terminal its card part goes to, and the settings a card order needs. What
// comes back is what the journal records: the film part as the order's `sale`, the priced basket,
// and what the seat rules need. Rules: docs/concessions.md.
import { validationError } from '../../shared/errors';
import { BASKET_INVALID } from '../../shared/basket';
import { BasketSaleSchema, filmPartOf, type BasketSaleInput } from '../../shared/basket-sale';
import { checkBasket, type BasketCheck } from '../../shared/basket-check';
import type { Catalogue } from '../../shared/catalogue';
import type { Sale } from '../../shared/orders';
import type { TicketType } from '../../shared/programme';
import type { SoldBasket } from '../../shared/basket-sale';
import { markPricedByEngine } from '../../shared/hub-basket-contract';
import { checkCardSettings, type SaleSettings } from './sale-intake';
import { basketAmounts, TenderSchema } from '../../shared/basket';
import { exchangeMoney, exchangeTender } from '../../shared/exchange';

/** Where a basket's prices come from: the programme's show and the branch's catalogue. */
export interface BasketSources {
  /** The programme's show of a basket's tickets (the door's showKey, else its film, date and time): its key and ticket types; null when not in the programme. */
  show(t: { showKey?: string; filmName: string; showDate: string; showTime: string }): {
    showKey: string;
    ticketTypes: TicketType[];
  } | null;
  /** The branch's catalogue with each counted item's stock left (absent: none imported). */
  catalogue(): Catalogue | undefined;
}

/** No programme and no catalogue: a basket of tickets is refused (no ticket types), one of concessions too (no catalogue). */
export const NO_BASKET_SOURCES: BasketSources = { show: () => null, catalogue: () => undefined };

/** A basket ready to record. */
export interface BasketIntake {
  /** The film part (empty for concessions only) and the terminal: the order's `sale`. */
  sale: Sale;
  sold: SoldBasket;
  /** The programme's show of its tickets. */
  showKey?: string;
  /** Each seat's ticket type (the seat rules judge each seat by its zone). */
  seatTypes: Map<string, string>;
}

/** Is what a door sent a basket (it names its tender) rather than today's sale of one ticket type? */
export function isBasketInput(input: unknown): input is BasketSaleInput {
  return typeof input === 'object' && input !== null && 'tender' in input;
}

const fieldsOf = (problems: { path: (string | number)[]; message: string }[]) => {
  const out: Record<string, string> = {};
  for (const p of problems) out[p.path.length > 0 ? p.path.join('.') : 'basket'] ??= p.message;
  return out;
};

/** The engine's pricing of a basket (nothing recorded): what `sale.priceBasket` answers and `checkBasketSale` builds on. */
export function priceBasket(input: unknown, sources: BasketSources): BasketCheck & { showKey?: string } {
  const tickets = (input as { tickets?: unknown } | null)?.tickets;
  const t = BasketSaleSchema.shape.tickets.safeParse(tickets);
  const show = t.success && t.data ? sources.show(t.data) : null;
  if (t.success && t.data && !show)
    return {
      ok: false,
      problems: [
        {
          path: ['tickets'],
          message: `${t.data.filmName} at ${t.data.showTime} on ${t.data.showDate} is not in the programme: sell tickets from the programme (their types and prices are the programme's)`,
        },
      ],
    };
  const res = checkBasket(input, { ticketTypes: show?.ticketTypes ?? [], catalogue: sources.catalogue() });
  return res.ok && show ? { ...res, showKey: show.showKey } : res;
}

/**
 * The new sale of an exchange (docs/refunds.md): its lines priced as any basket's, the credit paying
 * the total first, the tender only the difference (`exchangeTender`: card, cash, or nothing to pay).
 */
function priceWithCredit(
  rest: Omit<BasketSaleInput, 'sn' | 'besideWaiting'>,
  sources: BasketSources,
  creditKobo: number,
) {
  const res = priceBasket({ ...rest, tender: { kind: 'card' } }, sources);
  if (!res.ok) return res;
  const asked = TenderSchema.safeParse(rest.tender);
  const money = exchangeMoney(creditKobo, res.amounts.totalKobo);
  const t = exchangeTender(money, asked.success ? asked.data : undefined);
  if (!t.ok) return { ok: false as const, problems: [{ path: t.path.split('.'), message: t.message }] };
  const basket = { ...res.basket, tender: t.tender };
  return { ...res, basket, amounts: basketAmounts(res.lines, t.tender, creditKobo) };
}

/**
 * The checked basket; throws VALIDATION (each problem under its line's path) or PROVIDER_NOT_CONFIGURED.
 * `creditKobo`: an exchange's new sale, part paid by the credit of the tickets it replaces.
 */
export function checkBasketSale(
  input: BasketSaleInput,
  sources: BasketSources,
  s: SaleSettings,
  creditKobo?: number,
): BasketIntake {
  const { sn: snIn, besideWaiting: _b, ...rest } = input;
  const sn = BasketSaleSchema.shape.sn.safeParse(snIn);
  if (!sn.success)
    throw validationError({ sn: sn.error.issues[0]?.message ?? 'Check the terminal serial number' }, BASKET_INVALID);
  const res = creditKobo === undefined ? priceBasket(rest, sources) : priceWithCredit(rest, sources, creditKobo);
  if (!res.ok) throw validationError(fieldsOf(res.problems), BASKET_INVALID);
  const sold: SoldBasket = markPricedByEngine({ lines: res.lines, tender: res.basket.tender, amounts: res.amounts });
  const film = filmPartOf(res.basket, sold);
  const cardKobo = res.amounts.cardKobo;
  if (cardKobo > 0 && !sn.data)
    throw validationError(
      { sn: 'Enter the terminal serial number (SN): the card part is paid on the terminal' },
      BASKET_INVALID,
    );
  // A card part is a card order: the settings every card sale needs (merchant ids, a sane expiry).
  if (cardKobo > 0) checkCardSettings(s);
  // Each seat at its ticket type as the programme names it.
  const seatTypes = new Map<string, string>();
  for (const l of res.lines) if (l.kind === 'tickets') for (const seat of l.seats) seatTypes.set(seat, l.ticketType);
  return { sale: { ...film, sn: sn.data ?? '' }, sold, ...(res.showKey ? { showKey: res.showKey } : {}), seatTypes };
}
