// Payments after closing ("debited, but the screen said failed"): the list the alert on every
// screen and the status bar count show, and marking one handled (how, by whom). Main owns the
// truth; `orders.lateChanged` brings every change.
import { create } from 'zustand';
import type { HandledHow, LateList } from '../../../shared/late-payments';
import { call } from '../transport/bridge';
import { busyRunner } from './busy-run';
import type { StoreFollower } from './follow';

interface LateState {
  list: LateList | null;
  busy: 'handle' | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
  load(): Promise<void>;
  markHandled(id: number, how: HandledHow, by: string): Promise<boolean>;
}

export const useLate = create<LateState>((set) => {
  const run = busyRunner(set);
  return {
    list: null,
    busy: null,
    message: null,
    load: async () => {
      try {
        set({ list: await call('orders.late', {}) });
      } catch {
        /* read again at the next change or reconnect */
      }
    },
    markHandled: async (id, how, by) => {
      const v = await run('handle', () => call('orders.markLateHandled', { id, how, by }));
      if (!v) return false;
      set({ list: await call('orders.late', {}), message: { kind: 'ok', text: `Marked handled by ${by}.` } });
      return true;
    },
  };
});

export const lateFollower: StoreFollower = {
  name: 'late',
  listen: (bridge) => [bridge.on('orders.lateChanged', (list) => useLate.setState({ list }))],
  // Always read: the alert is on every screen.
  refresh: () => useLate.getState().load(),
};
