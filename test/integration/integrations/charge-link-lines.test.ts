// A charge link carrying the lines form (issue 38), opened through `integrations.openLink` on the
// composed Demo counter (journal on a real SQLite file, the embedded sandbox as the provider, the
// integration API over real loopback HTTP): the basket goes through the same desk and parse as
// POST /v1/charges (the same lines under the same reference are the same charge either way), is
// paid by card, and a wrong line is refused under `lines.` with nothing recorded. Today's
// single-type link is built and charged exactly as before.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { signCallback } from '../../../protocol/crypto';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { CHARGE_LINK_MAX_CHARS, type ChargeView } from '../../../shared/integration';
import { lagosDate } from '../../../shared/time';
import { chargeLink, type ChargeLinesRequest } from '../../../integrations/client';
import { api, twoSeats } from '../../helpers/integration-kit';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** A Demo counter with its Demo programme and catalogue, a shift open, and a paired box office. */
async function counter() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-link-lines-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    integrations: { port: 0 },
  });
  cores.push(core);
  await ensureShift((name, args) => call(core, name, args));
  await call(core, 'settings.setPin', { newPin: '2468' });
  await call(core, 'seats.loadDemoProgramme', {});
  const { key } = await call<{ key: string }>(core, 'integrations.pair', { name: 'Box office', callbackUrl: '' });
  return { core, key, base: core.integrations.apiUrl()! };
}

const open = (core: Core, url: string) => core.dispatch('integrations.openLink', { url }, ctx);
type Opened = Awaited<ReturnType<typeof open>>;
const fieldsOf = (r: Opened) =>
  r.ok ? null : ((r.error.details as { fields?: Record<string, string> } | undefined)?.fields ?? {});

