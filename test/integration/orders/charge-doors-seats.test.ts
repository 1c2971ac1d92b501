// Every door to a charge goes through the seat rules (docs/seat-maps.md), below the doors, in the
// checkout: typed Sell, a programme sale, Try again, a box office over HTTP, a charge link, the folder
// drop. Through the composed core (Demo profile: the embedded sandbox over real loopback HTTP, the
// journal on a real SQLite file), for a show whose screen has the example layout: a blocked seat is
// refused, a seat this counter already sold (or is still being paid for) is refused, nothing is
// recorded or sent; a free seat is sold and shows on the seat map. The door list is the one
// charge-doors.test.ts finds by introspection.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '../../../shared/orders';
import { SEATS_UNCHECKED_REASONS, type SeatMapView } from '../../../shared/seats';
import { chargeLink } from '../../../integrations/client';
import { orderReaches } from '../../helpers/core-events';
import { api } from '../../helpers/integration-kit';
import {
  attempt,
  call,
  LAYOUT,
  pay,
  programmeSale,
  seatCounter,
  stopSeatCounters,
  typedSale,
  type Outcome,
  type SeatEnv,
} from '../../helpers/seat-counter';

afterEach(stopSeatCounters);

const boxOffice = (env: SeatEnv, ref: string, seats: string[]) => {
  const { sn: _sn, ...sale } = typedSale(env, seats);
  return { reference: ref, amountKobo: (150_000 + 50_000) * seats.length, sale };
};
let seq = 0;
function orderOfRef(env: SeatEnv, ref: string): OrderView {
  const c = env.core.integrations.store.chargeByReference(env.core.integrations.list()[0]!.id, ref);
  if (!c) throw new Error(`no charge for ${ref}`);
  return env.core.checkout.get(c.orderId)!;
}

/** Each door, selling these seats of the show (Try again has its own test below). */
const DOORS: { name: string; go: (env: SeatEnv, seats: string[]) => Promise<Outcome> }[] = [
  { name: 'typed Sell', go: (env, seats) => attempt(() => call(env.core, 'sale.charge', typedSale(env, seats))) },
  { name: 'programme sale', go: (env, seats) => attempt(() => programmeSale(env, seats)) },
  {
    name: 'box office over HTTP',
    go: async (env, seats) => {
      const ref = `SEAT-${++seq}`;
      const r = await api<{ error?: { code: string; message: string } }>(
        env.base,
        env.key,
        'POST',
        '/v1/charges',
        boxOffice(env, ref, seats),
      );
      return r.status === 201
        ? { order: orderOfRef(env, ref) }
        : { refused: r.body.error!.code, message: r.body.error!.message };
    },
  },
  {
    name: 'charge link',
    go: (env, seats) => {
      const ref = `SEAT-${++seq}`;
      const url = chargeLink(env.key, boxOffice(env, ref, seats) as never);
      return attempt(async () => (await call(env.core, 'integrations.openLink', { url }), orderOfRef(env, ref)));
    },
  },
  {
    name: 'folder drop',
    go: async (env, seats) => {
      const ref = `SEAT-${++seq}`;
      mkdirSync(env.inbox, { recursive: true });
      writeFileSync(join(env.inbox, `${ref}.json`), JSON.stringify(boxOffice(env, ref, seats)));
      await env.core.integrations.drop!.scanNow();
      const reason = readdirSync(env.rejected).find((n) => n === `${ref}.json.reason.txt`);
      if (reason) {
        const text = readFileSync(join(env.rejected, reason), 'utf8');
        return { refused: text.split(':')[0]!, message: text };
      }
      return { order: orderOfRef(env, ref) };
    },
  },
];

