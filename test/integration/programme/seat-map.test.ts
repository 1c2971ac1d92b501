// Seat maps through the composed core (Demo profile: the embedded sandbox over real loopback HTTP,
// the journal on a real SQLite file): the seat map of a show (its layout, this counter's own seats
// held then sold, other counters' from the Hub's port, "local" with why when there is none), the
// event when a show's seats change, the zone rules, the hold before the provider is asked and its
// settling on the final state, and layouts imported or pushed with the programme, all or nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScreenLayoutEntry } from '../../../shared/contract-seats';
import {
  SEATS_UNCHECKED_REASONS,
  type LayoutImportResult,
  type SeatHoldRequest,
  type SeatHoldOutcome,
  type SeatHolds,
  type SeatMapView,
} from '../../../shared/seats';
import type { NextShows, ProgrammeSummary } from '../../../shared/programme';
import { orderReaches } from '../../helpers/core-events';
import { api } from '../../helpers/integration-kit';
import {
  attempt,
  call,
  pay,
  programmeSale,
  seatCounter,
  stopSeatCounters,
  typedSale,
  type SeatEnv,
} from '../../helpers/seat-counter';

afterEach(stopSeatCounters);

const seatMap = (env: SeatEnv) => call<SeatMapView>(env.core, 'seats.map', { showId: env.showId });
const takenOf = (m: SeatMapView, seats: string[]) => m.taken.filter((t) => seats.includes(t.seat));

/** The next `seats.changed` of the core, for a show key. */
function seatsChanged(env: SeatEnv): Promise<string> {
  return new Promise((ok) => {
    const off = env.core.events.subscribe((name, payload) => {
      if (name === 'seats.changed') {
        off();
        ok((payload as { showKey: string }).showKey);
      }
    });
  });
}

/** A Hub's hold port as a script: answers each hold as told, and records holds and settlements. */
function scriptedHolds(answer: (req: SeatHoldRequest) => Promise<SeatHoldOutcome>) {
  const held: SeatHoldRequest[] = [];
  const settled: [string, 'sold' | 'released'][] = [];
  const holds: SeatHolds = {
    hold: (req) => (held.push(req), answer(req)),
    settle: (orderKey, outcome) => void settled.push([orderKey, outcome]),
  };
  return { holds, held, settled };
}

describe('the seat map of a show', () => {
  it('shows the layout and this counter’s seats: held while paid for, sold when paid, free again when cancelled; seats.changed each time', async () => {
    const env = await seatCounter();
    const empty = await seatMap(env);
    expect(empty.layout).toMatchObject({ screen: 'Screen 1', capacity: 301 });
    expect(empty.taken).toEqual([]);
    expect(empty.source).toEqual({
      kind: 'local',
      reason: 'This counter has no Hub: the map shows the seats sold here only.',
    });

    const changed = seatsChanged(env);
    const o = await programmeSale(env, ['G7', 'G8']);
    expect(await changed).toBe(empty.showKey);
    expect(takenOf(await seatMap(env), ['G7', 'G8']).map((t) => [t.seat, t.state, t.mine])).toEqual([
      ['G7', 'held', true],
      ['G8', 'held', true],
    ]);
    await pay(env, o);
    expect(takenOf(await seatMap(env), ['G7', 'G8']).map((t) => t.state)).toEqual(['sold', 'sold']);

    const c = await programmeSale(env, ['G9']);
    await pay(env, c, 'CANCEL');
    expect(takenOf(await seatMap(env), ['G9'])).toEqual([]);
  });

  it('adds other counters’ seats from the Hub’s port, and says "local" with why when the Hub fails', async () => {
    const env = await seatCounter();
    await programmeSale(env, ['G7']);
    env.hub.taken = {
      taken: () =>
        Promise.resolve({
          at: 1234,
          taken: [
            { seat: 'G7', state: 'held', counterName: 'Counter 1', mine: true },
            { seat: 'H3', state: 'sold', counterName: 'Counter 2', mine: false },
          ],
        }),
    };
    const m = await seatMap(env);
    expect(m.source).toEqual({ kind: 'hub', at: 1234 });
    expect(takenOf(m, ['G7', 'H3']).map((t) => [t.seat, t.state, t.counterName, t.mine])).toEqual([
      ['G7', 'held', expect.any(String), true],
      ['H3', 'sold', 'Counter 2', false],
    ]);
    env.hub.taken = { taken: () => Promise.reject(new Error('down')) };
    const local = await seatMap(env);
    expect(local.source).toEqual({
      kind: 'local',
      reason: 'The Hub cannot be reached: the map shows the seats sold here only.',
    });
    expect(takenOf(local, ['G7', 'H3']).map((t) => t.seat)).toEqual(['G7']);
  });

  it('tells the screens when the Hub says a show’s seats changed at another counter', async () => {
    const env = await seatCounter();
    const changed = seatsChanged(env);
    env.core.seatMap.seatsChanged('2026-11-27 19:30 screen 1');
    expect(await changed).toBe('2026-11-27 19:30 screen 1');
  });
});

