// The box office's lines form (issue 38) over real loopback HTTP against the composed Demo counter
// (journal on a real SQLite file, the embedded sandbox as the provider): a basket of several ticket
// types and concessions goes through the one checkout door, and the provider's order is the card
// part with the film part as productInfo and the other lines in remark. Today's single-type request
// charges the same amounts and answers the same shape as before. Bad lines and hostile bodies are
// refused by field path, and nothing is recorded or sent.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { productInfoFor } from '../../../core/orders';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { ChargeViewSchema, type ChargeView } from '../../../shared/integration';
import { lagosDate } from '../../../shared/time';
import { createCounterPayClient, CounterPayError } from '../../../integrations/client';
import { api, startCallbackReceiver, twoSeats, type CallbackReceiver } from '../../helpers/integration-kit';
import { ensureShift } from '../../helpers/ensure-shift';
import { startBoxOffice } from '../../../examples/box-office/server';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
const receivers: CallbackReceiver[] = [];

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** A Demo counter with its Demo programme and catalogue, a shift open, and a paired box office (callbacks to a receiver). */
async function counter() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-lines-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    integrations: { port: 0, callbackBackoff: { baseMs: 20, maxMs: 200 } },
  });
  cores.push(core);
  await ensureShift((name, args) => call(core, name, args));
  await call(core, 'settings.setPin', { newPin: '2468' });
  await call(core, 'seats.loadDemoProgramme', {});
  let key = '';
  const receiver = await startCallbackReceiver(() => key);
  receivers.push(receiver);
  key = (await call<{ key: string }>(core, 'integrations.pair', { name: 'Box office', callbackUrl: receiver.url })).key;
  return { core, key, receiver, base: core.integrations.apiUrl()! };
}

const TOMORROW = () => lagosDate(Date.now() + 24 * 60 * 60 * 1000);
/** Tomorrow's Dune 2 at 19:30 of the Demo programme (Screen 1: Adult ₦4,500, Child ₦3,000, fee ₦200 a ticket). */
const dune = () => ({ filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: TOMORROW(), showTime: '19:30' });
/** 2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water: ₦12,000 + ₦600 fee + ₦3,800 = ₦16,400. */
const basket = (reference: string, over: Record<string, unknown> = {}) => ({
  reference,
  tickets: {
    ...dune(),
    seats: [
      { seat: 'F7', ticketType: 'Adult' },
      { seat: 'F8', ticketType: 'Adult' },
      { seat: 'F9', ticketType: 'Child' },
    ],
  },
  concessions: [
    { code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } },
    { code: 'WATER', quantity: 2 },
  ],
  ...over,
});

const posOrdersFor = (core: Core, outOrderNo: string) =>
  core
    .demo()!
    .sandbox.listPosOrders()
    .filter((o) => o.outOrderNo === outOrderNo);

async function untilOnTerminal(base: string, key: string, v: ChargeView): Promise<ChargeView> {
  while (v.state !== 'waiting')
    v = (
      await api<ChargeView>(base, key, 'GET', `/v1/charges/${v.reference}/wait?after=${v.version}&timeoutSeconds=10`)
    ).body;
  return v;
}

afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
  while (receivers.length) await receivers.pop()!.close();
});

