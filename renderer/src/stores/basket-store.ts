// The Sell screen's basket beside a show picked from the programme: the ticket types of the seats
// as typed (`2a1c`), the concession lines built on the pad (with a combo's choice asked), the
// selected line, the tender as typed, and the engine's pricing of it all (`sale.priceBasket`):
// the screen shows the engine's lines and amounts and never adds money itself.
import { create } from 'zustand';
import type { BasketAmounts, BasketLine, Tender, TenderKind } from '../../../shared/basket';
import type { Catalogue } from '../../../shared/catalogue';
import { catalogueOfView, priceBasket } from './basket-calls';
import { useCatalogue } from './catalogue-store';
import {
  addLine,
  basketOf,
  changeQuantity,
  choose,
  nextChoice,
  onlyTender,
  padEntries,
  padFind,
  placeProblems,
  tenderOf,
  type ChoiceAsk,
  type PadLine,
  type PlacedProblems,
  type TenderDraft,
  type TicketsPart,
} from './basket-keys';
import { errorText } from './call-errors';

const NO_PROBLEMS: PlacedProblems = { seats: new Map(), lines: new Map(), tender: [], basket: [] };

export interface BasketState {
  catalogue: Catalogue | null;
  catalogueError: string | null;
  /** The ticket types as typed (`2a1c`); seats it leaves over keep the show's chosen type. */
  typeKeys: string;
  lines: PadLine[];
  /** The line `+`/`-` change (the last added), or -1. */
  selected: number;
  /** A combo's choice being asked (its items by key). */
  asking: ChoiceAsk | null;
  tender: TenderDraft;
  /** The engine's figures for the basket (by card while the tender is being typed), or null. */
  priced: { lines: BasketLine[]; amounts: BasketAmounts } | null;
  /** The tender the priced figures are for (its change, its card part), or null while typing it. */
  pricedTender: Tender | null;
  problems: PlacedProblems;
  /** What the tender still needs (the cash typed), or null. */
  tenderMissing: string | null;
  pricingError: string | null;
  /** What the pad's box said about the last code typed. */
  padMessage: string | null;

  loadCatalogue(): Promise<void>;
  setTypeKeys(text: string): void;
  /** Adds what the pad's box holds (code, position or name); false when nothing matches. */
  addFromPad(query: string): boolean;
  select(index: number): void;
  bump(step: 1 | -1): void;
  removeLine(index: number): void;
  /** The key of a choice asked (1, 2, 3…) or its item code; false when no option has it. */
  chooseKey(key: string): boolean;
  /** Leaves the choice unmade (the line shows what it needs). */
  skipChoice(): void;
  setTenderKind(kind: TenderKind): void;
  setCash(text: string): void;
  /** Asks the engine for the basket's figures (a later answer replaces an earlier one, never the reverse). */
  price(tickets: TicketsPart | null): Promise<void>;
  /** The tender to send, or null while it is being typed. */
  tenderToSend(): Tender | null;
  /** A fresh basket (the catalogue kept). */
  reset(): void;
}

const EMPTY = {
  typeKeys: '',
  lines: [] as PadLine[],
  selected: -1,
  asking: null,
  tender: { kind: 'card', cash: '' } as TenderDraft,
  priced: null,
  pricedTender: null,
  problems: NO_PROBLEMS,
  tenderMissing: null,
  pricingError: null,
  padMessage: null,
};

let asked = 0;

