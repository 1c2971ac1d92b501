// The box offices' charges waiting for the terminal, as the Sell screen shows them: main pushes the
// whole queue on every change (`integrations.queue`); the cashier can cancel one before it reaches
// the terminal (main tells the box office by its signed callback).
import { create } from 'zustand';
import type { QueuedCharge } from '../../../shared/contract-integrations';
import { call } from '../transport/bridge';
import { errorText } from './call-errors';
import type { StoreFollower } from './follow';

export type { QueuedCharge };

interface ChargeQueueState {
  queue: readonly QueuedCharge[];
  /** The order being cancelled, while main answers. */
  cancelling: number | null;
  /** Why the last cancel did not go through (it had reached the terminal, say). */
  error: string | null;
  load(): Promise<void>;
  cancel(orderId: number): Promise<void>;
}

export const useChargeQueue = create<ChargeQueueState>((set) => ({
  queue: [],
  cancelling: null,
  error: null,
  load: async () => {
    try {
      set({ queue: await call('integrations.queue', {}) });
    } catch {
      // Not known now: the queue shows what it had; the next change pushes it again.
    }
  },
  cancel: async (orderId) => {
    set({ cancelling: orderId, error: null });
    try {
      await call('integrations.cancelQueued', { orderId });
      set((s) => ({ queue: s.queue.filter((q) => q.orderId !== orderId) }));
    } catch (e) {
      set({ error: errorText(e) });
    } finally {
      set({ cancelling: null });
    }
  },
}));

export const chargeQueueFollower: StoreFollower = {
  name: 'charge-queue',
  listen: (bridge) => [bridge.on('integrations.queue', (queue) => useChargeQueue.setState({ queue }))],
  refresh: () => useChargeQueue.getState().load(),
};
