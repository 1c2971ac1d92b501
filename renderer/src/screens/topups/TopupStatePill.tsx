// A top-up's state as colour AND words AND a symbol (never colour alone), the same everywhere.
import { StatePill, type Tone } from '../../components/StatePill';
import { TOPUP_STATE_LABELS, type TopupState } from '../../../../shared/topups';

export const TOPUP_TONE: Record<TopupState, Tone> = {
  draft: 'info',
  queued: 'warn',
  sending: 'info',
  unknown: 'warn',
  pending: 'info',
  success: 'good',
  fail: 'bad',
  not_sent: 'warn',
  cancelled: 'warn',
};

export const TOPUP_SYMBOL: Record<TopupState, string> = {
  draft: '•',
  queued: '…',
  sending: '→',
  unknown: '?',
  pending: '◷',
  success: '✓',
  fail: '✕',
  not_sent: '!',
  cancelled: '–',
};

export function TopupStatePill({ state }: { state: TopupState }) {
  return (
    <StatePill
      small
      tone={TOPUP_TONE[state]}
      symbol={TOPUP_SYMBOL[state]}
      label={TOPUP_STATE_LABELS[state]}
      state={state}
    />
  );
}