export const useBasket = create<BasketState>((set, get) => ({
  catalogue: null,
  catalogueError: null,
  ...EMPTY,

  loadCatalogue: async () => {
    // The one catalogue view of the renderer (catalogue-store.ts, which follows catalogue.changed).
    await useCatalogue.getState().load();
    const { view, message } = useCatalogue.getState();
    if (view) set({ catalogue: catalogueOfView(view), catalogueError: null });
    else set({ catalogueError: message?.text ?? 'the catalogue could not be read' });
  },

  setTypeKeys: (typeKeys) => set({ typeKeys }),

  addFromPad: (query) => {
    const { catalogue, lines } = get();
    if (!catalogue) return false;
    const entry = padFind(padEntries(catalogue), query)[0];
    if (!entry) {
      set({ padMessage: `Nothing on the pad matches “${query.trim()}”: type a code, a number or a name` });
      return false;
    }
    const added = addLine(lines, entry.code, catalogue);
    set({
      lines: added.lines,
      selected: added.selected,
      asking: nextChoice(added.lines, added.selected, catalogue),
      padMessage: entry.soldOut ? `${entry.name} is sold out` : null,
    });
    return true;
  },

  select: (index) => {
    const { lines } = get();
    if (index >= 0 && index < lines.length) set({ selected: index });
  },

  bump: (step) => {
    const { lines, selected } = get();
    if (selected < 0 || selected >= lines.length) return;
    const next = changeQuantity(lines, selected, step);
    set({ lines: next, selected: Math.min(selected, next.length - 1), asking: null });
  },

  removeLine: (index) => {
    const { lines, selected } = get();
    const next = lines.filter((_, i) => i !== index);
    set({ lines: next, selected: Math.min(selected, next.length - 1), asking: null });
  },

  chooseKey: (key) => {
    const { asking, lines, catalogue } = get();
    if (!asking || !catalogue) return false;
    const k = key.trim().toUpperCase();
    const option = asking.options.find((o) => o.key === k || o.code === k);
    if (!option) return false;
    const next = choose(lines, asking.line, asking.component, option.code);
    set({ lines: next, asking: nextChoice(next, asking.line, catalogue) });
    return true;
  },

  skipChoice: () => set({ asking: null }),

  setTenderKind: (kind) => {
    const { tender } = get();
    set({ tender: { kind, cash: kind === tender.kind ? tender.cash : '' } });
  },

  setCash: (cash) => set({ tender: { ...get().tender, cash } }),

  tenderToSend: () => {
    const t = tenderOf(get().tender);
    return 'tender' in t ? t.tender : null;
  },

  price: async (tickets) => {
    const { lines, tender } = get();
    const seq = ++asked;
    const typed = tenderOf(tender);
    const missing = 'missing' in typed ? typed.missing : null;
    if ((!tickets || tickets.seats.length === 0) && lines.length === 0) {
      set({ priced: null, pricedTender: null, problems: NO_PROBLEMS, tenderMissing: missing, pricingError: null });
      return;
    }
    try {
      const wanted: Tender = 'tender' in typed ? typed.tender : { kind: 'card' };
      let answer = await priceBasket(basketOf(tickets, lines, wanted));
      let pricedTender: Tender | null = 'tender' in typed ? typed.tender : null;
      let tenderProblems: string[] = [];
      // Only the tender is wrong (cash short, a split's card part 0): the lines by card meanwhile.
      if (!answer.ok && onlyTender(answer.problems) && wanted.kind !== 'card') {
        tenderProblems = placeProblems(answer.problems).tender;
        answer = await priceBasket(basketOf(tickets, lines, { kind: 'card' }));
        pricedTender = null;
      }
      if (seq !== asked) return;
      if (answer.ok) {
        set({
          priced: { lines: answer.lines, amounts: answer.amounts },
          pricedTender,
          problems: { ...NO_PROBLEMS, tender: tenderProblems },
          tenderMissing: missing,
          pricingError: null,
        });
      } else
        set({
          priced: null,
          pricedTender: null,
          problems: placeProblems(answer.problems),
          tenderMissing: missing,
          pricingError: null,
        });
    } catch (e) {
      if (seq === asked) set({ priced: null, pricedTender: null, pricingError: errorText(e), tenderMissing: missing });
    }
  },

  reset: () => {
    asked++;
    set({ ...EMPTY });
  },
}));

// A catalogue changed on the counter (an import, sold out, stock left after a sale) reaches the pad.
useCatalogue.subscribe((c, before) => {
  if (c.view && c.view !== before.view) useBasket.setState({ catalogue: catalogueOfView(c.view) });
});
