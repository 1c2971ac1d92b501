// What the Sell form offers by default: today, the next show time, and the price and booking fee
// per ticket remembered per film (the last sale of each film), newest first.
import { lagosDate, lagosHm } from '../../shared/time';
import { bookingFeePerTicket, FilmMemorySchema, type FilmMemory, type OrderView } from '../../shared/orders';
import type { KeyValueStore } from '../settings';

const KEY = 'films';
const MAX_FILMS = 50;

/** The next half hour after `now`, in Lagos ("19:30"); "23:30" late at night. */
export function nextShowTime(now: number): string {
  const [h, m] = lagosHm(now).split(':').map(Number) as [number, number];
  const mins = Math.min(h * 60 + m + (30 - (m % 30)), 23 * 60 + 30);
  return `${String(Math.floor(mins / 60)).padStart(2, '0')}:${String(mins % 60).padStart(2, '0')}`;
}

export function createSaleMemory(store: KeyValueStore) {
  const films = (): FilmMemory[] => {
    const v = store.get(KEY);
    if (!Array.isArray(v)) return [];
    const out: FilmMemory[] = [];
    for (const raw of v as unknown[]) {
      // Films remembered before the fee was per ticket (`feeKobo`, then `bookingFeeKobo`) held a whole
      // sale's fee: the schema drops it, so such a film offers its title and price but no fee.
      const parsed = FilmMemorySchema.safeParse(raw);
      if (parsed.success) out.push(parsed.data);
    }
    return out;
  };
  return {
    films,
    defaults(now: number, sn: string | null) {
      return { today: lagosDate(now), nextShowTime: nextShowTime(now), sn, films: films() };
    },
    remember(order: OrderView): void {
      const perTicket = bookingFeePerTicket(order.sale);
      const f: FilmMemory = {
        filmName: order.sale.filmName,
        filmTitle: order.sale.filmTitle,
        priceKobo: order.sale.priceKobo,
        ...(perTicket === null ? {} : { bookingFeePerTicketKobo: perTicket }),
        lastShowTime: order.sale.showTime,
      };
      const rest = films().filter((x) => x.filmName.toLowerCase() !== f.filmName.toLowerCase());
      store.set(KEY, [f, ...rest].slice(0, MAX_FILMS));
    },
  };
}
