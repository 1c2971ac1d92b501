// Payments after closing ("debited, but the screen said failed"): the list the alert on every
// screen and the status bar count show, and marking one handled (how, by whom). Main owns the
// truth; `orders.lateChanged` brings every change.
import { create } from 'zustand';
import type { HandledHow, LateList } from '../../../shared/late-payments';
import { call } from '../transport/bridge';
import { busyRunner } from './busy-run';
import type { StoreFollower } from './follow';
import { pushGuard } from './push-guard';

/** A read answered after a push keeps the push (see push-guard.ts). */
const pushes = pushGuard();

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
      const fresh = pushes.mark();
      try {
        const list = await call('orders.late', {});
        if (fresh()) set({ list });
      } catch {
        /* read again at the next change or reconnect */
      }
    },
    markHandled: async (id, how, by) => {
      const v = await run('handle', () => call('orders.markLateHandled', { id, how, by }));
      if (!v) return false;
      const fresh = pushes.mark();
      const list = await call('orders.late', {});
      set({ ...(fresh() ? { list } : {}), message: { kind: 'ok', text: `Marked handled by ${by}.` } });
      return true;
    },
  };
});

export const lateFollower: StoreFollower = {
  name: 'late',
  listen: (bridge) => [
    bridge.on('orders.lateChanged', (list) => {
      pushes.pushed();
      useLate.setState({ list });
    }),
  ],
  // Always read: the alert is on every screen.
  refresh: () => useLate.getState().load(),
};
