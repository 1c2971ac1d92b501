// The Sell screen's form typed by hand: the draft, the defaults from main (today, the next show
// time, the films and their prices), which messages show, Esc and Undo, and its charge.
import { call } from '../transport/bridge';
import { errorText } from './call-errors';
import {
  checkDraft,
  draftKeyOf,
  editDraft,
  emptyDraft,
  fillFromProgramme,
  sameDraft,
  tidyTime,
  type DraftKey,
} from './sale-form';
import { chargeRefused, openedOrder } from './sale-payment';
import type { SaleFormSlice, SaleGet, SaleSet } from './sale-state';
import { useProgramme } from './programme-store';

export function createFormSlice(set: SaleSet, get: SaleGet): SaleFormSlice {
  return {
    defaults: null,
    defaultsError: null,
    draft: emptyDraft(),
    touched: {},
    submitted: false,
    serverErrors: {},
    message: null,
    busy: false,
    cleared: null,

    loadDefaults: async () => {
      try {
        const defaults = await call('sale.defaults', {});
        let draft = get().draft;
        // Fill date and time only where the cashier has not typed anything.
        draft = {
          ...draft,
          showDate: draft.showDate || defaults.today,
          showTime: draft.showTime || defaults.nextShowTime,
        };
        // A film typed before the list arrived still gets its price (unless the cashier typed one).
        if (!draft.filmTitle && !draft.price && !draft.fee)
          draft = editDraft(draft, 'filmName', draft.filmName, defaults.films);
        set({ defaults, defaultsError: null, draft });
      } catch (e) {
        set({ defaultsError: errorText(e) });
      }
    },

    edit: (key, value) => {
      const { draft, defaults, serverErrors } = get();
      let next = editDraft(draft, key, value, defaults?.films ?? []);
      // Film, date, time or tickets that name a show of the programme: its prices, not an older sale's.
      if (key !== 'price' && key !== 'fee' && key !== 'filmTitle')
        next = fillFromProgramme(next, useProgramme.getState().next?.shows ?? []);
      const cleared = { ...serverErrors };
      for (const k of Object.keys(next) as DraftKey[]) if (next[k] !== draft[k]) delete cleared[k];
      set({ draft: next, serverErrors: cleared, message: null, cleared: null });
    },

    touch: (key) => {
      const { draft, touched } = get();
      if (key === 'showTime' && tidyTime(draft.showTime) !== draft.showTime)
        set({
          draft: fillFromProgramme(
            { ...draft, showTime: tidyTime(draft.showTime) },
            useProgramme.getState().next?.shows ?? [],
          ),
        });
      if (!touched[key]) set({ touched: { ...touched, [key]: true } });
    },

    charge: async (sn, besideWaiting) => {
      if (get().busy) return null;
      const typed = get().draft;
      if (tidyTime(typed.showTime) !== typed.showTime) set({ draft: { ...typed, showTime: tidyTime(typed.showTime) } });
      const check = checkDraft(get().draft, sn);
      set({ submitted: true, message: null, cleared: null });
      if (!check.input) {
        const first = (Object.keys(check.errors) as (DraftKey | 'sn')[])[0] ?? null;
        return first;
      }
      set({ busy: true, serverErrors: {} });
      try {
        const answer = await call('sale.charge', besideWaiting ? { ...check.input, besideWaiting } : check.input);
        set(openedOrder(answer));
        return null;
      } catch (e) {
        const { errors, message, first } = chargeRefused(e, draftKeyOf, get);
        set({ serverErrors: errors, message });
        return first;
      } finally {
        set({ busy: false });
      }
    },

    clear: () => {
      if (get().mode === 'programme' && (get().pick || get().concessionsOnly)) {
        get().unpick();
        return;
      }
      const { draft, defaults } = get();
      const fresh = emptyDraft(defaults?.today, defaults?.nextShowTime);
      set({
        draft: fresh,
        cleared: sameDraft(draft, fresh) ? null : draft,
        touched: {},
        submitted: false,
        serverErrors: {},
        message: null,
      });
    },

    undoClear: () => {
      const { cleared } = get();
      if (cleared) set({ draft: cleared, cleared: null });
    },

    newSale: () => {
      set({
        pick: null,
        concessionsOnly: false,
        pickErrors: {},
        seatCheck: null,
        seatsAcknowledged: null,
        draft: emptyDraft(),
        touched: {},
        submitted: false,
        serverErrors: {},
        message: null,
        cleared: null,
        paymentOpen: false,
        order: null,
        retriedFrom: null,
        actionMessage: null,
      });
      void get().loadDefaults();
    },
  };
}
