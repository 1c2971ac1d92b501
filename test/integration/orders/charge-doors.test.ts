// Every door to a charge, in one table: typed Sell (`sale.charge`), a basket (`sale.sellBasket`), a programme sale, a box office
// over HTTP (either form), the folder drop, a charge link (either form), Try again (`orders.retry`) — and the resume after a
// restart (charge-doors-resume.test.ts). Each, through the composed core (Demo profile: the
// embedded sandbox over real loopback HTTP, the journal on a real SQLite file), is refused with no
// shift open, and on a busy terminal is refused (the cashier's doors) or waits its turn, queued
// (a box office's), then goes once the terminal is free: exactly one provider order per sale, and
// never — watched at the provider — a second unpaid order on the terminal.
// The doors are not typed by hand only: the contract calls whose handlers reach the checkout's
// sale, and the integration routes that do, are found by introspection and must equal the table.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { calls } from '../../../shared/contract';
import { INTEGRATION_ROUTES, type ChargeView } from '../../../shared/integration';
import type { OrderView } from '../../../shared/orders';
import type { NextShows } from '../../../shared/programme';
import { lagosDate, lagosHm } from '../../../shared/time';
import { chargeLink } from '../../../integrations/client';
import { api, twoSeats } from '../../helpers/integration-kit';
import { orderReaches } from '../../helpers/core-events';
import { handlerSources, sourcesCalling } from '../../helpers/door-introspection';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

type Outcome = { refused: string } | { order: OrderView };

interface Env {
  core: Core;
  sn: string;
  key: string;
  base: string;
  inbox: string;
  rejected: string;
  showId: number;
  /** The programme's show as a basket names it. */
  show: { filmName: string; filmTitle: string; showDate: string; showTime: string };
  /** For Try again: a closed (cancelled) order of this counter. */
  closed: OrderView | null;
  /** createOrder accepted by the provider, per sale number. */
  created: Map<string, number>;
  /** Times a new order reached the provider while another was unpaid on its terminal. */
  besideUnpaid: string[];
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { code: r.error.code });
  return r.value as T;
}
const attempt = async (f: () => Promise<OrderView>): Promise<Outcome> => {
  try {
    return { order: await f() };
  } catch (e) {
    return { refused: (e as { code?: string }).code ?? String(e) };
  }
};

let seq = 0;
const nextRef = () => `DOOR-${++seq}`;
const sale = (env: Env) => ({ ...twoSeats('x').sale, sn: env.sn, seats: `S${++seq},T${seq}` });
/** The order a box office's booking reference became. */
function orderOfRef(env: Env, ref: string): OrderView {
  const c = env.core.integrations.store.chargeByReference(env.core.integrations.list()[0]!.id, ref);
  if (!c) throw new Error(`no charge for ${ref}`);
  return env.core.checkout.get(c.orderId)!;
}

