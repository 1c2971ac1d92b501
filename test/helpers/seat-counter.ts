// A counter for the seat map tests: the composed core in the Demo profile (the embedded sandbox
// over real loopback HTTP, the journal on a real SQLite file), a shift open, Dune 2 in an hour on
// Screen 1 with the example layout (examples/layouts/screen-1.json), and a box office paired.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createCore, type Core } from '../../core/app-core';
import { confStore } from '../../browser-shell/boot';
import { fileVault } from '../../core/settings/secret-vault';
import { systemClock } from '../../shared/clock';
import { memoryLogger } from '../../shared/logger';
import type { OrderView } from '../../shared/orders';
import type { NextShows } from '../../shared/programme';
import type { SeatHolds, SeatTakenSource } from '../../shared/seats';
import { lagosDate, lagosHm } from '../../shared/time';
import { orderReaches } from './core-events';

/** Every core a test built: `stopSeatCounters()` in afterEach. */
const cores: Core[] = [];
export async function stopSeatCounters(): Promise<void> {
  while (cores.length) await cores.pop()!.stop();
}
export const LAYOUT = readFileSync(join(__dirname, '../../examples/layouts/screen-1.json'), 'utf8');

const ctx = { trusted: true, sender: 'test' };

export interface SeatEnv {
  core: Core;
  sn: string;
  key: string;
  base: string;
  inbox: string;
  rejected: string;
  showId: number;
  date: string;
  time: string;
  /** createOrder accepted by the provider, per sale number. */
  created: Map<string, number>;
  /** A scripted Hub, asked before the Hub link: its seat holds (per sale) and other counters' seats (per map); null: none. */
  hub: { holds: SeatHolds | null; taken: SeatTakenSource | null };
}
export type Outcome = { refused: string; message: string } | { order: OrderView };

export async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok)
    throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), {
      code: r.error.code,
      msg: r.error.message,
    });
  return r.value as T;
}
export const attempt = async (f: () => Promise<OrderView>): Promise<Outcome> => {
  try {
    return { order: await f() };
  } catch (e) {
    const err = e as { code?: string; msg?: string };
    return { refused: err.code ?? String(e), message: err.msg ?? String(e) };
  }
};

/** A counter in the Demo profile with a shift open, Dune 2 in an hour on Screen 1 (Adult ₦1,500 + ₦500 fee, VIP ₦3,000) and the example layout. */
export async function seatCounter(): Promise<SeatEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-seats-'));
  const hub: SeatEnv['hub'] = { holds: null, taken: null };
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    integrations: { port: 0, dropScanMs: 3_600_000 },
    seatSources: { holds: () => hub.holds, taken: () => hub.taken },
  });
  cores.push(core);
  await call(core, 'settings.setPin', { newPin: '2468' });
  const paired = await call<{ id: string; key: string }>(core, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: '',
  });
  const t = Math.floor((Date.now() + 60 * 60_000) / 60_000) * 60_000;
  const [date, time] = [lagosDate(t), lagosHm(t)];
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${date},${time},Adult,1500,500`,
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${date},${time},VIP,3000,500`,
  ].join('\n');
  await call(core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
  expect(await call(core, 'seats.importLayout', { text: LAYOUT, fileName: 'screen-1.json', by: 'Ada' })).toMatchObject({
    kind: 'imported',
    screen: 'Screen 1',
  });
  const shows = await call<NextShows>(core, 'programme.next', {});
  const folders = core.integrations.drop!.folders(paired.id);
  await call(core, 'shift.open', { cashier: 'Ngozi', openingFloat: '' });
  const env: SeatEnv = {
    core,
    sn: core.terminal.getState().sn!,
    key: paired.key,
    base: core.integrations.apiUrl()!,
    inbox: folders.inbox,
    rejected: folders.rejected,
    showId: shows.shows[0]!.id,
    date,
    time,
    created: new Map(),
    hub,
  };
  core.demo()!.sandbox.events.on('pos-order-created', (o) => {
    env.created.set(o.outOrderNo, (env.created.get(o.outOrderNo) ?? 0) + 1);
  });
  return env;
}

/** The sale a hand-typed form or a box office sends for seats of the show, at the Adult price. */
export function typedSale(env: SeatEnv, seats: string[]) {
  return {
    filmName: 'Dune 2',
    filmTitle: 'DUNE: PART TWO',
    showDate: env.date,
    showTime: env.time,
    seats: seats.join(','),
    tickets: seats.length,
    priceKobo: 150_000,
    bookingFeeKobo: 50_000 * seats.length,
    sn: env.sn,
  };
}
export const programmeSale = (env: SeatEnv, seats: string[], ticketType = 'Adult') =>
  call<OrderView>(env.core, 'programme.charge', { showId: env.showId, ticketType, seats: seats.join(','), sn: env.sn });

/** A sale paid on the Demo terminal. */
export async function pay(env: SeatEnv, o: OrderView, outcome: 'SUCCESS' | 'CANCEL' = 'SUCCESS'): Promise<OrderView> {
  await orderReaches(env.core, o.id, 'waiting');
  await call(env.core, 'demo.present', { outcome });
  return orderReaches(env.core, o.id, outcome === 'SUCCESS' ? 'paid' : 'cancelled');
}
