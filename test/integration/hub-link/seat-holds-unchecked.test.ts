// A sale sent without the check across counters (issue 37): only when the Hub is known unreachable,
// and then it says so. The composed core (Demo profile, the embedded sandbox over loopback HTTP, a
// real SQLite journal) holds its seats through a real Hub (PGlite, real loopback HTTP): while the Hub
// runs, the sale's seats are held and nothing is noted; once the Hub is stopped, the next sale goes
// to the provider, its order keeps "Seats not checked across counters (Hub unreachable): …", the
// line the payment panel and the order's detail show (seatsUncheckedLine), and its receipt prints it.
// (A Hub that is reachable but slow is waited for up to the one deadline: seat-hold-deadline.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubClient, type HubConnection } from '../../../core/hub-link';
import { hubSeatHolds } from '../../../core/hub-link/link-seat-holds';
import { memoryLogger } from '../../../shared/logger';
import type { ReceiptPreview } from '../../../shared/records';
import { SEATS_UNCHECKED, SEATS_UNCHECKED_REASONS, seatsUncheckedLine } from '../../../shared/seats';
import { orderReaches } from '../../helpers/core-events';
import { call, pay, programmeSale, seatCounter, stopSeatCounters, type SeatEnv } from '../../helpers/seat-counter';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { programmeWithSeatMap, SEAT_SHOW } from '../../hub/helpers/seat-show';

describe('a sale whose Hub is unreachable: sent, and said not checked across counters', () => {
  let hub: TestHub;
  let env: SeatEnv;
  const logger = memoryLogger();

  beforeAll(async () => {
    env = await seatCounter();
    hub = await startTestHub();
    await programmeWithSeatMap(hub.db, 'B1', [{ ...SEAT_SHOW, date: env.date, time: env.time }]);
    const e = await enroll(hub, 'Counter 1', 'B1');
    const conn: HubConnection = { url: hub.url, counterId: e.counterId, credential: e.credential, branch: e.branch };
    env.hub.holds = hubSeatHolds({ connection: () => conn, client: createHubClient(), logger, holdMs: () => 360_000 });
  });
  afterAll(async () => {
    await stopSeatCounters();
    await hub?.stop();
  });

  it('held through the running Hub: nothing noted; the Hub stopped: sent, noted on the order and printed on the receipt', async () => {
    const held = await programmeSale(env, ['F7']);
    expect(env.core.checkout.get(held.id)!.seatHold).toMatchObject({ seats: ['F7'], outcome: 'held', note: null });
    expect(seatsUncheckedLine(env.core.checkout.get(held.id)!.seatHold)).toBeNull();
    await pay(env, held);

    await hub.stop();
    const o = await programmeSale(env, ['F9']);
    const hold = env.core.checkout.get(o.id)!.seatHold;
    expect(hold).toMatchObject({ seats: ['F9'], outcome: 'unchecked', note: SEATS_UNCHECKED_REASONS.unreachable });
    expect(seatsUncheckedLine(hold)).toBe('Seats not checked across counters (Hub unreachable)');
    expect(SEATS_UNCHECKED.hubUnreachable).toBe('Seats not checked across counters (Hub unreachable)');
    // Sent to the provider all the same, and the counter's log says why.
    await orderReaches(env.core, o.id, 'waiting');
    expect(env.created.get(o.outOrderNo)).toBe(1);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ code: 'HUB_UNREACHABLE' }) }),
    );
    const paid = await pay(env, o);
    expect(paid.seatHold).toMatchObject({ outcome: 'unchecked', note: SEATS_UNCHECKED_REASONS.unreachable });

    const preview = await call<ReceiptPreview>(env.core, 'receipts.preview', { orderId: o.id });
    expect(preview.receipt.seatsUnchecked).toBe(SEATS_UNCHECKED.hubUnreachable);
    expect(preview.html).toContain(SEATS_UNCHECKED.hubUnreachable);
    const first = await call<ReceiptPreview>(env.core, 'receipts.preview', { orderId: held.id });
    expect(first.receipt.seatsUnchecked).toBeUndefined();
    expect(first.html).not.toContain('not checked across counters');
  });
});