describe('zones', () => {
  it('sells a zone’s seats at its ticket type only, one zone per sale', async () => {
    const env = await seatCounter();
    expect(await attempt(() => programmeSale(env, ['M10', 'M11'], 'Adult'))).toMatchObject({
      refused: 'VALIDATION',
      message: 'The VIP seats are sold at the VIP ticket type: choose VIP, or other seats',
    });
    expect(await attempt(() => programmeSale(env, ['M4', 'M5'], 'VIP'))).toMatchObject({
      refused: 'VALIDATION',
      message: expect.stringMatching(/sell the VIP seats as a separate sale/),
    });
    expect(await attempt(() => programmeSale(env, ['F5'], 'VIP'))).toMatchObject({
      refused: 'VALIDATION',
      message: 'VIP tickets are for the VIP seats: choose VIP seats, or another ticket type',
    });
    // A hand-typed sale (or a box office's) has a price, not a type: the VIP seats at the Adult price are refused.
    expect(await attempt(() => call(env.core, 'sale.charge', typedSale(env, ['M10'])))).toMatchObject({
      refused: 'VALIDATION',
      message: 'The VIP seats are sold at the VIP ticket type: choose VIP, or other seats',
    });
    const vip = await programmeSale(env, ['M10', 'M11'], 'VIP');
    expect(vip.amountKobo).toBe(2 * 300_000 + 2 * 50_000);
  });
});