const TOMORROW = () => lagosDate(Date.now() + 24 * 60 * 60 * 1000);
/** Tomorrow's Dune 2 at 19:30 of the Demo programme (Screen 1: Adult ₦4,500, Child ₦3,000, fee ₦200 a ticket). */
const dune = () => ({ filmName: 'Dune 2', filmTitle: 'DUNE: PART TWO', showDate: TOMORROW(), showTime: '19:30' });
/** 2 Adult + 1 Child at F7–F9, a popcorn combo with a Fanta, 2 water: ₦12,000 + ₦600 fee + ₦3,800 = ₦16,400. */
const basket = (reference: string, over: Partial<ChargeLinesRequest> = {}): ChargeLinesRequest => ({
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

/** A link signed by hand, its parameters as given (what a system without the client writes). */
function handLink(key: string, params: [string, string][], now = Date.now()): string {
  const integration = /^cpk_([a-f0-9]{12})_/.exec(key)![1]!;
  const all: [string, string][] = [['integration', integration], ['ts', String(now)], ...params];
  const signed = all
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `counterpay://charge?${signed}&sig=${encodeURIComponent(signCallback(key, String(now), signed))}`;
}

describe('a charge link with lines', () => {
  it('charges the basket by card through the desk: the same lines over HTTP under the same reference are the same charge', async () => {
    const { core, key, base } = await counter();
    const link = chargeLink(key, { ...basket('BK-LL-1'), amountKobo: 1_640_000 });
    expect(new URL(link).searchParams.has('lines')).toBe(true);
    expect(await open(core, link)).toMatchObject({ ok: true, value: { created: true, reference: 'BK-LL-1' } });
    const charge = (await api<ChargeView>(base, key, 'GET', '/v1/charges/BK-LL-1')).body;
    expect(charge.amountKobo).toBe(1_640_000);
    expect(charge.basket!.tender).toEqual({ kind: 'card' });
    expect(charge.basket!.amounts).toMatchObject({ totalKobo: 1_640_000, cardKobo: 1_640_000, cashKobo: 0 });
    expect(
      charge.basket!.lines.map((l) => [l.kind, 'ticketType' in l ? l.ticketType : l.code, l.quantity, l.amountKobo]),
    ).toEqual([
      ['tickets', 'Adult', 2, 900_000],
      ['tickets', 'Child', 1, 300_000],
      ['combo', 'CMB1', 1, 300_000],
      ['item', 'WATER', 2, 80_000],
    ]);
    expect(await call(core, 'integrations.originOf', { orderId: core.checkout.listToday()[0]!.id })).toMatchObject({
      reference: 'BK-LL-1',
      source: 'link',
    });
    // Opened again, and the same lines over HTTP (codes in any case): the same charge.
    expect(await open(core, link)).toMatchObject({ ok: true, value: { created: false } });
    const http = await api<ChargeView>(base, key, 'POST', '/v1/charges', {
      ...basket('BK-LL-1', {
        concessions: [
          { code: 'cmb1', quantity: 1, choices: { Drink: 'fanta' } },
          { code: 'water', quantity: 2 },
        ],
      }),
      amountKobo: 1_640_000,
    });
    expect(http.status).toBe(200);
    expect(http.body.outOrderNo).toBe(charge.outOrderNo);
    // Other lines under that reference: refused as over HTTP.
    const other = await open(
      core,
      chargeLink(key, basket('BK-LL-1', { concessions: [{ code: 'WATER', quantity: 1 }] })),
    );
    expect(other).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(core.checkout.listToday()).toHaveLength(1);
  });

  it('a wrong line, a cash tender, lines that are not JSON, lines beside the sale fields or a wrong amount: refused naming the field, nothing recorded', async () => {
    const { core, key } = await counter();
    const refusals: [string, Opened][] = [
      [
        'lines.tickets.seats.2.ticketType',
        await open(
          core,
          chargeLink(key, {
            reference: 'BK-LL-2',
            tickets: {
              ...dune(),
              seats: [
                { seat: 'F7', ticketType: 'Adult' },
                { seat: 'F8', ticketType: 'Adult' },
                { seat: 'F9', ticketType: '' },
              ],
            },
          }),
        ),
      ],
      [
        'lines.concessions.0.quantity',
        await open(core, chargeLink(key, { reference: 'BK-LL-3', concessions: [{ code: 'WATER', quantity: 0 }] })),
      ],
      [
        'lines.concessions.0.choices.Drink',
        await open(core, chargeLink(key, { reference: 'BK-LL-4', concessions: [{ code: 'CMB1', quantity: 1 }] })),
      ],
      [
        'lines.tender.kind',
        await open(
          core,
          handLink(key, [
            ['reference', 'BK-LL-5'],
            ['lines', JSON.stringify({ concessions: [{ code: 'WATER', quantity: 1 }], tender: { kind: 'cash' } })],
          ]),
        ),
      ],
      [
        'lines',
        await open(
          core,
          handLink(key, [
            ['reference', 'BK-LL-6'],
            ['lines', '{"concessions": ['],
          ]),
        ),
      ],
      [
        'lines',
        await open(
          core,
          handLink(key, [
            ['reference', 'BK-LL-7'],
            ['lines', '[]'],
          ]),
        ),
      ],
      [
        'lines.reference',
        await open(
          core,
          handLink(key, [
            ['reference', 'BK-LL-8'],
            ['lines', JSON.stringify({ reference: 'BK-X', concessions: [{ code: 'WATER', quantity: 1 }] })],
          ]),
        ),
      ],
      [
        'lines',
        await open(
          core,
          handLink(key, [
            ['reference', 'BK-LL-9'],
            ['filmName', 'Dune 2'],
            ['lines', JSON.stringify({ concessions: [{ code: 'WATER', quantity: 1 }] })],
          ]),
        ),
      ],
      ['amountKobo', await open(core, chargeLink(key, { ...basket('BK-LL-10'), amountKobo: 1_000_000 }))],
    ];
    for (const [field, r] of refusals) {
      expect(r, field).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
      expect(Object.keys(fieldsOf(r)!), field).toContain(field);
    }
    expect(fieldsOf(refusals[3]![1])!['lines.tender.kind']).toMatch(/no cash drawer/);
    expect(core.checkout.listToday()).toHaveLength(0);
  });

  it('a link longer than the counter opens is refused naming url, and the client will not build one', async () => {
    const { core, key } = await counter();
    const big = basket('BK-LL-11', {
      tickets: {
        ...dune(),
        seats: Array.from({ length: 50 }, (_, i) => ({ seat: `G${i + 1}`, ticketType: 'Adult' })),
      },
      concessions: Array.from({ length: 40 }, () => ({ code: 'CMB1', quantity: 1, choices: { Drink: 'FANTA' } })),
    });
    expect(() => chargeLink(key, big)).toThrow(/at most 4000 characters: send a larger basket over the HTTP API/);
    const long = handLink(key, [
      ['reference', 'BK-LL-11'],
      ['lines', JSON.stringify(big)],
    ]);
    expect(long.length).toBeGreaterThan(CHARGE_LINK_MAX_CHARS);
    const r = await open(core, long);
    expect(r).toMatchObject({ ok: false });
    expect(fieldsOf(r)!.url).toMatch(/at most 4000 characters/);
    expect(core.checkout.listToday()).toHaveLength(0);
  });
});

describe('the single-type link, beside lines', () => {
  it('is built parameter for parameter as before (no lines) and charges the one ticket type without a basket', async () => {
    const { core, key, base } = await counter();
    const now = Date.now();
    const req = twoSeats('BK-LS-1');
    const link = chargeLink(key, req, 'http://127.0.0.1:9/cb', now);
    const sale = Object.entries(req.sale).map(([k, v]): [string, string] => [k, String(v)]);
    expect(link).toBe(
      handLink(
        key,
        [
          ['reference', 'BK-LS-1'],
          ['amountKobo', String(req.amountKobo)],
          ...sale,
          ['returnUrl', 'http://127.0.0.1:9/cb'],
        ],
        now,
      ),
    );
    expect(new URL(link).searchParams.has('lines')).toBe(false);
    const plain = chargeLink(key, req, undefined, now);
    expect(await open(core, plain)).toMatchObject({ ok: true, value: { created: true, reference: 'BK-LS-1' } });
    const charge = (await api<ChargeView>(base, key, 'GET', '/v1/charges/BK-LS-1')).body;
    expect(charge).toMatchObject({ amountKobo: req.amountKobo, sale: req.sale });
    expect(charge.basket).toBeUndefined();
    // Its fields are still named as the sale's: a wrong one under sale.
    const wrong = await open(core, chargeLink(key, twoSeats('BK-LS-2', { amountKobo: 1 })));
    expect(wrong).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(Object.keys(fieldsOf(wrong)!)).toEqual(['amountKobo']);
  });
});