/** The table: every door, how a sale comes through it, and what it does on a busy terminal. */
const DOORS: {
  name: string;
  via: { call: string } | { route: string } | { folder: true };
  whenBusy: 'refuse' | 'queue';
  go: (env: Env) => Promise<Outcome>;
}[] = [
  {
    name: 'typed Sell',
    via: { call: 'sale.charge' },
    whenBusy: 'refuse',
    go: (env) => attempt(() => call(env.core, 'sale.charge', sale(env))),
  },
  {
    // A basket (a ticket of the programme's show and concessions of the Demo profile's catalogue, by card): the same door, the same rules.
    name: 'basket Sell',
    via: { call: 'sale.sellBasket' },
    whenBusy: 'refuse',
    go: (env) =>
      attempt(() =>
        call(env.core, 'sale.sellBasket', {
          tickets: { ...env.show, seats: [{ seat: `B${++seq}`, ticketType: 'Adult' }] },
          concessions: [{ code: 'POPL', quantity: 1 + (seq % 3) }],
          tender: { kind: 'card' },
          sn: env.sn,
        }),
      ),
  },
  {
    // A box office's basket (the lines form of POST /v1/charges): the same route, the same rules.
    name: 'box office lines over HTTP',
    via: { route: 'charge' },
    whenBusy: 'queue',
    go: async (env) => {
      const ref = nextRef();
      const r = await api<ChargeView & { error?: { code: string } }>(env.base, env.key, 'POST', '/v1/charges', {
        reference: ref,
        tickets: { ...env.show, seats: [{ seat: `K${++seq}`, ticketType: 'Adult' }] },
        concessions: [{ code: 'WATER', quantity: 1 }],
      });
      return r.status === 201
        ? { order: orderOfRef(env, ref) }
        : { refused: (r.body as unknown as { error: { code: string } }).error.code };
    },
  },
  {
    name: 'programme sale',
    via: { call: 'programme.charge' },
    whenBusy: 'refuse',
    go: (env) =>
      attempt(() =>
        call(env.core, 'programme.charge', { showId: env.showId, ticketType: 'Adult', seats: `P${++seq}`, sn: env.sn }),
      ),
  },
  {
    name: 'Try again',
    via: { call: 'orders.retry' },
    whenBusy: 'refuse',
    go: (env) => attempt(() => call(env.core, 'orders.retry', { id: env.closed!.id })),
  },
  {
    name: 'box office over HTTP',
    via: { route: 'charge' },
    whenBusy: 'queue',
    go: async (env) => {
      const ref = nextRef();
      const r = await api<ChargeView & { error?: { code: string } }>(
        env.base,
        env.key,
        'POST',
        '/v1/charges',
        twoSeats(ref, { sale: { ...twoSeats('x').sale, seats: `H${seq},I${seq}` } }),
      );
      return r.status === 201
        ? { order: orderOfRef(env, ref) }
        : { refused: (r.body as unknown as { error: { code: string } }).error.code };
    },
  },
  {
    name: 'charge link',
    via: { call: 'integrations.openLink' },
    whenBusy: 'queue',
    go: async (env) => {
      const ref = nextRef();
      const url = chargeLink(
        env.key,
        twoSeats(ref, { sale: { ...twoSeats('x').sale, seats: `L${seq},M${seq}` } }) as never,
      );
      return attempt(async () => (await call(env.core, 'integrations.openLink', { url }), orderOfRef(env, ref)));
    },
  },
  {
    // A charge link carrying the lines form (a ticket of the programme's show and a water, by card): the same call, the same rules.
    name: 'charge link lines',
    via: { call: 'integrations.openLink' },
    whenBusy: 'queue',
    go: async (env) => {
      const ref = nextRef();
      const url = chargeLink(env.key, {
        reference: ref,
        tickets: { ...env.show, seats: [{ seat: `N${++seq}`, ticketType: 'Adult' }] },
        concessions: [{ code: 'WATER', quantity: 1 }],
      });
      return attempt(async () => (await call(env.core, 'integrations.openLink', { url }), orderOfRef(env, ref)));
    },
  },
  {
    name: 'folder drop',
    via: { folder: true },
    whenBusy: 'queue',
    go: async (env) => {
      const ref = nextRef();
      mkdirSync(env.inbox, { recursive: true });
      writeFileSync(
        join(env.inbox, `${ref}.json`),
        JSON.stringify(twoSeats(ref, { sale: { ...twoSeats('x').sale, seats: `D${seq},E${seq}` } })),
      );
      await env.core.integrations.drop!.scanNow();
      const reason = readdirSync(env.rejected).find((n) => n === `${ref}.json.reason.txt`);
      if (reason) return { refused: readFileSync(join(env.rejected, reason), 'utf8').split(':')[0]! };
      return { order: orderOfRef(env, ref) };
    },
  },
];