describe('the hold, before the provider is asked', () => {
  it('taken at another counter: the order ends failed naming the seat and the counter, never sent to the provider', async () => {
    const env = await seatCounter();
    const s = scriptedHolds(() =>
      Promise.resolve({ kind: 'taken', taken: [{ seat: 'F7', state: 'held', counterName: 'Counter 2', mine: false }] }),
    );
    env.hub.holds = s.holds;
    const o = await programmeSale(env, ['F7', 'F8']);
    expect(o).toMatchObject({
      state: 'failed',
      reason: 'F7 was just taken at Counter 2: choose other seats (the customer was not charged)',
      seatHold: { seats: ['F7', 'F8'], outcome: 'taken' },
    });
    expect(env.created.get(o.outOrderNo) ?? 0).toBe(0);
    expect(s.held).toEqual([
      {
        orderKey: o.outOrderNo,
        showKey: (await seatMap(env)).showKey,
        show: { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', date: env.date, time: env.time, screen: 'Screen 1' },
        seats: ['F7', 'F8'],
        practice: true,
      },
    ]);
    expect(s.settled).toEqual([]);
    // The seats are free on this counter's map (its sale failed).
    expect(takenOf(await seatMap(env), ['F7', 'F8'])).toEqual([]);
  });

  it('a box office’s sale queued behind a busy terminal is held too: taken, it ends failed from the queue and never reaches the terminal', async () => {
    const env = await seatCounter();
    const onIt = await programmeSale(env, ['B5']); // local holds: not checked, on the terminal
    await orderReaches(env.core, onIt.id, 'waiting');
    const s = scriptedHolds(() =>
      Promise.resolve({ kind: 'taken', taken: [{ seat: 'C5', state: 'sold', counterName: 'Counter 2', mine: false }] }),
    );
    env.hub.holds = s.holds;
    const r = await api<{ outOrderNo: string; state: string }>(env.base, env.key, 'POST', '/v1/charges', {
      reference: 'QUEUED-1',
      amountKobo: 200_000,
      sale: { ...typedSale(env, ['C5']), sn: undefined },
    });
    expect(r.status).toBe(201);
    const queued = env.core.checkout.getByOutOrderNo(r.body.outOrderNo)!;
    expect(queued).toMatchObject({
      state: 'failed',
      reason: 'C5 was just taken at Counter 2: choose other seats (the customer was not charged)',
    });
    await pay(env, onIt);
    expect(env.created.get(queued.outOrderNo) ?? 0).toBe(0);
  });

  it('held: sold when paid, released when cancelled', async () => {
    const env = await seatCounter();
    const s = scriptedHolds(() => Promise.resolve({ kind: 'held' }));
    env.hub.holds = s.holds;
    const paid = await programmeSale(env, ['J5']);
    expect(env.core.checkout.get(paid.id)!.seatHold).toMatchObject({ outcome: 'held', note: null });
    await pay(env, paid);
    expect(s.settled).toContainEqual([paid.outOrderNo, 'sold']);
    const cancelled = await programmeSale(env, ['J6']);
    await pay(env, cancelled, 'CANCEL');
    expect(s.settled).toContainEqual([cancelled.outOrderNo, 'released']);
    expect(s.settled.filter(([k, how]) => k === paid.outOrderNo && how === 'released')).toEqual([]);
  });

  it('paid after closing: the released hold is settled sold again, and the seat shows sold on the map', async () => {
    const env = await seatCounter();
    const s = scriptedHolds(() => Promise.resolve({ kind: 'held' }));
    env.hub.holds = s.holds;
    const o = await pay(env, await programmeSale(env, ['J8']), 'CANCEL');
    expect(s.settled).toEqual([[o.outOrderNo, 'released']]);
    expect(takenOf(await seatMap(env), ['J8'])).toEqual([]);
    // The provider takes the money after all; the counter learns it by asking (the sweep).
    const profile = await call<{ settings: { posBaseUrl: string } }>(env.core, 'settings.getProfile', {
      profile: 'demo',
    });
    const late = await fetch(`${profile.settings.posBaseUrl}/_sandbox/orders/${o.orderNo}/late`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'SUCCESS', cardPan: '5399831234564321' }),
    });
    expect(late.status).toBe(200);
    expect((await call<{ paidAfterClosing: number }>(env.core, 'orders.sweep', {})).paidAfterClosing).toBe(1);
    expect(s.settled.at(-1)).toEqual([o.outOrderNo, 'sold']);
    expect(takenOf(await seatMap(env), ['J8']).map((t) => [t.seat, t.state, t.mine])).toEqual([['J8', 'sold', true]]);
  });

  it('a Hub that does not answer in time: the sale goes on, noted as not checked across counters', async () => {
    const env = await seatCounter();
    const s = scriptedHolds(() => new Promise<SeatHoldOutcome>(() => {}));
    env.hub.holds = s.holds;
    const o = await programmeSale(env, ['J7']);
    expect(env.core.checkout.get(o.id)!.seatHold).toMatchObject({
      outcome: 'unchecked',
      note: SEATS_UNCHECKED_REASONS.slow,
    });
    await orderReaches(env.core, o.id, 'waiting');
    expect(env.created.get(o.outOrderNo)).toBe(1);
  });
});

