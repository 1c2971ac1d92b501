// Turning a failed call into what the cashier sees: per-field messages (VALIDATION / BAD_ARGUMENTS
// carry details.fields keyed by field name) and one plain sentence for everything else.
import { isAppError } from '../../../shared/errors';

export function fieldErrorsOf(e: unknown): Record<string, string> {
  if (!isAppError(e) || (e.code !== 'VALIDATION' && e.code !== 'BAD_ARGUMENTS')) return {};
  const fields = e.details?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function errorText(e: unknown): string {
  if (isAppError(e) && e.code === 'UNKNOWN_CALL') return 'This part of CounterPay is not ready yet. Please tell IT.';
  return e instanceof Error ? e.message : String(e);
}

/**
 * A failed call's field messages sorted onto a form: `keyOf` names the form field a message
 * belongs to (null: none), the first message per field wins. `message` is the sentence to show
 * beside them: the first loose field message when any field is named, else the error itself.
 * `first` is the field to move to (null when none is named).
 */
export function formErrorsOf<K extends string>(
  e: unknown,
  keyOf: (field: string) => K | null,
): { errors: Partial<Record<K, string>>; message: string | null; first: K | null } {
  const errors: Partial<Record<K, string>> = {};
  const loose: string[] = [];
  for (const [k, msg] of Object.entries(fieldErrorsOf(e))) {
    const key = keyOf(k);
    if (key) errors[key] ??= msg;
    else loose.push(msg);
  }
  const first = (Object.keys(errors)[0] as K | undefined) ?? null;
  return { errors, message: first !== null ? (loose[0] ?? null) : errorText(e), first };
}
