// The Hub's errors: a stable code from the shared contract, a message a person can act on, the
// HTTP status, and details for an engineer (never a secret).
import type { HubErrorCode } from '../shared/hub-contract';

export class HubFailure extends Error {
  constructor(
    readonly code: HubErrorCode,
    message: string,
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HubFailure';
  }
}

export const fail = (code: HubErrorCode, status: number, message: string, details?: Record<string, unknown>) =>
  new HubFailure(code, message, status, details);
