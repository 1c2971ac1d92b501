// Joining a CounterPay Hub, from the counter: this part of the one contract. The credential the
// Hub gives stays in main (the vault); the screens see who the counter is enrolled as, and since when.
// Merged into `calls` and `events` in contract.ts; edit here, not there.
import { Empty, type CallsSpec, type EventsSpec } from './contract-kit';
import { HUB_ENROLL_INVALID, HubEnrollSchema, HubLinkViewSchema } from './hub-link';

export const hubCalls = {
  'hub.status': { args: Empty, result: HubLinkViewSchema },
  /**
   * Joins this counter to the Hub with a one-time code. The branch is the active profile's
   * merchantId and the name its counter name. Refusals: HUB_UNREACHABLE, HUB_NOT_A_HUB (the address
   * answers, but not as a Hub), HUB_CODE_INVALID (unknown, used or expired),
   * HUB_NAME_TAKEN (another live counter's name gives the same counter code: details.fields.counterName), HUB_REFUSED.
   */
  'hub.enroll': { args: HubEnrollSchema, result: HubLinkViewSchema, admin: true, invalid: HUB_ENROLL_INVALID },
  /** Forgets the credential and the Hub's position; the outbox stays (a new enrollment sends it all). */
  'hub.leave': { args: Empty, result: HubLinkViewSchema, admin: true },
  /** Asks the Hub now who this counter is (revoked?), reconnects the relay stream, sends the outbox. */
  'hub.checkNow': { args: Empty, result: HubLinkViewSchema },
} satisfies CallsSpec;

export const hubEvents = {
  'hub.changed': HubLinkViewSchema,
} satisfies EventsSpec;
