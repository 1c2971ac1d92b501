// The Sell screen's programme sale: a show picked from the programme, its ticket type and seats,
// the seat check across counters (a warning the cashier may sell past, never a block), and its charge.
import { tidySeats } from '../../../shared/seat-list';
import type { BasketInput } from '../../../shared/basket';
import { call } from '../transport/bridge';
import { sellBasket } from './basket-calls';
import { chargeRefused, openedOrder } from './sale-payment';
import type { PickField, SaleGet, SalePickSlice, SaleSet } from './sale-state';
import { stepTicketType } from './show-pick';

/** The programme-sale field a message of main names (by the head of its key), or null. */
function pickFieldOf(errorKey: string): PickField | null {
  const key = errorKey.split('.')[0];
  return key === 'seats' || key === 'ticketType' || key === 'sn' ? key : null;
}
const NO_TERMINAL = 'No terminal yet: choose the serial port or type the terminal serial number (SN) under Terminal';

export function createPickSlice(set: SaleSet, get: SaleGet): SalePickSlice {
  return {
    mode: 'programme',
    pick: null,
    concessionsOnly: false,
    pickErrors: {},
    seatCheck: null,
    seatsAcknowledged: null,

    sellConcessions: () =>
      set({
        pick: null,
        concessionsOnly: true,
        pickErrors: {},
        seatCheck: null,
        seatsAcknowledged: null,
        message: null,
      }),
    setMode: (mode) => set({ mode, message: null }),
    pickShow: (show) =>
      set({
        pick: { show, ticketType: show.defaultTicketType, seats: '' },
        concessionsOnly: false,
        pickErrors: {},
        seatCheck: null,
        seatsAcknowledged: null,
        message: null,
      }),
    unpick: () =>
      set({
        pick: null,
        concessionsOnly: false,
        pickErrors: {},
        seatCheck: null,
        seatsAcknowledged: null,
        message: null,
      }),
    setSeats: (seats) => {
      const { pick } = get();
      if (pick)
        set({ pick: { ...pick, seats }, pickErrors: {}, seatCheck: null, seatsAcknowledged: null, message: null });
    },
    setTicketType: (ticketType) => {
      const { pick, pickErrors } = get();
      if (pick)
        set({ pick: { ...pick, ticketType }, pickErrors: { ...pickErrors, ticketType: undefined }, message: null });
    },
    stepTicketType: (step) => {
      const { pick } = get();
      if (pick && pick.show.ticketTypes.length > 1)
        get().setTicketType(stepTicketType(pick.show, pick.ticketType, step));
    },

    acknowledgeSeats: () => {
      const { pick } = get();
      if (pick) set({ seatsAcknowledged: tidySeats(pick.seats) });
    },

    chargeShow: async (sn, besideWaiting) => {
      const { pick, busy } = get();
      if (!pick || busy) return null;
      const seats = tidySeats(pick.seats);
      if (seats === '') {
        set({ pickErrors: { seats: 'Type the seats, for example F7,F8 (or F7 F8)' } });
        return 'seats';
      }
      if (!sn) {
        set({
          pickErrors: {
            sn: NO_TERMINAL,
          },
        });
        return 'sn';
      }
      set({ busy: true, message: null, pickErrors: {} });
      try {
        const seatCheck = await call('programme.checkSeats', { showId: pick.show.id, seats });
        set({ seatCheck });
        if (seatCheck.kind === 'checked' && seatCheck.conflicts.length > 0 && get().seatsAcknowledged !== seats) {
          // A warning, not a block: only the button that names the seats sells them anyway (Enter never does).
          return 'seats';
        }
        const answer = await call('programme.charge', {
          showId: pick.show.id,
          ticketType: pick.ticketType,
          seats,
          sn,
          ...(besideWaiting ? { besideWaiting } : {}),
        });
        set(openedOrder(answer));
        return null;
      } catch (e) {
        const { errors, message, first } = chargeRefused(e, pickFieldOf, get);
        set({ pickErrors: errors, message });
        return first;
      } finally {
        set({ busy: false });
      }
    },

    chargeBasket: async (basket, sn, besideWaiting) => {
      const { pick, busy } = get();
      if (busy) return null;
      if (!sn && basket.tender.kind !== 'cash') {
        set({ pickErrors: { sn: NO_TERMINAL } });
        return 'sn';
      }
      set({ busy: true, message: null, pickErrors: {} });
      try {
        const seats = ticketSeats(basket);
        if (pick && seats !== '') {
          const seatCheck = await call('programme.checkSeats', { showId: pick.show.id, seats });
          set({ seatCheck });
          if (seatCheck.kind === 'checked' && seatCheck.conflicts.length > 0 && get().seatsAcknowledged !== seats)
            return 'seats';
        }
        const answer = await sellBasket({
          ...basket,
          ...(sn ? { sn } : {}),
          ...(besideWaiting ? { besideWaiting } : {}),
        });
        set(openedOrder(answer));
        return null;
      } catch (e) {
        const { errors, message, first } = chargeRefused(e, pickFieldOf, get);
        set({ pickErrors: errors, message });
        return first;
      } finally {
        set({ busy: false });
      }
    },
  };
}

/** The basket's seats as the seat check reads them ("F7,F8,F9"). */
function ticketSeats(basket: BasketInput): string {
  return tidySeats((basket.tickets?.seats ?? []).map((s) => s.seat).join(','));
}