describe('the single-type request, beside the lines form', () => {
  it('charges the same amount with the same productInfo and no remark, and answers the same shape (no basket)', async () => {
    const { core, key, base } = await counter();
    const made = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-OLD-1'));
    expect(made.status).toBe(201);
    // The answer's fields are exactly those of a charge before baskets.
    expect(Object.keys(made.body).sort()).toEqual(
      [
        'amountKobo',
        'createdAt',
        'expiresAt',
        'final',
        'integration',
        'outOrderNo',
        'reference',
        'sale',
        'state',
        'version',
      ].sort(),
    );
    expect(ChargeViewSchema.strict().safeParse(made.body).error).toBeUndefined();
    expect(made.body).toMatchObject({ amountKobo: 350_000, sale: { ...twoSeats('x').sale } });
    const v = await untilOnTerminal(base, key, made.body);
    expect(v.basket).toBeUndefined();
    const [pos] = posOrdersFor(core, made.body.outOrderNo);
    const { sn: _sn, ...sale } = core.checkout.getByOutOrderNo(made.body.outOrderNo)!.sale;
    expect(pos).toMatchObject({ amountKobo: 350_000, remark: null });
    expect(pos!.productInfo).toEqual(productInfoFor({ ...sale, sn: pos!.sn }));
    // Read again, and the same request again: the same charge, still without a basket.
    const again = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-OLD-1'));
    expect(again.status).toBe(200);
    expect(again.body.basket).toBeUndefined();
  });
});

