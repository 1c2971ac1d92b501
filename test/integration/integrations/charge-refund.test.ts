// Cancelling tickets of a paid box-office charge (`POST /v1/charges/{reference}/refund`), over real
// loopback HTTP against the composed core (the Demo's embedded sandbox as the provider, a real
// SQLite journal, a real callback receiver that checks every signature): the engine's own cancel
// with its approval (a wrong PIN refused and nothing cancelled, a code refused without a Hub), the
// seats released and the refund owed on the charge, and the box office told by its callback.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { ChargeViewSchema, type ChargeView } from '../../../shared/integration';
import { createCounterPayClient } from '../../../integrations/client';
import { api, startCallbackReceiver, twoSeats, type CallbackReceiver } from '../../helpers/integration-kit';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
const receivers: CallbackReceiver[] = [];
const PIN = '2468';

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
  while (receivers.length) await receivers.pop()!.close();
});

/** A Demo counter with an open shift, an admin PIN and a paired box office whose callbacks a receiver checks. */
async function pairedCounter() {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-refund-'));
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
  await call(core, 'settings.setPin', { newPin: PIN });
  let key = '';
  const receiver = await startCallbackReceiver(() => key);
  receivers.push(receiver);
  const paired = await call<{ key: string }>(core, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: receiver.url,
  });
  key = paired.key;
  const base = core.integrations.apiUrl()!;
  return { core, receiver, key, base, client: createCounterPayClient({ baseUrl: base, key }) };
}

/** Charges `reference` and has the customer pay it on the (Demo) terminal. */
async function paidCharge(c: Awaited<ReturnType<typeof pairedCounter>>, reference: string): Promise<ChargeView> {
  let v = (await c.client.charge(twoSeats(reference))).charge;
  while (v.state !== 'waiting') v = await c.client.wait(reference, v.version, 10);
  const paid = c.client.wait(reference, v.version, 20);
  await call(c.core, 'demo.present', { outcome: 'SUCCESS' });
  v = await paid;
  expect(v.state).toBe('paid');
  return v;
}

describe('a paid charge cancelled by the box office', () => {
  it('needs an approval the engine checks: none, a wrong PIN, or a code without a Hub cancel nothing', async () => {
    const c = await pairedCounter();
    const paid = await paidCharge(c, 'BK-R1');
    const noApproval = await api(c.base, c.key, 'POST', '/v1/charges/BK-R1/refund', { reason: 'customer-request' });
    expect(noApproval.status).toBe(422);
    expect(noApproval.body).toMatchObject({ error: { code: 'VALIDATION', fields: { approval: expect.any(String) } } });
    const wrongPin = await api(c.base, c.key, 'POST', '/v1/charges/BK-R1/refund', {
      reason: 'customer-request',
      approval: { pin: '1111' },
    });
    expect(wrongPin.status).toBe(403);
    expect(wrongPin.body).toMatchObject({ error: { code: 'NOT_APPROVED', message: expect.stringMatching(/PIN/) } });
    const code = await api(c.base, c.key, 'POST', '/v1/charges/BK-R1/refund', {
      reason: 'customer-request',
      approval: { code: 'ABCD-2345' },
    });
    expect(code.status).toBe(403);
    expect(code.body).toMatchObject({ error: { code: 'NOT_APPROVED', message: expect.stringMatching(/Hub/) } });
    const after = await c.client.get('BK-R1');
    expect(after.cancelledSeats).toBeUndefined();
    expect(after.refunds).toBeUndefined();
    expect(after.version).toBe(paid.version);
  });

  it('cancels one seat then the rest: seats released, a card refund owed each time, the callback told', async () => {
    const c = await pairedCounter();
    const paid = await paidCharge(c, 'BK-R2');
    const one = await c.client.refund('BK-R2', {
      seats: ['f7'],
      reason: 'show-cancelled',
      note: 'Projector fault',
      approval: { pin: PIN },
    });
    expect(ChargeViewSchema.safeParse(one).success).toBe(true);
    expect(one).toMatchObject({ state: 'paid', cancelledSeats: ['F7'] });
    expect(one.refunds).toEqual([
      {
        refundNo: expect.stringMatching(/^R\d{4}$/),
        tender: 'card',
        amountKobo: 175_000,
        seats: ['F7'],
        at: expect.any(Number),
      },
    ]);
    expect(one.version).toBe(paid.version + 1);
    // The box office hears it: a signed callback with the cancel's line and the charge as it is now.
    const told = await c.receiver.until((r) => r.body.charge.cancelledSeats?.includes('F7') === true);
    expect(told.signatureOk).toBe(true);
    expect(told.body.event).toMatchObject({
      from: 'paid',
      to: 'paid',
      note: expect.stringMatching(/Cancelled seat F7/),
    });
    // The rest (no seats named): F8; then nothing is left to cancel.
    const rest = await c.client.refund('BK-R2', { reason: 'show-cancelled', approval: { pin: PIN } });
    expect(rest.cancelledSeats).toEqual(['F7', 'F8']);
    expect(rest.refunds?.map((r) => r.seats)).toEqual([['F7'], ['F8']]);
    const again = await api(c.base, c.key, 'POST', '/v1/charges/BK-R2/refund', {
      reason: 'show-cancelled',
      approval: { pin: PIN },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: { code: 'CANNOT_CANCEL', message: expect.stringMatching(/already cancelled/) },
    });
    // The counter's own view agrees: two card refunds owed for the sale.
    const orderId = c.core.checkout.getByOutOrderNo(paid.outOrderNo)!.id;
    const mine = await call<{ refunds: { tender: string; amountKobo: number; returned: unknown }[] }>(
      c.core,
      'refunds.ofOrder',
      { orderId },
    );
    expect(mine.refunds.map((r) => [r.tender, r.amountKobo, r.returned])).toEqual([
      ['card', 175_000, null],
      ['card', 175_000, null],
    ]);
  });

  it('refuses an unpaid charge and an unknown reference', async () => {
    const c = await pairedCounter();
    await c.client.charge(twoSeats('BK-R3'));
    const unpaid = await api(c.base, c.key, 'POST', '/v1/charges/BK-R3/refund', {
      reason: 'customer-request',
      approval: { pin: PIN },
    });
    expect(unpaid.status).toBe(409);
    expect(unpaid.body).toMatchObject({ error: { code: 'CANNOT_CANCEL', message: expect.stringMatching(/not paid/) } });
    const missing = await api(c.base, c.key, 'POST', '/v1/charges/BK-NONE/refund', {
      reason: 'customer-request',
      approval: { pin: PIN },
    });
    expect(missing.status).toBe(404);
  });

  it('a seat that is not one of the charge is refused by field', async () => {
    const c = await pairedCounter();
    await paidCharge(c, 'BK-R4');
    const wrongSeat = await api(c.base, c.key, 'POST', '/v1/charges/BK-R4/refund', {
      seats: ['Z9'],
      reason: 'customer-request',
      approval: { pin: PIN },
    });
    expect(wrongSeat.status).toBe(422);
    expect(wrongSeat.body).toMatchObject({
      error: { code: 'VALIDATION', fields: { seats: expect.stringMatching(/Z9 is not a seat/) } },
    });
  });
});
