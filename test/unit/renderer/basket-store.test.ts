// The basket store against a stand-in for main: the catalogue read through its adapter, the pad's
// keys building lines (a combo's drink by key, + for a second water), the engine's figures shown
// (a late answer never replaces a newer one; a tender the engine refuses keeps the lines priced by
// card and says what is wrong by the tender), and a cash basket sold with no terminal.
import { afterEach, describe, expect, it } from 'vitest';
import { checkBasket } from '../../../shared/basket-check';
import { DEMO_CATALOGUE } from '../../../shared/catalogue';
import type { CatalogueView } from '../../../shared/contract-catalogue';
import type { OrderView } from '../../../shared/orders';
import type { ShowView } from '../../../shared/programme';
import { useBasket } from '../../../renderer/src/stores/basket-store';
import { useCatalogue } from '../../../renderer/src/stores/catalogue-store';
import { useSale } from '../../../renderer/src/stores/sale-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { PAID_ORDER } from '../records/receipt-fixtures';
import { fakeMain, later, type Answers } from './fake-main';
import type { BasketPrice } from '../../../renderer/src/stores/basket-calls';

const TYPES = [
  { name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 20_000 },
  { name: 'Child', priceKobo: 300_000, bookingFeeKobo: 20_000 },
];
const SHOW = {
  id: 1,
  filmName: 'Dune 2',
  filmTitle: 'DUNE: PART TWO',
  date: '2026-12-07',
  time: '19:30',
  ticketTypes: TYPES,
  defaultTicketType: 'Adult',
} as unknown as ShowView;

type Answer = (args: { basket: unknown }) => BasketPrice;

/** The engine's pricing, as main gives it (shared/basket-check.ts against the show and the demo catalogue). */
const engine: Answer = (args) => {
  const c = checkBasket(args.basket, { ticketTypes: TYPES, catalogue: DEMO_CATALOGUE });
  return c.ok ? { ok: true, lines: c.lines, amounts: c.amounts } : { ok: false, problems: c.problems };
};

/** The demo catalogue as catalogue.get shows it: 40 water left of 48 counted; Coke sold out. */
const VIEW: CatalogueView = {
  source: { kind: 'demo', importedAt: 0, fileName: null },
  items: DEMO_CATALOGUE.items.map((i) => ({
    ...i,
    soldOut: i.code === 'COKE',
    stock: i.stock ?? null,
    left: i.stock === undefined ? null : 40,
    available: i.code !== 'COKE',
  })),
  combos: DEMO_CATALOGUE.combos.map((c) => ({ ...c, available: true })),
};

/** A stand-in for main (checked against the contract) that answers the basket's calls. */
function stubMain(answers: Answers) {
  const main = fakeMain(answers);
  connectBridge(main.bridge);
  return main.calls;
}

afterEach(() => {
  connectBridge(null);
  useBasket.setState(useBasket.getInitialState(), true);
  useCatalogue.setState(useCatalogue.getInitialState(), true);
  useSale.setState(useSale.getInitialState(), true);
});

