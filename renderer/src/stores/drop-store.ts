// The Shift screen's cash drop: the form open or not, its field errors, and the call; a drop
// recorded puts the fresh X report (the drawer with the drop) on the Shift screen.
import { create } from 'zustand';
import { call } from '../transport/bridge';
import { errorText, fieldErrorsOf } from './call-errors';
import { useShift } from './shift-store';
import { formatLagosTime, formatNaira } from '../format';

interface DropState {
  open: boolean;
  busy: boolean;
  /** `amount`, `note`: what to fix. */
  errors: Record<string, string>;
  start(): void;
  cancel(): void;
  /** True when the drop was recorded. */
  drop(amount: string, note: string): Promise<boolean>;
}

export const useDrop = create<DropState>((set) => ({
  open: false,
  busy: false,
  errors: {},
  start: () => {
    useShift.setState({ message: null });
    set({ open: true, errors: {} });
  },
  cancel: () => set({ open: false, errors: {} }),
  drop: async (amount, note) => {
    set({ busy: true, errors: {} });
    try {
      const x = await call('shift.drop', { amount, ...(note.trim() !== '' ? { note } : {}) });
      const d = x.report.totals.drawer?.dropItems.at(-1);
      useShift.setState({
        running: x,
        message: {
          kind: 'ok',
          text: d
            ? `Cash drop of ${formatNaira(d.amountKobo)} recorded (${d.by}, ${formatLagosTime(d.at)}).`
            : 'Cash drop recorded.',
        },
      });
      set({ open: false });
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (Object.keys(fields).length > 0) set({ errors: fields });
      else useShift.setState({ message: { kind: 'error', text: errorText(e) } });
      return false;
    } finally {
      set({ busy: false });
    }
  },
}));
