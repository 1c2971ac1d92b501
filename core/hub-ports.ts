// What the checkout, the programme and the seat map ask the Hub link, which the composition root
// (app-core.ts) builds after them all: a port built before them, pointed at the link once it exists.
import type { SeatHolds, SeatTakenSource } from '../shared/seats';
import type { createHubLinkModule } from './hub-link';
import { localSeatHolds, relayHealthFeed, type ApprovalCodes } from './orders';

/** Tests: seat holds and other counters' seats from a scripted Hub (null: the Hub link's, as without). */
export interface SeatSources {
  holds?: () => SeatHolds | null;
  taken?: () => SeatTakenSource | null;
}

type HubLink = ReturnType<typeof createHubLinkModule>;

/**
 * What the checkout, the programme and the seat map ask the Hub link, built before them all: each
 * reads the link once the root has built it (`link`); before, and without a connection, this
 * counter's own (the local holds, no seat check, no other counters' seats). The relay's health is
 * a feed the Hub link points at its relay stream as it starts and stops (`onRelayHealth`).
 */
export function hubPorts(tests: SeatSources = {}) {
  let link: HubLink | null = null;
  const relay = relayHealthFeed();
  return {
    link(l: HubLink): void {
      link = l;
    },
    seatHolds: (): SeatHolds => tests.holds?.() ?? (link?.connection() ? link.seatHolds() : localSeatHolds()),
    seatTaken: (): SeatTakenSource | null => tests.taken?.() ?? (link?.connection() ? link.seatTaken() : null),
    seatCheck: () => link?.seatCheck() ?? null,
    /** A manager's one-time approval codes, redeemed at the Hub while this counter is enrolled (else refused: the admin PIN approves). */
    approvalCodes: (): ApprovalCodes | null => (link?.connection() ? link.approvalCodes() : null),
    /** The relay stream the checkout follows: the Hub link's while it runs (it tells each start and stop). */
    relayHealth: relay,
  };
}
