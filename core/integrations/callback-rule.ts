// Where a charge's callbacks may go. The administrator names a system's callback address when
// pairing it (behind the admin PIN, in Settings → Integrations); a box office may send a callback
// URL of its own per charge (`callbackUrl`, a charge link's `returnUrl`), but only on that same
// origin (scheme, host and port): a key-holder cannot point the counter at another machine or
// port of the cinema's network. Addresses no callback may ever go to (link-local, metadata,
// multicast) are refused by the URL's own schema (shared/integration.ts, CallbackUrl).
import { IntegrationApiError } from './integration-errors';
import type { IntegrationRow } from './integration-store';

export function checkChargeCallback(integration: IntegrationRow, url: string | undefined): void {
  if (url === undefined) return;
  const paired = integration.callbackUrl;
  if (!paired) {
    throw new IntegrationApiError(422, 'VALIDATION', 'Check the charge request: some fields need fixing', {
      callbackUrl: `${integration.name} was paired without a callback URL, so the counter sends callbacks nowhere: leave callbackUrl out, or ask the counter's administrator to pair the system again with your callback address.`,
    });
  }
  const allowed = new URL(paired).origin;
  if (new URL(url).origin !== allowed) {
    throw new IntegrationApiError(422, 'VALIDATION', 'Check the charge request: some fields need fixing', {
      callbackUrl: `Callbacks go only to ${allowed} (the address given when ${integration.name} was paired): send a URL there, or leave callbackUrl out.`,
    });
  }
}
