// The webhook delivery check through the composed core and the embedded sandbox over loopback HTTP:
// the sandbox reports what really happened to its notification (delivered, refused by our receiver,
// no address registered), and a bad answer (unsigned, HTTP 500, provider gone) is a clear error.
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryCheck } from '../../../shared/contract-delivery';
import type { Core } from '../../../core/app-core';
import type { WebhookAttempt } from '../../../sandbox';
import { bootCore, call, callError, orderIn, SALE, sell } from '../records/records-harness';
import { ensureShift } from '../../helpers/ensure-shift';

const cores: Core[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
});

async function boot(): Promise<Core> {
  const { core } = await bootCore();
  cores.push(core);
  return core;
}

async function enableReceiver(core: Core): Promise<void> {
  await call(core, 'settings.setPin', { newPin: '2468' });
  const view = await call<{ settings: Record<string, unknown> }>(core, 'settings.getProfile', { profile: 'demo' });
  await call(core, 'settings.saveProfile', {
    profile: 'demo',
    settings: { ...view.settings, webhook: { enabled: true, host: '127.0.0.1', port: 0, callbackBaseUrl: '' } },
    secrets: {},
  });
}

function attempt(core: Core, match: (a: WebhookAttempt) => boolean): Promise<WebhookAttempt> {
  return new Promise((ok) => {
    const events = core.demo()!.sandbox.events;
    const on = (a: WebhookAttempt) => {
      if (!match(a)) return;
      events.off('webhook-attempt', on);
      ok(a);
    };
    events.on('webhook-attempt', on);
  });
}

const DEPOSIT = '/openApi/order/checkout/depositStatisticAccountCallBack';

describe('webhook delivery check against the sandbox', () => {
  it('no receiver: the provider has no address, and says so', async () => {
    const core = await boot();
    const paid = await sell(core, 'SUCCESS');
    const r = await call<DeliveryCheck>(core, 'delivery.check', { orderId: paid.id });
    expect(r).toMatchObject({
      orderId: paid.id,
      orderNo: paid.orderNo,
      outcome: 'not-registered',
      httpCode: '',
      httpMessage: 'no webhook URL registered',
      receivedHereAt: null,
    });
    expect(r.summary).toMatch(/^Not registered: .*dashboard/);
  });

  it('with the receiver on: HTTP 200 for a paid order, our own record of it, and the same from Settings for the last paid order', async () => {
    const core = await boot();
    await enableReceiver(core);
    const waiting = await sell(core, null);
    const delivered = attempt(core, (a) => a.kind === 'pos' && a.ok);
    const paidNow = orderIn(core, waiting.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    const paid = await paidNow;
    await delivered;
    const r = await call<DeliveryCheck>(core, 'delivery.check', { orderId: paid.id });
    expect(r).toMatchObject({ outcome: 'delivered', httpCode: '200', orderNo: paid.orderNo });
    expect(r.summary).toMatch(/^HTTP 200: our receiver accepted the notification/);
    expect(r.httpMessage).toContain('00000');
    expect(r.receivedHereAt).toEqual(expect.any(Number));
    expect(await call<DeliveryCheck>(core, 'delivery.checkLastPaid', {})).toMatchObject({
      orderId: paid.id,
      outcome: 'delivered',
    });

    // The provider sends it again, so late that our receiver refuses it: the provider reports our 401.
    const late = await core.demo()!.sandbox.redeliverWebhook(paid.orderNo!, { timestampOffsetMs: -10 * 60 * 1000 });
    expect(late.ok).toBe(false);
    const refused = await call<DeliveryCheck>(core, 'delivery.check', { orderId: paid.id });
    expect(refused).toMatchObject({ outcome: 'refused', httpCode: '401' });
    expect(refused.summary).toMatch(/^Not delivered: our receiver answered HTTP 401/);

    // Settings is locked again: the Settings check needs the PIN.
    await call(core, 'settings.lock', {});
    expect((await callError(core, 'delivery.checkLastPaid', {})).code).toBe('PIN_REQUIRED');
  });

  it('bad answers are clear errors that change nothing: unsigned, HTTP 500, provider gone', async () => {
    const core = await boot();
    const paid = await sell(core, 'SUCCESS');
    const sandbox = core.demo()!.sandbox;

    sandbox.setFaults([{ path: DEPOSIT, kind: 'tamperSign', times: 1 }]);
    const unsigned = await callError(core, 'delivery.check', { orderId: paid.id });
    expect(unsigned.code).toBe('PROVIDER_BAD_RESPONSE');
    expect(unsigned.message).toMatch(/not signed with its key, so it was not trusted.*Nothing was changed/);

    sandbox.setFaults([{ path: DEPOSIT, kind: 'http500', times: 1 }]);
    const http = await callError(core, 'delivery.check', { orderId: paid.id });
    expect(http.code).toBe('PROVIDER_HTTP');
    expect(http.message).toMatch(/HTTP 500\. Nothing was changed/);

    // Nothing was changed indeed: the order is as it was.
    expect(await call(core, 'orders.get', { id: paid.id })).toMatchObject({ state: 'paid', orderNo: paid.orderNo });

    await sandbox.close();
    const gone = await callError(core, 'delivery.check', { orderId: paid.id });
    expect(gone.code).toMatch(/^PROVIDER_(UNREACHABLE|TIMEOUT)$/); // refused, or the kept-alive connection dropped
    expect(gone.message).toMatch(/could not be reached.*Nothing was changed.*POS API address/);
  });

  it('refuses an order the provider never confirmed', async () => {
    const core = await boot();
    core.demo()!.sandbox.setFaults([{ path: '/openApi/order/checkout/createOrder', kind: 'http500', times: 100 }]);
    await ensureShift((n, a) => call(core, n, a));
    const order = await call<{ id: number }>(core, 'sale.charge', SALE);
    // The create failed (outcome unknown): until a query finds it, there is no provider order number to ask about.
    const never = await callError(core, 'delivery.check', { orderId: order.id });
    expect(never).toMatchObject({ code: 'CONFLICT' });
    expect(never.message).toMatch(/never confirmed this order/);
  });

  it('refuses an order of another profile, and Settings says when this profile has no paid order yet', async () => {
    const core = await boot();
    const paid = await sell(core, 'SUCCESS');
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'settings.setActiveProfile', { profile: 'sandbox' });
    const other = await callError(core, 'delivery.check', { orderId: paid.id });
    expect(other.code).toBe('CONFLICT');
    expect(other.message).toBe('This order was made under the Demo profile; switch to it to ask that provider.');
    const none = await callError(core, 'delivery.checkLastPaid', {});
    expect(none).toMatchObject({
      code: 'NOT_FOUND',
      message: 'There is no paid order under the Sandbox profile yet. Sell one, then check again.',
    });
  });
});
