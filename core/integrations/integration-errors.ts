// The integration API's errors: an HTTP status, a stable code from the wire's list
// (shared/integration.ts), a message the box-office developer can act on, and one message per
// wrong field.
import { issueFields, type IssueLike } from '../../shared/errors';
import type { IntegrationError } from '../../shared/integration';

type Code = IntegrationError['error']['code'];

export class IntegrationApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'IntegrationApiError';
  }

  body(): IntegrationError {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields && Object.keys(this.fields).length ? { fields: this.fields } : {}),
      },
    };
  }
}

/** One message per field, by dotted path under `prefix`; an issue about the whole body is keyed `request`. */
export function fieldsOf(issues: readonly IssueLike[], prefix?: string): Record<string, string> {
  return issueFields(issues, { ...(prefix ? { prefix } : {}), root: prefix ?? 'request' });
}
