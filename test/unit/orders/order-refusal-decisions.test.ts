// What a refusal about our clock or keys does to an order: unsigned, the order is held (never
// re-created blindly) with the provider's words; signed, it failed; an answer clears the words.
import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../../core/orders/order-journal';
import { decideOnCreateError, decideOnDetails, decideOnQueryError } from '../../../core/orders/order-decisions';
import { causedRefusalError } from '../../../core/provider/provider-errors';
import type { PosOrderDetails } from '../../../core/provider/types';

const ctx = { op: 'pos.createOrder' };
const skew = { offsetMs: 360_000, correcting: false, measuredAt: 1 };
const unsigned = causedRefusalError(ctx, 'clock', '10002', 'timestamp expired', { verified: false, skew });

function rec(patch: Partial<OrderRecord>): OrderRecord {
  return {
    id: 1,
    outOrderNo: 'C1-261123-0001',
    state: 'unknown',
    amountKobo: 150_000,
    sn: 'DEMO-POS-0001',
    createdAt: 0,
    expiresAt: 10 * 60_000,
    attempts: 1,
    sale: {
      filmName: 'F',
      filmTitle: 'F',
      showDate: '2026-11-23',
      showTime: '19:30',
      seats: 'F7',
      tickets: 1,
      priceKobo: 150_000,
      bookingFeeKobo: 0,
      sn: 'DEMO-POS-0001',
    },
    ...patch,
  } as OrderRecord;
}

describe('refusals and orders', () => {
  it("an unsigned clock refusal of a create holds the order as unknown with the provider's words", () => {
    const d = decideOnCreateError(unsigned);
    expect(d).toMatchObject({ kind: 'move', to: 'unknown' });
    if (d.kind !== 'move') throw new Error('expected a move');
    expect(d.patch.reason).toBe(
      'The provider says the request is too old (code 10002 "timestamp expired"): this computer\'s clock is 6 minutes behind. Fix the date and time, then press Check now. The order may or may not have reached the terminal: do not start a new sale for these tickets.',
    );
    expect(d.note).toMatch(/10002 timestamp expired/);
  });

  it("an unsigned refusal of our keys carries the administrator's line on the order", () => {
    const d = decideOnCreateError(
      causedRefusalError(ctx, 'signature', '10004', 'sign verification failed', { verified: false }),
    );
    expect(d).toMatchObject({
      kind: 'move',
      to: 'unknown',
      patch: {
        reason: expect.stringMatching(
          /code 10004 "sign verification failed".*Administrator: The merchant private key in Settings does not match/,
        ),
      },
    });
  });

  it('a signed refusal of our keys is a failed order (nothing was created)', () => {
    const signed = causedRefusalError(ctx, 'credentials', '10001', 'invalid clientAuthKey', { verified: true });
    expect(decideOnCreateError(signed)).toMatchObject({
      kind: 'move',
      to: 'failed',
      patch: { reason: expect.stringMatching(/refused our credentials/) },
    });
  });

  it('a refused status check puts the words on the order once, without changing its state', () => {
    const d = decideOnQueryError(rec({ state: 'unknown' }), unsigned, { final: false });
    expect(d).toMatchObject({
      kind: 'patch',
      patch: { reason: expect.stringMatching(/^The provider says the request is too old/) },
    });
    if (d.kind !== 'patch') throw new Error('expected a patch');
    expect(
      decideOnQueryError(rec({ state: 'unknown', reason: d.patch.reason as string }), unsigned, { final: false }),
    ).toMatchObject({ kind: 'none' });
    const waiting = decideOnQueryError(rec({ state: 'waiting', orderNo: '1' }), unsigned, { final: false });
    expect(waiting).toMatchObject({
      kind: 'patch',
      patch: { reason: expect.stringMatching(/customer may still pay/) },
    });
  });

  it('the provider answering again clears the refusal from a waiting order', () => {
    const details = {
      outOrderNo: 'C1-261123-0001',
      orderNo: '1',
      status: 'PENDING',
      amountKobo: 150_000,
      sn: 'DEMO-POS-0001',
    } as PosOrderDetails;
    const d = decideOnDetails(rec({ state: 'waiting', orderNo: '1', reason: 'The provider says…' }), details, {
      now: 5,
      final: false,
    });
    expect(d).toMatchObject({ kind: 'patch', patch: { reason: null } });
  });
});
