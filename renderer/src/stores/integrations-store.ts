// Settings → Integrations (pair, list, revoke, where the API listens) and the payment panel's
// "asked by": main owns the pairings and keys; a new pairing's key is kept here only until the
// administrator closes it (it is never shown again). A box office's new charge opens the Sell
// screen's payment panel when no payment is in progress — unless it waits in the queue (the
// cashier keeps the screen; it is listed beside the terminal).
import { create } from 'zustand';
import type { IntegrationsView, OrderOrigin } from '../../../shared/contract-integrations';
import { isFinalState } from '../../../shared/orders';
import { call } from '../transport/bridge';
import { useApp } from './app-store';
import { busyRunner } from './busy-run';
import { fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';
import { useSale } from './sale-store';

export type { OrderOrigin };

interface IntegrationsState {
  view: IntegrationsView | null;
  busy: 'pair' | 'revoke' | 'api' | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
  fieldErrors: Record<string, string>;
  /** The key of the pairing just made: shown once, until closed. */
  newKey: { name: string; key: string } | null;
  /** Who asked for each order (null: the cashier's own sale), as learnt. */
  origins: Record<number, OrderOrigin | null>;
  load(): Promise<void>;
  pair(name: string, callbackUrl: string): Promise<boolean>;
  revoke(id: string): Promise<void>;
  setApi(port: number, lan: boolean): Promise<void>;
  closeKey(): void;
  originOf(orderId: number): Promise<void>;
}

export const useIntegrations = create<IntegrationsState>((set, get) => {
  const run = busyRunner(set, (e) => ({ fieldErrors: fieldErrorsOf(e) }));
  return {
    view: null,
    busy: null,
    message: null,
    fieldErrors: {},
    newKey: null,
    origins: {},
    load: async () => {
      const view = await run(null, () => call('integrations.list', {}));
      if (view) set({ view });
    },
    pair: async (name, callbackUrl) => {
      set({ fieldErrors: {} });
      const paired = await run('pair', () => call('integrations.pair', { name, callbackUrl }));
      if (!paired) return false;
      set({
        newKey: { name: paired.name, key: paired.key },
        message: { kind: 'ok', text: `${paired.name} is paired. Copy its key now: it is not shown again.` },
      });
      await get().load();
      return true;
    },
    revoke: async (id) => {
      const view = await run('revoke', () => call('integrations.revoke', { id }));
      if (view) set({ view, message: { kind: 'ok', text: 'The system was unpaired: its key no longer works.' } });
    },
    setApi: async (port, lan) => {
      set({ fieldErrors: {} });
      const view = await run('api', () => call('integrations.setApi', { port, lan }));
      if (view) set({ view, message: { kind: 'ok', text: 'Saved.' } });
    },
    closeKey: () => set({ newKey: null }),
    originOf: async (orderId) => {
      if (orderId in get().origins) return;
      try {
        const origin = await call('integrations.originOf', { orderId });
        set({ origins: { ...get().origins, [orderId]: origin } });
      } catch {
        // Not known now: the panel simply does not say who asked; the next order asks again.
      }
    },
  };
});

export const integrationsFollower: StoreFollower = {
  name: 'integrations',
  listen: (bridge) => [
    bridge.on('integrations.changed', (view) => useIntegrations.setState({ view })),
    bridge.on('integrations.charge', ({ order, origin }) => {
      useIntegrations.setState((s) => ({ origins: { ...s.origins, [order.id]: origin } }));
      const sale = useSale.getState();
      const busy = sale.paymentOpen && sale.order !== null && !isFinalState(sale.order.state);
      if (!busy && order.state !== 'queued') {
        sale.showOrder(order);
        useApp.getState().go('sell');
      }
    }),
  ],
  refresh: async () => {
    if (useIntegrations.getState().view) await useIntegrations.getState().load();
  },
};