async function counter(): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-doors-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    integrations: { port: 0, dropScanMs: 3_600_000 },
  });
  cores.push(core);
  await call(core, 'settings.setPin', { newPin: '2468' });
  const paired = await call<{ id: string; key: string }>(core, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: '',
  });
  const t = Math.floor((Date.now() + 60 * 60_000) / 60_000) * 60_000;
  const csv = [
    'film,title,rating,screen,date,time,ticketType,price,bookingFee',
    `Dune 2,DUNE: PART TWO,12A,Screen 1,${lagosDate(t)},${lagosHm(t)},Adult,1500,500`,
  ].join('\n');
  await call(core, 'programme.import', { csv, fileName: 'week.csv', by: 'Ada' });
  const shows = await call<NextShows>(core, 'programme.next', {});
  const folders = core.integrations.drop!.folders(paired.id);
  const env: Env = {
    core,
    sn: core.terminal.getState().sn!,
    key: paired.key,
    base: core.integrations.apiUrl()!,
    inbox: folders.inbox,
    rejected: folders.rejected,
    showId: shows.shows[0]!.id,
    show: { filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: lagosDate(t), showTime: lagosHm(t) },
    closed: null,
    created: new Map(),
    besideUnpaid: [],
  };
  const sb = core.demo()!.sandbox;
  sb.events.on('pos-order-created', (o) => {
    env.created.set(o.outOrderNo, (env.created.get(o.outOrderNo) ?? 0) + 1);
    const others = sb
      .listPosOrders()
      .filter((p) => p.sn === o.sn && p.outOrderNo !== o.outOrderNo && p.status === 'PENDING');
    if (others.length) env.besideUnpaid.push(`${o.outOrderNo} beside ${others.map((p) => p.outOrderNo).join(', ')}`);
  });
  return env;
}

const openShift = (env: Env) => call(env.core, 'shift.open', { cashier: 'Ngozi', openingFloat: '' });
const closeShift = (env: Env) => call(env.core, 'shift.close', { acceptOpen: true });

/** A sale on the terminal, waiting for the customer. */
async function blocker(env: Env): Promise<OrderView> {
  const o = await call<OrderView>(env.core, 'sale.charge', sale(env));
  return orderReaches(env.core, o.id, 'waiting');
}

describe('every door to a charge goes through the rules', () => {
  for (const door of DOORS) {
    it(`${door.name}: no shift → NO_SHIFT; busy terminal → ${door.whenBusy === 'refuse' ? 'TERMINAL_BUSY' : 'queued, then sent when free'}; one provider order per sale`, async () => {
      const env = await counter();
      if (door.name === 'Try again') {
        // A closed sale to try again: made during a shift, cancelled on the terminal.
        await openShift(env);
        const first = await blocker(env);
        await call(env.core, 'demo.present', { outcome: 'CANCEL' });
        env.closed = await orderReaches(env.core, first.id, 'cancelled');
        await closeShift(env);
      }
      const ordersBefore = env.core.checkout.listToday().length;

      // No shift: refused, nothing recorded, nothing sent.
      expect(await door.go(env)).toEqual({ refused: 'NO_SHIFT' });
      expect(env.core.checkout.listToday()).toHaveLength(ordersBefore);

      // A busy terminal.
      await openShift(env);
      const onIt = await blocker(env);
      const busy = await door.go(env);
      let sold: OrderView;
      if (door.whenBusy === 'refuse') {
        expect(busy).toEqual({ refused: 'TERMINAL_BUSY' });
        await call(env.core, 'demo.present', { outcome: 'SUCCESS' });
        await orderReaches(env.core, onIt.id, 'paid');
        const free = await door.go(env);
        expect(free).toHaveProperty('order');
        sold = (free as { order: OrderView }).order;
      } else {
        expect(busy).toHaveProperty('order');
        sold = (busy as { order: OrderView }).order;
        expect(env.core.checkout.get(sold.id)).toMatchObject({
          state: 'queued',
          reason: expect.stringContaining(onIt.outOrderNo),
        });
        expect(env.created.get(sold.outOrderNo) ?? 0).toBe(0);
        // The customer's tap pays the order on the terminal (the first), not the queued one.
        await call(env.core, 'demo.present', { outcome: 'SUCCESS' });
        await orderReaches(env.core, onIt.id, 'paid');
      }
      await orderReaches(env.core, sold.id, 'waiting');
      await call(env.core, 'demo.present', { outcome: 'SUCCESS' });
      await orderReaches(env.core, sold.id, 'paid');
      for (const o of env.core.checkout.listToday())
        expect(env.created.get(o.outOrderNo) ?? 0, o.outOrderNo).toBeLessThanOrEqual(1);
      expect(env.created.get(sold.outOrderNo)).toBe(1);
      expect(env.besideUnpaid).toEqual([]);
    });
  }
});