describe('layouts', () => {
  it('a wrong file is refused with errors by row and cell, and the layout in use stays', async () => {
    const env = await seatCounter();
    const bad = JSON.stringify({
      format: 'counterpay-seat-layout/1',
      screen: 'Screen 1',
      rows: [{ row: 'A', seats: '1-4 4' }],
    });
    const r = await call<LayoutImportResult>(env.core, 'seats.importLayout', {
      text: bad,
      fileName: 's.json',
      by: 'Ada',
    });
    expect(r).toEqual({
      kind: 'refused',
      errors: [{ row: 'A', cell: '4', message: 'Row A: seat A4 is written twice: each seat once per row' }],
    });
    expect((await seatMap(env)).layout!.capacity).toBe(301);
    const list = await call<ScreenLayoutEntry[]>(env.core, 'seats.screens', {});
    expect(list).toEqual([{ screen: 'Screen 1', layout: expect.objectContaining({ capacity: 301 }), source: 'file' }]);
  });

  it('the Hub’s programme brings its layouts; a wrong one and nothing of the push is kept', async () => {
    const env = await seatCounter();
    const programme = (layouts: unknown[]) => ({
      films: [{ name: 'Dune 2', title: 'DUNE: PART TWO', rating: '12A' }],
      screens: ['Screen 1', 'Screen 2'],
      shows: [
        {
          film: 'Dune 2',
          screen: 'Screen 2',
          date: env.date,
          time: env.time,
          ticketTypes: [{ name: 'Adult', priceKobo: 150_000, bookingFeeKobo: 0 }],
        },
      ],
      layouts,
    });
    const screen2 = {
      format: 'counterpay-seat-layout/1',
      screen: 'Screen 2',
      zones: [],
      rows: [{ row: 'A', seats: '1-10' }],
    };
    const pushed = env.core.replaceProgramme(
      { kind: 'hub', version: 1, receivedAt: 1, counterId: 'c1' },
      programme([screen2]) as never,
    );
    expect(pushed.replaced).toBe(true);
    const list = await call<ScreenLayoutEntry[]>(env.core, 'seats.screens', {});
    expect(list.map((l) => [l.screen, l.source, l.layout?.capacity ?? null])).toEqual([
      ['Screen 1', 'file', 301],
      ['Screen 2', 'hub', 10],
    ]);

    const before = await call<ProgrammeSummary>(env.core, 'programme.summary', {});
    const wrong = { ...screen2, rows: [{ row: 'A', seats: '1-10 q' }] };
    expect(() =>
      env.core.replaceProgramme(
        { kind: 'hub', version: 2, receivedAt: 2, counterId: 'c1' },
        programme([wrong]) as never,
      ),
    ).toThrow(/the layout of Screen 2 is wrong \(Row A: "q" is not a cell/);
    expect(await call<ProgrammeSummary>(env.core, 'programme.summary', {})).toEqual(before);
    expect(
      (await call<ScreenLayoutEntry[]>(env.core, 'seats.screens', {})).find((l) => l.screen === 'Screen 2')!.layout!
        .capacity,
    ).toBe(10);
  });
});

describe('the Demo programme', () => {
  it('loads in the Demo profile with Screen 1’s seat map, and its shows sell by the seat rules', async () => {
    const env = await seatCounter();
    const summary = await call<ProgrammeSummary>(env.core, 'seats.loadDemoProgramme', {});
    expect(summary).toMatchObject({ films: 2, screens: 2, source: { kind: 'csv', fileName: 'Demo programme' } });
    const list = await call<ScreenLayoutEntry[]>(env.core, 'seats.screens', {});
    expect(list.map((l) => [l.screen, l.layout?.capacity ?? null])).toEqual([
      ['Screen 1', 301],
      ['Screen 2', null],
    ]);
    const next = await call<NextShows>(env.core, 'programme.next', {});
    const show = next.shows.find((s) => s.screen === 'Screen 1')!;
    const sell = (seats: string) =>
      attempt(() => call(env.core, 'programme.charge', { showId: show.id, ticketType: 'Adult', seats, sn: env.sn }));
    expect(await sell('H10')).toMatchObject({
      refused: 'VALIDATION',
      message: expect.stringMatching(/H10 is blocked/),
    });
    expect(await sell('K10')).toHaveProperty('order');
  });
});