describe('every door to a charge goes through the seat rules', () => {
  for (const door of DOORS) {
    it(`${door.name}: a blocked seat and a seat already sold here are refused (nothing sent); a free seat is sold and on the seat map`, async () => {
      const env = await seatCounter();
      const before = env.core.checkout.listToday().length;

      // H10 is blocked in the example layout; Z1 is not a seat of Screen 1.
      const blocked = await door.go(env, ['H9', 'H10']);
      expect(blocked).toMatchObject({
        refused: 'VALIDATION',
        message: expect.stringMatching(/H10 is blocked on Screen 1/),
      });
      const missing = await door.go(env, ['Z1']);
      expect(missing).toMatchObject({
        refused: 'VALIDATION',
        message: expect.stringMatching(/Z1 is not a seat of Screen 1/),
      });
      expect(env.core.checkout.listToday()).toHaveLength(before);

      // A free seat: sold, the hold not checked across counters (no Hub), on the map as this counter's.
      const sold = await door.go(env, ['F9', 'F10']);
      expect(sold).toHaveProperty('order');
      const o = (sold as { order: OrderView }).order;
      expect(env.core.checkout.get(o.id)!.seatHold).toMatchObject({
        seats: ['F9', 'F10'],
        outcome: 'unchecked',
        note: SEATS_UNCHECKED_REASONS.noHub,
      });
      await pay(env, o);
      const map = await call<SeatMapView>(env.core, 'seats.map', { showId: env.showId });
      expect(map.taken.filter((t) => t.seat === 'F9' || t.seat === 'F10')).toEqual([
        { seat: 'F9', state: 'sold', counterName: expect.any(String), mine: true },
        { seat: 'F10', state: 'sold', counterName: expect.any(String), mine: true },
      ]);

      // The same seat again, through the same door: refused before anything is recorded or sent.
      const count = env.core.checkout.listToday().length;
      const again = await door.go(env, ['F10', 'F11']);
      expect(again).toMatchObject({
        refused: 'VALIDATION',
        message: expect.stringMatching(/F10 is already sold at this counter/),
      });
      expect(env.core.checkout.listToday().length).toBe(count);
      for (const rec of env.core.checkout.listToday())
        expect(env.created.get(rec.outOrderNo) ?? 0, rec.outOrderNo).toBeLessThanOrEqual(1);
    });
  }
});

describe('Try again goes through the seat rules', () => {
  it('a cancelled sale tried again keeps its show: refused when its seat was sold since or is now blocked; sold otherwise', async () => {
    const env = await seatCounter();
    const closed = async (seats: string[]) =>
      pay(env, await call<OrderView>(env.core, 'sale.charge', typedSale(env, seats)), 'CANCEL');
    const soldSince = await closed(['F12']);
    const blockedSince = await closed(['F13']);
    const free = await closed(['F14']);
    await pay(env, await programmeSale(env, ['F12']));
    // The screen's layout changes: F13 is blocked now.
    const layout = JSON.parse(LAYOUT) as { rows: { row: string; seats: string }[] };
    layout.rows.find((r) => r.row === 'F')!.seats = '1-4 _ 5-12 13x 14-16 _ 17-20';
    await call(env.core, 'seats.importLayout', { text: JSON.stringify(layout), fileName: 'screen-1.json', by: 'Ada' });
    const count = env.core.checkout.listToday().length;

    const retry = (o: OrderView) => attempt(() => call(env.core, 'orders.retry', { id: o.id }));
    expect(await retry(soldSince)).toMatchObject({
      refused: 'VALIDATION',
      message: expect.stringMatching(/F12 is already sold at this counter/),
    });
    expect(await retry(blockedSince)).toMatchObject({
      refused: 'VALIDATION',
      message: expect.stringMatching(/F13 is blocked on Screen 1/),
    });
    expect(env.core.checkout.listToday()).toHaveLength(count);
    const again = await retry(free);
    expect(again).toHaveProperty('order');
    const o = (again as { order: OrderView }).order;
    expect(env.core.checkout.get(o.id)!.seatHold).toMatchObject({ seats: ['F14'], outcome: 'unchecked' });
    await pay(env, o);
  });
});

describe("this counter's own sale still being paid for", () => {
  it('a seat of its waiting sale (on the terminal, not paid yet) is refused for another sale (a box office queuing behind it); free again once that sale is cancelled', async () => {
    const env = await seatCounter();
    const waiting = await programmeSale(env, ['F15']);
    await orderReaches(env.core, waiting.id, 'waiting');
    const count = env.core.checkout.listToday().length;
    // A box office's charge queues behind a busy terminal, so it reaches the seat rules.
    expect(await DOORS.find((d) => d.name === 'box office over HTTP')!.go(env, ['F15', 'F16'])).toMatchObject({
      refused: 'VALIDATION',
      message: expect.stringMatching(/F15 is already being paid for at this counter \(sale /),
    });
    expect(env.core.checkout.listToday()).toHaveLength(count);
    const map = await call<SeatMapView>(env.core, 'seats.map', { showId: env.showId });
    expect(map.taken.filter((t) => t.seat === 'F15')).toEqual([
      { seat: 'F15', state: 'held', counterName: expect.any(String), mine: true },
    ]);
    // The customer cancels on the terminal: the seat is free for the next sale.
    await call(env.core, 'demo.present', { outcome: 'CANCEL' });
    await orderReaches(env.core, waiting.id, 'cancelled');
    const again = await attempt(() => programmeSale(env, ['F15']));
    expect(again).toHaveProperty('order');
    await pay(env, (again as { order: OrderView }).order);
  });
});
