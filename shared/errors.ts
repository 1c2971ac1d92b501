// One error family for everything that crosses a boundary. Errors are recognised by `code`,
// never by instanceof, so they survive IPC and HTTP intact.

const ERROR_CODES = [
  // contract / transport
  'BAD_ARGUMENTS',
  'UNKNOWN_CALL',
  'UNTRUSTED_SENDER',
  'INTERNAL',
  // settings
  'PIN_NOT_SET',
  'PIN_REQUIRED',
  'PIN_WRONG',
  'PIN_LOCKED',
  'VALIDATION',
  'NOT_FOUND',
  'CONFLICT',
  'NOT_READY',
  // provider
  'PROVIDER_UNREACHABLE',
  'PROVIDER_TIMEOUT',
  'PROVIDER_HTTP',
  'PROVIDER_REFUSED',
  'PROVIDER_AUTH',
  'PROVIDER_BAD_RESPONSE',
  'PROVIDER_NOT_CONFIGURED',
  // devices
  'TERMINAL_UNAVAILABLE',
  'PRINTER_FAILED',
  // the counter's own rules before a charge: one unpaid order per terminal, a shift open
  'TERMINAL_BUSY',
  'NO_SHIFT',
  // a charge link refused while the box offices' charges waiting for the terminal are at their cap
  'QUEUE_FULL',
  // the CounterPay Hub (core/hub-link)
  'HUB_UNREACHABLE',
  'HUB_NOT_A_HUB',
  'HUB_CODE_INVALID',
  'HUB_NAME_TAKEN',
  'HUB_REFUSED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export class AppError extends Error implements AppErrorShape {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
  toJSON(): AppErrorShape {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export function isAppError(e: unknown): e is AppError {
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof (e as { code?: unknown }).code === 'string' &&
    (ERROR_CODES as readonly string[]).includes((e as { code: string }).code) &&
    typeof (e as { message?: unknown }).message === 'string'
  );
}

/** Per-field validation errors, keyed by a dotted path ("settings.posBaseUrl"). */
export type FieldErrors = Record<string, string>;

export function validationError(fields: FieldErrors, message = 'Some fields need fixing'): AppError {
  return new AppError('VALIDATION', message, { fields });
}

/** The shape of a zod issue this needs (kept structural so shared/ does not tie callers to zod). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * One message per field from schema issues, keyed by the dotted path the UI shows it next to
 * ("settings.posBaseUrl"); the first message of a field wins. `prefix` nests the keys under a
 * part of the arguments; `root` names an issue about the whole value.
 */
export function issueFields(issues: readonly IssueLike[], opts: { prefix?: string; root?: string } = {}): FieldErrors {
  const fields: FieldErrors = {};
  for (const i of issues) {
    const key =
      [...(opts.prefix ? [opts.prefix] : []), ...i.path.map(String)].join('.') || (opts.root ?? '(arguments)');
    fields[key] ??= i.message;
  }
  return fields;
}
