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