describe('basket store', () => {
  it('the pad builds the lines by keys and the figures are the engine’s', async () => {
    const made = stubMain({ 'catalogue.get': () => VIEW, 'sale.priceBasket': engine });
    const b = useBasket.getState();
    await b.loadCatalogue();
    expect(useBasket.getState().catalogue?.items.find((i) => i.code === 'WATER')?.stock).toBe(40);
    expect(useBasket.getState().catalogue?.items.find((i) => i.code === 'COKE')?.soldOut).toBe(true);

    expect(b.addFromPad('7')).toBe(true);
    expect(useBasket.getState().asking?.component).toBe('Drink');
    expect(b.chooseKey('9')).toBe(false);
    expect(b.chooseKey('1')).toBe(true);
    expect(useBasket.getState().asking).toBeNull();
    b.addFromPad('wat');
    b.bump(1);
    expect(b.addFromPad('nothing like it')).toBe(false);
    expect(useBasket.getState().padMessage).toContain('Nothing on the pad matches');
    expect(useBasket.getState().lines).toEqual([
      { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
      { code: 'WATER', quantity: 2, choices: {} },
    ]);

    await b.price({ show: SHOW, seats: ['F7', 'F8', 'F9'], types: ['Adult', 'Adult', 'Child'] });
    const s = useBasket.getState();
    expect(s.priced?.amounts.totalKobo).toBe(1_640_000);
    expect(s.priced?.lines.map((l) => l.kind)).toEqual(['tickets', 'tickets', 'combo', 'item']);
    expect(made.filter((c) => c.name === 'sale.priceBasket')).toHaveLength(1);
  });

  it('a catalogue changed on the counter (water sold out) reaches the pad', async () => {
    stubMain({ 'catalogue.get': () => VIEW });
    await useBasket.getState().loadCatalogue();
    expect(useBasket.getState().catalogue?.items.find((i) => i.code === 'WATER')?.soldOut).toBe(false);
    useCatalogue.setState({
      view: { ...VIEW, items: VIEW.items.map((i) => (i.code === 'WATER' ? { ...i, left: 0, available: false } : i)) },
    });
    const water = useBasket.getState().catalogue?.items.find((i) => i.code === 'WATER');
    expect(water).toMatchObject({ soldOut: true, stock: 0 });
  });

  it('an answer that comes after a newer one is dropped', async () => {
    const first = later<BasketPrice>();
    let n = 0;
    stubMain({
      'catalogue.get': () => VIEW,
      'sale.priceBasket': (args) => (++n === 1 ? first.promise : engine(args)),
    });
    await useBasket.getState().loadCatalogue();
    useBasket.getState().addFromPad('WATER');
    const older = useBasket.getState().price(null);
    useBasket.getState().bump(1);
    await useBasket.getState().price(null);
    first.resolve(engine({ basket: { concessions: [{ code: 'WATER', quantity: 1 }], tender: { kind: 'card' } } }));
    await older;
    expect(useBasket.getState().priced?.amounts.totalKobo).toBe(80_000);
  });

  it('cash short: the lines stay priced (by card) and the tender says what is wrong; enough cash shows the change', async () => {
    stubMain({ 'catalogue.get': () => VIEW, 'sale.priceBasket': engine });
    const b = useBasket.getState();
    await b.loadCatalogue();
    b.addFromPad('POPL');
    b.setTenderKind('cash');
    await b.price(null);
    expect(useBasket.getState().tenderMissing).toBe('Type the cash tendered');
    expect(useBasket.getState().tenderToSend()).toBeNull();
    b.setCash('2000');
    await b.price(null);
    let s = useBasket.getState();
    expect(s.priced?.amounts.totalKobo).toBe(250_000);
    expect(s.pricedTender).toBeNull();
    expect(s.problems.tender[0]).toContain('less than the ₦2,500.00 to pay');
    b.setCash('3000');
    await b.price(null);
    s = useBasket.getState();
    expect(s.pricedTender).toEqual({ kind: 'cash', tenderedKobo: 300_000 });
    expect(s.priced?.amounts.changeKobo).toBe(50_000);
    expect(s.problems.tender).toEqual([]);
  });

  it('a wrong line shows its problem by the line, and no figures', async () => {
    stubMain({ 'catalogue.get': () => VIEW, 'sale.priceBasket': engine });
    await useBasket.getState().loadCatalogue();
    useBasket.getState().addFromPad('CMB1');
    useBasket.getState().skipChoice();
    await useBasket.getState().price(null);
    const s = useBasket.getState();
    expect(s.priced).toBeNull();
    expect(s.problems.lines.get(0)?.[0]).toContain('choose the Drink');
  });

  it('a cash basket is sold with no terminal, after the seat check, and opens Paid', async () => {
    const paid: OrderView = { ...PAID_ORDER, sn: '' };
    const made = stubMain({
      'programme.checkSeats': () => ({ kind: 'checked', conflicts: [] }),
      'sale.sellBasket': () => paid,
    });
    useSale.getState().pickShow(SHOW);
    const basket = {
      tickets: {
        filmName: 'Dune 2',
        filmTitle: 'DUNE: PART TWO',
        showDate: '2026-12-07',
        showTime: '19:30',
        seats: [{ seat: 'F7', ticketType: 'Adult' }],
      },
      concessions: [{ code: 'WATER', quantity: 1, choices: {} }],
      tender: { kind: 'cash' as const, tenderedKobo: 600_000 },
    };
    expect(await useSale.getState().chargeBasket(basket, null)).toBeNull();
    expect(made.map((c) => c.name)).toEqual(['programme.checkSeats', 'sale.sellBasket']);
    expect(made[1]?.args).toEqual(basket);
    expect(useSale.getState().paymentOpen).toBe(true);
    expect(useSale.getState().order?.state).toBe('paid');
  });

  it('a card part with no terminal is refused before anything is sent', async () => {
    const made = stubMain({});
    useSale.getState().pickShow(SHOW);
    const field = await useSale
      .getState()
      .chargeBasket(
        { concessions: [{ code: 'WATER', quantity: 1 }], tender: { kind: 'split', cashKobo: 10_000 } },
        null,
      );
    expect(field).toBe('sn');
    expect(made).toEqual([]);
  });

  it('concessions only: F4 on the shows opens it, Esc (clear) goes back to the shows, New sale too', () => {
    stubMain({});
    useSale.getState().sellConcessions();
    expect(useSale.getState()).toMatchObject({ pick: null, concessionsOnly: true });
    useSale.getState().clear();
    expect(useSale.getState().concessionsOnly).toBe(false);
    useSale.getState().sellConcessions();
    useSale.getState().pickShow(SHOW);
    expect(useSale.getState().concessionsOnly).toBe(false);
    useSale.getState().sellConcessions();
    useSale.getState().newSale();
    expect(useSale.getState().concessionsOnly).toBe(false);
  });
});
