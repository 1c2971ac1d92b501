// The box-office integration API of the composed core, over real loopback HTTP: the Demo
// profile's embedded sandbox as the provider, the journal on a real SQLite file, a real callback
// receiver that checks every signature.
import { mkdtempSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import {
  ChargeViewSchema,
  DeliverySchema,
  INTEGRATION_ROUTES,
  IntegrationErrorSchema,
  type ChargeView,
  type Delivery,
} from '../../../shared/integration';
import { chargeLink } from '../../../integrations/client';
import { api, startCallbackReceiver, twoSeats, type CallbackReceiver } from '../../helpers/integration-kit';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
const receivers: CallbackReceiver[] = [];

async function boot(dir: string) {
  const logger = memoryLogger();
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    clock: systemClock,
    integrations: { port: 0, callbackBackoff: { baseMs: 20, maxMs: 200 } },
  });
  cores.push(core);
  // A box office's charge, like any sale, needs an open shift (charge-door.test.ts refuses it without).
  await ensureShift((name, args) => call(core, name, args));
  return { core, logger };
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** A Demo counter with a paired box office (callback to a fresh receiver): its API address and key. */
async function pairedCounter(callback = true) {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-'));
  const { core, logger } = await boot(dir);
  await call(core, 'settings.setPin', { newPin: '2468' });
  let key = '';
  const receiver = await startCallbackReceiver(() => key);
  receivers.push(receiver);
  const paired = await call<{ id: string; key: string }>(core, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: callback ? receiver.url : '',
  });
  key = paired.key;
  const base = core.integrations.apiUrl()!;
  return { dir, core, logger, receiver, key, id: paired.id, base };
}

const posOrdersFor = (core: Core, outOrderNo: string) =>
  core
    .demo()!
    .sandbox.listPosOrders()
    .filter((o) => o.outOrderNo === outOrderNo);

afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
  while (receivers.length) await receivers.pop()!.close();
});

describe('a charge by booking reference', () => {
  it('20 parallel identical requests make one order on the terminal and all answer the same charge', async () => {
    const { core, key, base } = await pairedCounter(false);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-1001'))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    const outOrderNos = new Set(answers.map((a) => a.body.outOrderNo));
    expect(outOrderNos.size).toBe(1);
    const [outOrderNo] = [...outOrderNos] as [string];
    // The one order reaches the terminal; the sandbox holds exactly one order for it.
    let v = answers[0]!.body;
    while (v.state !== 'waiting')
      v = (await api<ChargeView>(base, key, 'GET', `/v1/charges/BK-1001/wait?after=${v.version}&timeoutSeconds=10`))
        .body;
    expect(posOrdersFor(core, outOrderNo)).toHaveLength(1);
    expect(core.checkout.listToday().filter((o) => o.outOrderNo === outOrderNo)).toHaveLength(1);
    expect(core.checkout.listToday()).toHaveLength(1);
  });

  it('the same reference with another amount or sale is refused, naming what to do; nothing new is recorded', async () => {
    const { core, key, base } = await pairedCounter(false);
    const first = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-2001'));
    expect(first.status).toBe(201);
    const otherSeats = await api(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-2001', { sale: { ...twoSeats('x').sale, seats: 'G1,G2' } }),
    );
    expect(otherSeats.status).toBe(409);
    expect(otherSeats.body).toMatchObject({ error: { code: 'REFERENCE_REUSED' } });
    expect((otherSeats.body as { error: { message: string } }).error.message).toMatch(
      /BK-2001 was already charged .*new booking reference/,
    );
    const otherAmount = await api(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-2001', { amountKobo: 400_000, sale: { ...twoSeats('x').sale, priceKobo: 175_000 } }),
    );
    expect(otherAmount.status).toBe(409);
    // The same sale written differently (lower-case seats, spaces) is the same sale.
    const same = await api<ChargeView>(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-2001', { sale: { ...twoSeats('x').sale, seats: ' f7, f8' } }),
    );
    expect(same.status).toBe(200);
    expect(same.body.outOrderNo).toBe(first.body.outOrderNo);
    expect(core.checkout.listToday()).toHaveLength(1);
  });

  it('reads the charge with its state, provider numbers and masked payer account; waits for the change; the panel knows who asked', async () => {
    const { core, key, base } = await pairedCounter(false);
    const made = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-3001'));
    const orderId = core.checkout.getByOutOrderNo(made.body.outOrderNo)!.id;
    expect(await call(core, 'integrations.originOf', { orderId })).toEqual({
      integration: 'Box office',
      reference: 'BK-3001',
      source: 'api',
    });
    let v = made.body;
    while (v.state !== 'waiting')
      v = (await api<ChargeView>(base, key, 'GET', `/v1/charges/BK-3001/wait?after=${v.version}&timeoutSeconds=10`))
        .body;
    const paidWait = api<ChargeView>(base, key, 'GET', `/v1/charges/BK-3001/wait?after=${v.version}&timeoutSeconds=20`);
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    const paid = (await paidWait).body;
    expect(paid).toMatchObject({
      reference: 'BK-3001',
      integration: 'Box office',
      state: 'paid',
      final: true,
      amountKobo: 350_000,
    });
    expect(paid.orderNo).toBeTruthy();
    const read = await api<ChargeView>(base, key, 'GET', '/v1/charges/BK-3001');
    expect(read.status).toBe(200);
    expect(read.body.state).toBe('paid');
    if (read.body.payerAccount) expect(read.body.payerAccount).toMatch(/\*{4}/);
  });

  it('cancels a charge only while it has not reached the terminal', async () => {
    const { key, base } = await pairedCounter(false);
    await api(base, key, 'POST', '/v1/charges', twoSeats('BK-4001'));
    let v = (await api<ChargeView>(base, key, 'GET', '/v1/charges/BK-4001')).body;
    while (v.state !== 'waiting')
      v = (await api<ChargeView>(base, key, 'GET', `/v1/charges/BK-4001/wait?after=${v.version}&timeoutSeconds=10`))
        .body;
    const refused = await api(base, key, 'POST', '/v1/charges/BK-4001/cancel');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'CANNOT_CANCEL' } });
    expect((await api(base, key, 'POST', '/v1/charges/NOPE/cancel')).status).toBe(404);
  });
});