describe('the table names every door (found by introspection, not typed by hand)', () => {
  it('the contract calls whose handlers reach the checkout’s sale or Try again are the table’s calls', () => {
    const reaching = Object.entries(handlerSources(Object.keys(calls)))
      .filter(([, src]) =>
        /\b(?:checkout\.(?:sell|retrySale)|integrations\.openLink|desk\.charge|openChargeLink)\s*\(/.test(src),
      )
      .map(([name]) => name);
    // Two rows may share a call (a charge link of either form), as two share the route 'charge'.
    const table = [...new Set(DOORS.flatMap((d) => ('call' in d.via ? [d.via.call] : [])))];
    expect([...new Set(reaching)].sort()).toEqual(table.sort());
  });

  it('only the known doors call the checkout’s sale, Try again or the charge desk', () => {
    expect(sourcesCalling(/\bcheckout\.sell\s*\(/)).toEqual([
      'core/integrations/charge-desk.ts',
      'core/orders/orders-module.ts',
      'core/programme/programme-module.ts',
    ]);
    expect(sourcesCalling(/\bretrySale\s*\(/)).toEqual([
      'core/orders/checkout-sales.ts',
      'core/orders/orders-module.ts',
    ]);
    // Below them all: only the checkout's order calls send a createOrder (the provider link only wraps the client).
    expect(sourcesCalling(/\.createOrder\s*\(/)).toEqual([
      'core/orders/order-calls.ts',
      'core/provider/observed-clients.ts',
    ]);
    // The cashier's choice to leave an order waiting: only the Sell and programme doors pass it on.
    expect(sourcesCalling(/besideWaiting/)).toEqual([
      'core/orders/basket-intake.ts',
      'core/orders/charge-guard.ts',
      'core/orders/checkout-deps.ts',
      'core/orders/checkout-sales.ts',
      'core/orders/orders-module.ts',
      'core/programme/programme-module.ts',
    ]);
    // The desk's charge: the HTTP route, the folder drop and the charge link (all in the table).
    expect(sourcesCalling(/\bdesk\.charge\s*\(/)).toEqual([
      'core/integrations/charge-link.ts',
      'core/integrations/folder-drop.ts',
      'core/integrations/integration-server.ts',
    ]);
  });

  it('the integration routes that reach a sale are the table’s routes: each route is called with a charge and answers NO_SHIFT only if it does', async () => {
    const env = await counter();
    const reaching: string[] = [];
    for (const r of INTEGRATION_ROUTES) {
      const ref = nextRef();
      const path = r.path.replace('{reference}', ref) + (r.name === 'wait' ? '?timeoutSeconds=0' : '');
      const res = await api<{ error?: { code: string } }>(
        env.base,
        env.key,
        r.method,
        path,
        r.method === 'POST' ? twoSeats(ref) : undefined,
      );
      if (res.body.error?.code === 'NO_SHIFT') reaching.push(r.name);
    }
    expect(env.core.checkout.listToday()).toHaveLength(0);
    expect(reaching.sort()).toEqual([...new Set(DOORS.flatMap((d) => ('route' in d.via ? [d.via.route] : [])))].sort());
  });
});
