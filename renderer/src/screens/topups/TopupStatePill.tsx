// A top-up's state as colour AND words AND a symbol (never colour alone), the same everywhere.
import { TOPUP_STATE_LABELS, type TopupState } from '../../../../shared/topups';

export type Tone = 'good' | 'bad' | 'warn' | 'info';

export const TOPUP_TONE: Record<TopupState, Tone> = {
  draft: 'info', queued: 'warn', sending: 'info', unknown: 'warn', pending: 'info', success: 'good', fail: 'bad', not_sent: 'warn', cancelled: 'warn',
};

export const TOPUP_SYMBOL: Record<TopupState, string> = {
  draft: '•', queued: '…', sending: '→', unknown: '?', pending: '◷', success: '✓', fail: '✕', not_sent: '!', cancelled: '–',
};

export function TopupStatePill({ state }: { state: TopupState }) {
  return (
    <span className="pill tu-pill" data-tone={TOPUP_TONE[state]} data-state={state}>
      <span aria-hidden="true" className="tu-pill-symbol">
        {TOPUP_SYMBOL[state]}
      </span>
      {TOPUP_STATE_LABELS[state]}
    </span>
  );
}