describe('callbacks', () => {
  it('every state change is POSTed signed, in order, retried through receiver failures, with a delivery log', async () => {
    const { core, key, base, receiver } = await pairedCounter(true);
    receiver.failNext([500, 503]);
    await api(base, key, 'POST', '/v1/charges', twoSeats('BK-5001'));
    await receiver.until((r) => r.body.event.to === 'waiting');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    const paid = await receiver.until((r) => r.body.event.to === 'paid');
    expect(paid.body.charge.state).toBe('paid');
    const acked = receiver.acked().filter((r) => r.body.charge.reference === 'BK-5001');
    expect(acked.map((r) => r.body.event.sequence)).toEqual([1, 2, 3]);
    expect(acked.map((r) => r.body.event.to)).toEqual(['creating', 'waiting', 'paid']);
    expect(acked.map((r) => r.body.event.eventId)).toEqual(['BK-5001:1', 'BK-5001:2', 'BK-5001:3']);
    expect(receiver.all.every((r) => r.signatureOk)).toBe(true);
    // The first change was refused twice, then acknowledged; nothing later went ahead of it.
    expect(receiver.all.slice(0, 3).map((r) => [r.body.event.sequence, r.answered])).toEqual([
      [1, 500],
      [1, 503],
      [1, 200],
    ]);
    const log = await api<{ deliveries: Delivery[] }>(base, key, 'GET', '/v1/charges/BK-5001/deliveries');
    expect(log.body.deliveries.map((d) => [d.sequence, d.state, d.attempts])).toEqual([
      [1, 'delivered', 3],
      [2, 'delivered', 1],
      [3, 'delivered', 1],
    ]);
  });

  it('a receiver that checks signatures with another key refuses, and the change stays queued (not lost)', async () => {
    const { key, base, receiver } = await pairedCounter(true);
    const before = receiver.all.length;
    receiver.failNext([401]);
    await api(base, key, 'POST', '/v1/charges', twoSeats('BK-5002'));
    const first = await receiver.until((r) => r.body.event.sequence === 1);
    expect(receiver.all.length).toBeGreaterThan(before + 1);
    expect(first.signatureOk).toBe(true);
  });
});

