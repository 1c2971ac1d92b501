// The Sell screen's state: the form being typed, the defaults from main, and the one order on the
// payment view (followed through order.changed). Main owns the order; this keeps its latest view.
// One store of three slices: sale-form-state.ts (the form typed by hand), sale-pick.ts (a show
// picked from the programme), sale-payment.ts (the payment view); their types in sale-state.ts.
import { create } from 'zustand';
import type { StoreFollower } from './follow';
import { createFormSlice } from './sale-form-state';
import { createPaymentSlice } from './sale-payment';
import { createPickSlice } from './sale-pick';
import type { SaleState } from './sale-state';

export type { PickField, SaleDefaults, SaleMode, ShowPick } from './sale-state';
export { newer } from './sale-payment';

export const useSale = create<SaleState>((set, get) => ({
  ...createFormSlice(set, get),
  ...createPaymentSlice(set, get),
  ...createPickSlice(set, get),
}));

export const saleFollower: StoreFollower = {
  name: 'sale',
  listen: (bridge) => [bridge.on('order.changed', (view) => useSale.getState().applyOrder(view))],
  refresh: async () => {
    const s = useSale.getState();
    await Promise.all([s.defaults ? s.loadDefaults() : null, s.refreshOrder(), s.loadOpen()]);
  },
};