describe('the lines form', () => {
  it('charges a basket of two ticket types and concessions by card: the provider sees the card part, the film part and the remark', async () => {
    const { core, key, base, receiver } = await counter();
    const client = createCounterPayClient({ baseUrl: base, key });
    const { created, charge } = await client.charge({ ...basket('BK-LINES-1'), amountKobo: 1_640_000 });
    expect(created).toBe(true);
    expect(charge.amountKobo).toBe(1_640_000);
    expect(charge.sale).toMatchObject({
      ...dune(),
      seats: 'F7,F8,F9',
      tickets: 3,
      priceKobo: 0,
      bookingFeeKobo: 60_000,
    });
    expect(charge.basket!.amounts).toEqual({
      ticketsKobo: 1_200_000,
      bookingFeeKobo: 60_000,
      concessionsKobo: 380_000,
      totalKobo: 1_640_000,
      cashKobo: 0,
      cardKobo: 1_640_000,
      tenderedKobo: 0,
      changeKobo: 0,
    });
    expect(charge.basket!.tender).toEqual({ kind: 'card' });
    expect(
      charge.basket!.lines.map((l) => [l.kind, 'ticketType' in l ? l.ticketType : l.code, l.quantity, l.amountKobo]),
    ).toEqual([
      ['tickets', 'Adult', 2, 900_000],
      ['tickets', 'Child', 1, 300_000],
      ['combo', 'CMB1', 1, 300_000],
      ['item', 'WATER', 2, 80_000],
    ]);
    expect(ChargeViewSchema.strict().safeParse(charge).error).toBeUndefined();
    await untilOnTerminal(base, key, charge);
    const pos = posOrdersFor(core, charge.outOrderNo);
    expect(pos).toHaveLength(1);
    expect(pos[0]).toMatchObject({
      amountKobo: 1_640_000,
      productInfo: {
        filmName: 'Dune 2',
        filmTitle: 'DUNE: PART TWO',
        filmTicketNum: '3',
        seatNum: 'F7,F8,F9',
        filmTicketAmount: '12000.00',
        filmFeeAmount: '600.00',
        filmDate: TOMORROW(),
        filmTime: '19:30',
      },
      remark: 'T 2xAdult 1xChild; C 1xCMB1(FANTA) 2xWATER =3800.00',
    });
    // Paid on the terminal: the callback's charge carries the basket too.
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    const paid = await receiver.until((r) => r.body.charge.reference === 'BK-LINES-1' && r.body.event.to === 'paid');
    expect(paid.body.charge.basket?.amounts.totalKobo).toBe(1_640_000);
    // The same lines again (codes and seats in any case, tender left out): the same charge; other lines: refused.
    const same = await api<ChargeView>(
      base,
      key,
      'POST',
      '/v1/charges',
      basket('BK-LINES-1', {
        amountKobo: 1_640_000,
        concessions: [
          { code: 'cmb1', quantity: 1, choices: { Drink: 'fanta' } },
          { code: 'water', quantity: 2 },
        ],
        tender: { kind: 'card' },
      }),
    );
    expect(same).toMatchObject({ status: 200, body: { outOrderNo: charge.outOrderNo, state: 'paid' } });
    const other = await api(base, key, 'POST', '/v1/charges', basket('BK-LINES-1', { concessions: [] }));
    expect(other).toMatchObject({ status: 409, body: { error: { code: 'REFERENCE_REUSED' } } });
    expect(core.checkout.listToday()).toHaveLength(1);
  });

  it('sells concessions alone: no productInfo, the lines in remark', async () => {
    const { core, key, base } = await counter();
    const made = await api<ChargeView>(base, key, 'POST', '/v1/charges', {
      reference: 'BK-SNACK-1',
      concessions: [{ code: 'POPS', quantity: 3 }],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ amountKobo: 450_000, sale: { filmName: '', tickets: 0 } });
    await untilOnTerminal(base, key, made.body);
    expect(posOrdersFor(core, made.body.outOrderNo)[0]).toMatchObject({
      amountKobo: 450_000,
      productInfo: null,
      remark: 'C 3xPOPS =4500.00',
    });
  });

  it('refuses bad lines by field path, cash and split on tender.kind, a wrong total on amountKobo; nothing is recorded or sent', async () => {
    const { core, key, base } = await counter();
    const fieldsOf = async (body: unknown) => {
      const a = await api<{ error: { code: string; fields: Record<string, string> } }>(
        base,
        key,
        'POST',
        '/v1/charges',
        body,
      );
      expect(a.status).toBe(422);
      expect(a.body.error.code).toBe('VALIDATION');
      return a.body.error.fields;
    };
    const seats = basket('x').tickets.seats;
    expect(
      await fieldsOf(
        basket('BK-BAD-1', {
          tickets: { ...dune(), seats: [...seats.slice(0, 2), { seat: 'F9', ticketType: 'Pensioner' }] },
        }),
      ),
    ).toMatchObject({ 'tickets.seats.2.ticketType': expect.stringMatching(/no ticket type "Pensioner"/) });
    expect(
      await fieldsOf(
        basket('BK-BAD-2', {
          concessions: [
            { code: 'POPL', quantity: 1 },
            { code: 'CMB1', quantity: 1, choices: { Drink: 'NACHO' } },
          ],
        }),
      ),
    ).toHaveProperty(['concessions.1.choices.Drink']);
    expect(await fieldsOf(basket('BK-BAD-3', { concessions: [{ code: 'NOPE', quantity: 1 }] }))).toHaveProperty([
      'concessions.0.code',
    ]);
    for (const tender of [
      { kind: 'cash', tenderedKobo: 2_000_000 },
      { kind: 'split', cashKobo: 500_000 },
    ])
      expect((await fieldsOf(basket('BK-BAD-4', { tender })))['tender.kind']).toMatch(/no cash drawer/);
    expect((await fieldsOf(basket('BK-BAD-5', { amountKobo: 1_600_000 }))).amountKobo).toMatch(/₦16,400\.00/);
    expect(await fieldsOf(basket('BK-BAD-6', { tickets: { ...dune(), showTime: '23:59', seats } }))).toHaveProperty(
      'tickets',
    );
    // The client says the same, as a CounterPayError with the fields.
    const client = createCounterPayClient({ baseUrl: base, key });
    const err = await client.charge(basket('BK-BAD-7', { tender: { kind: 'cash' } }) as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CounterPayError);
    expect((err as CounterPayError).fields).toHaveProperty(['tender.kind']);
    expect(core.checkout.listToday()).toHaveLength(0);
    expect(core.demo()!.sandbox.listPosOrders()).toHaveLength(0);
    expect((await api(base, key, 'GET', '/v1/charges/BK-BAD-1')).status).toBe(404);
  });

  it('refuses a hostile body (huge arrays, unknown fields, negative quantities, both forms at once) with 422 and records nothing', async () => {
    const { core, key, base } = await counter();
    const hostile: unknown[] = [
      basket('BK-H-1', { concessions: Array.from({ length: 300 }, () => ({ code: 'POPS', quantity: 1 })) }),
      basket('BK-H-2', {
        tickets: { ...dune(), seats: Array.from({ length: 200 }, (_, i) => ({ seat: `A${i}`, ticketType: 'Adult' })) },
      }),
      basket('BK-H-3', { priceKobo: 1, discount: 100 }),
      basket('BK-H-4', { concessions: [{ code: 'POPS', quantity: -5 }] }),
      basket('BK-H-5', { concessions: [{ code: 'POPS', quantity: 1, priceKobo: 1 }] }),
      basket('BK-H-6', { concessions: [{ code: 'POPS', quantity: 1e308 }] }),
      basket('BK-H-7', { concessions: [{ code: 'CMB1', quantity: 1, choices: { Drink: { $gt: '' } } }] }),
      { ...twoSeats('BK-H-8'), concessions: [{ code: 'POPS', quantity: 1 }] },
      { reference: 'BK-H-9', tickets: 'all of them' },
      [basket('BK-H-10')],
    ];
    for (const body of hostile) {
      const a = await api<{ error: { code: string; fields?: Record<string, string> } }>(
        base,
        key,
        'POST',
        '/v1/charges',
        body,
      );
      expect([a.status, a.body.error.code], JSON.stringify(body).slice(0, 80)).toEqual([422, 'VALIDATION']);
      expect(Object.keys(a.body.error.fields ?? {}).length).toBeLessThanOrEqual(3);
    }
    // Larger than a body may be (16 KiB): refused before it is read as JSON.
    const huge = basket('BK-H-11', {
      concessions: Array.from({ length: 2000 }, () => ({ code: 'POPS', quantity: 1 })),
    });
    expect((await api(base, key, 'POST', '/v1/charges', huge)).status).toBe(413);
    expect(core.checkout.listToday()).toHaveLength(0);
    expect(core.demo()!.sandbox.listPosOrders()).toHaveLength(0);
    for (let i = 1; i <= 11; i++) expect((await api(base, key, 'GET', `/v1/charges/BK-H-${i}`)).status).toBe(404);
  });
});

