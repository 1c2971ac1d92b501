// The one-action-at-a-time runner of a settings panel's store: marks which action is busy, clears
// the last message, and on failure shows the error (with whatever else the store reads from it,
// such as field messages, in the same update) and resolves to undefined.
import { errorText } from './call-errors';

interface PanelState<B> {
  busy: B | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
}

export function busyRunner<B extends string, E extends object = never>(
  set: (partial: Partial<PanelState<B>> | (Pick<PanelState<B>, 'message'> & E)) => void,
  onError?: (e: unknown) => E,
) {
  return async <T>(busy: B | null, fn: () => Promise<T>): Promise<T | undefined> => {
    set({ busy, message: null });
    try {
      return await fn();
    } catch (e) {
      const message = { kind: 'error' as const, text: errorText(e) };
      set(onError ? { message, ...onError(e) } : { message });
      return undefined;
    } finally {
      set({ busy: null });
    }
  };
}