describe('refusals', () => {
  it('a missing, wrong or revoked key gets one answer: 401', async () => {
    const { core, key, base, id } = await pairedCounter(false);
    expect((await api(base, null, 'GET', '/v1/ping')).status).toBe(401);
    expect((await api(base, `${key.slice(0, -2)}xx`, 'GET', '/v1/ping')).status).toBe(401);
    expect(
      (await api(base, 'cpk_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'GET', '/v1/ping')).status,
    ).toBe(401);
    expect(await api(base, key, 'GET', '/v1/ping')).toEqual({ status: 200, body: { integration: 'Box office' } });
    const other = await call<{ key: string }>(core, 'integrations.pair', { name: 'Kiosk', callbackUrl: '' });
    await call(core, 'integrations.revoke', { id });
    const revoked = await api(base, key, 'POST', '/v1/charges', twoSeats('BK-6001'));
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ error: { code: 'NOT_AUTHENTICATED' } });
    expect(core.checkout.listToday()).toHaveLength(0);
    // Each integration has its own references: the kiosk's BK-6001 is its own charge.
    expect((await api(base, other.key, 'POST', '/v1/charges', twoSeats('BK-6001'))).status).toBe(201);
  });

  it('the key is never logged', async () => {
    const { key, base, logger } = await pairedCounter(false);
    await api(base, key, 'POST', '/v1/charges', twoSeats('BK-6002'));
    await api(base, `${key}x`, 'GET', '/v1/ping');
    expect(JSON.stringify(logger.lines)).not.toContain(key.slice(17));
  });

  it('a caller from the network is refused while the network is off', async () => {
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (!lan) {
      console.log('skipped: this machine has no non-loopback IPv4 address to call from');
      return;
    }
    const { base, key } = await pairedCounter(false);
    const port = new URL(base).port;
    // Bound to 127.0.0.1: the network address does not even connect.
    await expect(
      fetch(`http://${lan.address}:${port}/v1/ping`, { headers: { authorization: `Bearer ${key}` } }),
    ).rejects.toThrow();
  });

  it('malformed bodies get clear errors and write nothing', async () => {
    const { core, key, base } = await pairedCounter(false);
    const notJson = await api(base, key, 'POST', '/v1/charges', '{"reference": "BK-7001",');
    expect(notJson).toMatchObject({
      status: 422,
      body: { error: { code: 'VALIDATION', message: 'The body is not valid JSON.' } },
    });
    const wrongType = await api(base, key, 'POST', '/v1/charges', 'reference=BK-7001', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(wrongType).toMatchObject({ status: 415, body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE' } } });
    const huge = await api(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-7001', { sale: { ...twoSeats('x').sale, filmName: 'x'.repeat(20_000) } }),
    );
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'TOO_LARGE' } } });
    const fields = await api<{ error: { fields: Record<string, string> } }>(base, key, 'POST', '/v1/charges', {
      reference: 'bad ref!',
      amountKobo: 1.5,
      sale: {},
    });
    expect(fields.status).toBe(422);
    expect(Object.keys(fields.body.error.fields)).toEqual(expect.arrayContaining(['reference', 'amountKobo']));
    const sale = await api<{ error: { fields: Record<string, string> } }>(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-7002', { sale: { ...twoSeats('x').sale, seats: 'F7', showDate: '2026-02-30' } }),
    );
    expect(sale.status).toBe(422);
    expect(sale.body.error.fields).toMatchObject({
      'sale.showDate': expect.stringMatching(/yyyy-MM-dd/),
      'sale.seats': expect.stringMatching(/1 seat listed for 2 tickets/),
    });
    const amount = await api<{ error: { fields: Record<string, string> } }>(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-7003', { amountKobo: 300_000 }),
    );
    expect(amount.status).toBe(422);
    expect(amount.body.error.fields.amountKobo).toMatch(/make ₦3,500\.00/);
    const extra = await api(base, key, 'POST', '/v1/charges', { ...twoSeats('BK-7004'), discount: 5 });
    expect(extra.status).toBe(422);
    expect((await api(base, key, 'GET', '/v1/charges')).status).toBe(405);
    expect((await api(base, key, 'GET', '/v1/nothing')).status).toBe(404);
    expect(core.checkout.listToday()).toHaveLength(0);
  });
});