describe('the example box office', () => {
  it('asks in the lines form (POST /book-basket) and learns Paid from the signed callback', async () => {
    const { core } = await counter();
    const box = await startBoxOffice(0);
    try {
      // Paired with the example's own callback URL, as docs/integration.md section 6 says.
      const paired = await call<{ key: string }>(core, 'integrations.pair', {
        name: 'Example box office',
        callbackUrl: `${box.url}/counterpay/callback`,
      });
      const post = async (path: string, body: unknown) =>
        (await fetch(`${box.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<{
          reference: string;
          state: string;
          totalKobo?: number;
          message?: string;
        }>;
      await post('/setup', { counterPayUrl: core.integrations.apiUrl(), key: paired.key });
      const { reference: _r, ...order } = basket('unused');
      const booked = await post('/book-basket', order);
      expect(booked.message).toBeUndefined();
      expect(booked).toMatchObject({ totalKobo: 1_640_000 });
      expect(['creating', 'waiting']).toContain(booked.state);
      const base = core.integrations.apiUrl()!;
      const first = (await api<ChargeView>(base, paired.key, 'GET', `/v1/charges/${booked.reference}`)).body;
      await untilOnTerminal(base, paired.key, first);
      await call(core, 'demo.present', { outcome: 'SUCCESS' });
      // The example learns Paid from CounterPay's signed callback (each look is one round trip to it).
      let b = booked;
      while (b.state !== 'paid' && b.state !== 'refused')
        b = (await (await fetch(`${box.url}/bookings/${booked.reference}`)).json()) as typeof booked;
      expect(b).toMatchObject({ state: 'paid', totalKobo: 1_640_000 });
    } finally {
      await box.close();
    }
  });
});
