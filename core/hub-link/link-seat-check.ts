// The seat check over the Hub: which of a show's seats are taken on the counters of the branch (paid,
// or waiting: held for a sale being paid or in one still open), read by the Hub from the same rows as
// the seat maps, the show keyed with its screen. The programme module asks it with a deadline of its own.
import { SeatCheckResponseSchema } from '../../shared/hub-programme-contract';
import type { SeatConflict } from '../../shared/programme';
import { SEAT_HOLD_WAIT_MS } from '../../shared/seats';
import type { SeatCheck } from '../programme';
import type { SettingsService } from '../settings';
import type { HubClient } from './link-client';
import type { HubConnectionSource } from './link-types';

/** The programme module gives up at the same wait (a seat hold's); this bounds the request itself. */
const SEAT_CHECK_TIMEOUT_MS = SEAT_HOLD_WAIT_MS;

/** The seat check over the Hub, or null without one (the programme module then says "skipped"). */
export function hubSeatCheck(d: {
  connection: HubConnectionSource;
  client: HubClient;
  settings: Pick<SettingsService, 'activeProfile'>;
}): SeatCheck | null {
  const c = d.connection();
  if (!c) return null;
  return {
    async conflicts(q, signal) {
      const profile = d.settings.activeProfile();
      const body = {
        show: {
          filmName: q.show.filmName,
          filmTitle: q.show.filmTitle,
          date: q.show.date,
          time: q.show.time,
          screen: q.show.screen,
        },
        seats: q.seats.slice(0, 100),
        practice: profile === 'demo' || profile === 'sandbox',
      };
      const r = await d.client.call(c, 'POST', '/seats/check', body, SeatCheckResponseSchema, {
        signal,
        timeoutMs: SEAT_CHECK_TIMEOUT_MS,
      });
      return r.conflicts.map((x): SeatConflict => ({
        seat: x.seat,
        counterName: x.counterId === c.counterId ? `${x.counterName} (this counter)` : x.counterName,
        state: x.state,
        at: x.at,
      }));
    },
  };
}