describe('after a restart', () => {
  it('the outcome is read by reference from the journal, and a late retry returns it, never a second order', async () => {
    const { dir, core, key, base } = await pairedCounter(false);
    const made = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-8001'));
    let v = made.body;
    while (v.state !== 'waiting')
      v = (await api<ChargeView>(base, key, 'GET', `/v1/charges/BK-8001/wait?after=${v.version}&timeoutSeconds=10`))
        .body;
    const paid = api<ChargeView>(base, key, 'GET', `/v1/charges/BK-8001/wait?after=${v.version}&timeoutSeconds=20`);
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    expect((await paid).body.state).toBe('paid');
    await cores.pop()!.stop();
    const { core: again } = await boot(dir);
    const base2 = again.integrations.apiUrl()!;
    const read = await api<ChargeView>(base2, key, 'GET', '/v1/charges/BK-8001');
    expect(read.body).toMatchObject({ state: 'paid', outOrderNo: made.body.outOrderNo });
    const retry = await api<ChargeView>(base2, key, 'POST', '/v1/charges', twoSeats('BK-8001'));
    expect(retry.status).toBe(200);
    expect(retry.body.state).toBe('paid');
    expect(again.checkout.listToday()).toHaveLength(1);
  });
});

describe('the documented routes', () => {
  it('each route of the OpenAPI document answers, with bodies of its documented schemas (nothing more)', async () => {
    const { key, base } = await pairedCounter(false);
    const strictCharge = ChargeViewSchema.strict();
    const seen: string[] = [];
    for (const r of INTEGRATION_ROUTES) {
      const path = r.path.replace('{reference}', 'BK-9001');
      const query = r.name === 'wait' ? '?after=99&timeoutSeconds=0' : '';
      const a = await api(
        base,
        key,
        r.method,
        `${path}${query}`,
        r.method === 'POST' && r.name === 'charge'
          ? twoSeats('BK-9001')
          : r.name === 'refund'
            ? { reason: 'customer-request', approval: { pin: '2468' } }
            : undefined,
      );
      seen.push(`${r.name} ${a.status}`);
      if (a.status >= 400) expect(IntegrationErrorSchema.strict().safeParse(a.body).success).toBe(true);
      else if (r.name === 'deliveries')
        expect(
          (a.body as { deliveries: unknown[] }).deliveries.every((d) => DeliverySchema.strict().safeParse(d).success),
        ).toBe(true);
      else if (r.name !== 'ping') expect(strictCharge.safeParse(a.body).error).toBeUndefined();
    }
    // Every route answered as itself (cancel: the order is already on its way, so 409; refund: it
    // is not paid, or cancelled already, so 409).
    expect(seen).toEqual([
      'charge 201',
      'read 200',
      'wait 200',
      expect.stringMatching(/^cancel (200|409)$/),
      'refund 409',
      'deliveries 200',
      'ping 200',
    ]);
  });
});

describe('charge links', () => {
  it('a signed link charges once; a link with a wrong signature, too old, or with unknown parameters is refused and charges nothing', async () => {
    const { core, key } = await pairedCounter(false);
    const req = twoSeats('BK-L1');
    const link = chargeLink(key, req);
    const opened = await core.dispatch('integrations.openLink', { url: link }, ctx);
    expect(opened).toMatchObject({ ok: true, value: { created: true, reference: 'BK-L1' } });
    expect(await core.dispatch('integrations.openLink', { url: link }, ctx)).toMatchObject({
      ok: true,
      value: { created: false },
    });
    const forged = link.replace('seats=F7%2CF8', 'seats=F7%2CF9');
    expect(await core.dispatch('integrations.openLink', { url: forged }, ctx)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/not signed/) },
    });
    const old = chargeLink(key, twoSeats('BK-L2'), undefined, Date.now() - 11 * 60_000);
    expect(await core.dispatch('integrations.openLink', { url: old }, ctx)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/too old/) },
    });
    const otherKey = chargeLink(`${key.slice(0, 17)}${'A'.repeat(43)}`, twoSeats('BK-L3'));
    expect(await core.dispatch('integrations.openLink', { url: otherKey }, ctx)).toMatchObject({ ok: false });
    expect(await core.dispatch('integrations.openLink', { url: 'https://example.com/charge?x=1' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(core.checkout.listToday()).toHaveLength(1);
    expect(await call(core, 'integrations.originOf', { orderId: core.checkout.listToday()[0]!.id })).toMatchObject({
      reference: 'BK-L1',
      source: 'link',
    });
  });
});
