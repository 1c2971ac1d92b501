// The checkout against the real sandbox over loopback HTTP with the real POS client: the customer
// pays, declines, cancels or never taps; a verified webhook ends the wait; repeats change nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import {
  createCheckoutService,
  type CheckoutService,
  type CheckoutTuningInput,
} from '../../../core/orders/checkout-service';
import { createPosClient } from '../../../core/provider';
import type { PosClient } from '../../../core/provider/types';
import { startWebhookReceiver, WEBHOOK_PATHS, type WebhookReceiver } from '../../../core/webhook';
import { openTempDb, SALE_INPUT } from '../../helpers/orders-db';
import {
  FAST_TUNING,
  inState,
  startOrdersSandbox,
  waitForOrder,
  type OrdersSandbox,
} from '../../helpers/orders-sandbox';

let sb: OrdersSandbox;
let lane = 0;
const open: { svc: CheckoutService; cleanup: () => void }[] = [];

beforeAll(async () => {
  sb = await startOrdersSandbox((c) => {
    c.webhooks = { retryScheduleMs: [], timeoutMs: 3000 };
  });
});
afterAll(async () => sb.sandbox.close());
beforeEach(() => sb.sandbox.reset());
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.svc.stop();
    o.cleanup();
  }
});

/** A checkout on its own SQLite file, as its own counter (so order numbers never collide). */
function checkout(opts: { expireSeconds?: number; tuning?: CheckoutTuningInput } = {}) {
  const t = openTempDb();
  const calls = { create: 0, query: 0 };
  const real = createPosClient(() => sb.providerConfig(), { logger: memoryLogger() });
  const pos: PosClient = {
    createOrder: (i) => {
      calls.create++;
      return real.createOrder(i);
    },
    queryOrder: (b) => {
      calls.query++;
      return real.queryOrder(b);
    },
    depositCallbackStatus: (b) => real.depositCallbackStatus(b),
  };
  lane += 1;
  const svc = createCheckoutService({
    db: t.db,
    pos,
    clock: systemClock,
    logger: memoryLogger(),
    settings: () => ({
      counterName: `Lane ${lane}`,
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: opts.expireSeconds ?? 300,
    }),
    tuning: opts.tuning ?? FAST_TUNING,
  });
  open.push({ svc, cleanup: t.cleanup });
  return { svc, calls };
}

const sale = () => ({ ...SALE_INPUT, sn: sb.merchant.terminalSn });
const providerOrders = (outOrderNo: string) => sb.sandbox.listPosOrders().filter((o) => o.outOrderNo === outOrderNo);

describe('checkout over loopback HTTP', () => {
  it("pay -> paid, with the provider's final details", async () => {
    const { svc } = checkout();
    const v = await svc.sell(sale());
    expect(v.state).toBe('creating');
    const waiting = await inState(svc, v.id, 'waiting');
    expect(waiting.orderNo).toBe(providerOrders(v.outOrderNo)[0]!.orderNo);
    const settled = sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    expect(settled.outOrderNo).toBe(v.outOrderNo);
    const paid = await inState(svc, v.id, 'paid');
    const [po] = providerOrders(v.outOrderNo);
    expect(providerOrders(v.outOrderNo)).toHaveLength(1);
    expect(po!.amountKobo).toBe(710_000);
    expect(po!.productInfo).toMatchObject({
      filmTicketNum: '2',
      seatNum: 'F7,F8',
      filmTicketAmount: '7000.00',
      filmFeeAmount: '100.00',
      filmDate: '2025-01-31',
      filmTime: '19:30',
    });
    expect(paid).toMatchObject({
      payNo: po!.payNo,
      providerFeeKobo: po!.feeKobo,
      feePattern: 'IN_DEDUCT',
      senderName: po!.senderName,
      providerStatus: 'SUCCESS',
    });
    expect(paid.senderAccount).toMatch(/^[*]+\d{4}$/);
    expect(paid.senderAccount!.slice(-4)).toBe(po!.senderAccount.slice(-4));
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'waiting', 'paid']);
  });

  it('decline -> failed', async () => {
    const { svc } = checkout();
    const v = await svc.sell(sale());
    await inState(svc, v.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'FAIL');
    const failed = await inState(svc, v.id, 'failed');
    expect(failed.reason).toMatch(/failed or was declined/);
    expect(failed.providerStatus).toBe('FAIL');
  });

  it('cancel -> cancelled', async () => {
    const { svc } = checkout();
    const v = await svc.sell(sale());
    await inState(svc, v.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'CANCEL');
    expect((await inState(svc, v.id, 'cancelled')).reason).toMatch(/cancelled on the terminal/);
  });

  it('nobody taps -> expired (short expiry)', async () => {
    const { svc } = checkout({ expireSeconds: 1 });
    const v = await svc.sell(sale());
    await inState(svc, v.id, 'waiting');
    const expired = await inState(svc, v.id, 'expired');
    expect(expired.providerStatus).toBe('CLOSE');
    expect(expired.reason).toMatch(/nobody paid/i);
    expect(providerOrders(v.outOrderNo).map((o) => o.status)).toEqual(['CLOSE']);
  });
});

