// An order's state as colour AND words AND a symbol (never colour alone), the same everywhere.
import { StatePill } from './StatePill';
import { ORDER_STATE_LABELS, type OrderState } from '../../../shared/orders';

export type Tone = 'good' | 'bad' | 'warn' | 'info';

export const STATE_TONE: Record<OrderState, Tone> = {
  queued: 'warn',
  creating: 'info',
  waiting: 'info',
  paid: 'good',
  failed: 'bad',
  cancelled: 'bad',
  expired: 'warn',
  unknown: 'warn',
};

/** Symbols that every system font has; the label always goes with them. */
export const STATE_SYMBOL: Record<OrderState, string> = {
  queued: '…',
  creating: '→',
  waiting: '◷',
  paid: '✓',
  failed: '✕',
  cancelled: '✕',
  expired: '!',
  unknown: '?',
};

export function OrderStatePill({ state }: { state: OrderState }) {
  return (
    <StatePill tone={STATE_TONE[state]} symbol={STATE_SYMBOL[state]} label={ORDER_STATE_LABELS[state]} state={state} />
  );
}