describe('webhooks', () => {
  let receiver: WebhookReceiver;
  let target: CheckoutService | null = null;
  const t = openTempDb();

  beforeAll(async () => {
    receiver = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      db: t.db,
      logger: memoryLogger(),
      getConfig: () => sb.providerConfig(),
      onPosNotification: (n) => target?.onWebhook(n),
      onBillsCallback: () => {},
    });
  });
  afterAll(async () => {
    await receiver.close();
    t.cleanup();
  });

  it('a verified webhook ends the wait at once; a duplicate changes nothing; a contradicting late one is recorded beside the paid order', async () => {
    sb.sandbox.setWebhookUrl(sb.merchant.headMerchantId, `${receiver.url}${WEBHOOK_PATHS.pos}`);
    // Checks so slow that only the webhook can tell us in time.
    const { svc, calls } = checkout({
      tuning: { ...FAST_TUNING, poll: { ...FAST_TUNING.poll, fastMs: 600_000, mediumMs: 600_000, slowMs: 600_000 } },
    });
    target = svc;
    const v = await svc.sell(sale());
    await inState(svc, v.id, 'waiting');
    let queriesWhenPaid = -1;
    svc.on('order', (o) => {
      if (o.id === v.id && o.state === 'paid' && queriesWhenPaid < 0) queriesWhenPaid = calls.query;
    });
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, v.id, 'paid');
    expect(queriesWhenPaid).toBe(0); // the webhook, not a check, ended the wait
    // The notification has no payNo: one query completes the details, changing nothing else.
    const [po] = providerOrders(v.outOrderNo);
    const complete = await waitForOrder(svc, v.id, (o) => o.payNo !== undefined);
    expect(complete).toMatchObject({
      state: 'paid',
      payNo: po!.payNo,
      providerFeeKobo: po!.feeKobo,
      senderName: po!.senderName,
    });
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'waiting', 'paid']);

    const before = JSON.stringify([svc.get(v.id), svc.history(v.id)]);
    const attempt = await sb.sandbox.redeliverWebhook(po!.orderNo);
    expect(attempt.ok).toBe(true);
    const details = { outOrderNo: v.outOrderNo, orderNo: po!.orderNo, amountKobo: 710_000, sn: sb.merchant.terminalSn };
    svc.onWebhook({ ...details, status: 'SUCCESS', payNo: 'DUPLICATE' });
    expect(JSON.stringify([svc.get(v.id), svc.history(v.id)])).toBe(before);
    // The provider reports the paid order otherwise later: kept on the order (its state stays paid), first word only.
    svc.onWebhook({ ...details, status: 'FAIL' });
    svc.onWebhook({ ...details, status: 'CLOSE' });
    expect(svc.get(v.id)).toMatchObject({
      state: 'paid',
      payNo: po!.payNo,
      late: { kind: 'reported-otherwise', providerStatus: 'FAIL' },
    });
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'waiting', 'paid', 'paid']);
    expect(calls.create).toBe(1);
    target = null;
  });
});
