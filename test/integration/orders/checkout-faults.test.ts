// The checkout when the network misbehaves, over real loopback HTTP: the provider cannot be
// reached (sales queue, then go out oldest first), the connection drops before the provider did
// anything, or after it committed the order: each sale ends with exactly one provider order.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { createCheckoutService, type CheckoutService } from '../../../core/orders/checkout-service';
import { createPosClient } from '../../../core/provider';
import type { Connectivity } from '../../../shared/orders';
import { openTempDb, SALE_INPUT } from '../../helpers/orders-db';
import { FAST_TUNING, inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

const CREATE = '/openApi/order/checkout/createOrder';
let sb: OrdersSandbox;
let deadUrl: string;
let lane = 100;
const open: { svc: CheckoutService; cleanup: () => void }[] = [];

/** An address where nothing listens: connections are refused, like a provider that is down. */
async function refusedUrl(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  sb = await startOrdersSandbox();
  deadUrl = await refusedUrl();
});
afterAll(async () => sb.sandbox.close());
beforeEach(() => sb.sandbox.reset());
afterEach(async () => {
  sb.sandbox.clearFaults();
  for (const o of open.splice(0)) {
    await o.svc.stop();
    o.cleanup();
  }
});

function checkout() {
  const t = openTempDb();
  const net = { up: true };
  lane += 1;
  const svc = createCheckoutService({
    db: t.db,
    pos: createPosClient(() => sb.providerConfig(net.up ? {} : { posBaseUrl: deadUrl }), { logger: memoryLogger() }),
    clock: systemClock,
    logger: memoryLogger(),
    settings: () => ({
      counterName: `Lane ${lane}`,
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    }),
    tuning: FAST_TUNING,
  });
  open.push({ svc, cleanup: t.cleanup });
  return { svc, net };
}

function nextConnectivity(svc: CheckoutService, test: (c: Connectivity) => boolean): Promise<Connectivity> {
  return new Promise((resolve) => {
    const now = svc.connectivity();
    if (test(now)) return resolve(now);
    const off = svc.on('connectivity', (c) => {
      if (!test(c)) return;
      off();
      resolve(c);
    });
  });
}

const sale = (seats: string) => ({ ...SALE_INPUT, seats, sn: sb.merchant.terminalSn });
const providerOrders = (outOrderNo: string) => sb.sandbox.listPosOrders().filter((o) => o.outOrderNo === outOrderNo);

describe('provider unreachable', () => {
  it('queued while down; once reachable, sent oldest first, one at a time on the terminal: exactly one provider order each, paid', async () => {
    const { svc, net } = checkout();
    net.up = false;
    const a = await svc.sell(sale('A1,A2'));
    const queuedA = await inState(svc, a.id, 'queued');
    expect(queuedA.reason).toMatch(/No connection/);
    await nextConnectivity(svc, (c) => !c.online && c.queueLength === 1);
    // A cashier's second sale for the same terminal is refused; a box office's waits its turn.
    await expect(svc.sell(sale('B1,B2'))).rejects.toMatchObject({ code: 'TERMINAL_BUSY' });
    const b = await svc.sell(sale('B1,B2'), { whenBusy: 'queue' });
    expect(b.state).toBe('queued');
    expect(svc.listQueued().map((o) => o.id)).toEqual([a.id, b.id]);
    expect(sb.sandbox.listPosOrders()).toEqual([]);

    // Before: both went to the terminal at once, and the customer's tap paid whichever it showed.
    net.up = true;
    await inState(svc, a.id, 'waiting');
    await svc.recheckOpen();
    expect(svc.get(b.id)!.state).toBe('queued');
    expect(sb.sandbox.listPosOrders().map((o) => o.outOrderNo)).toEqual([a.outOrderNo]); // oldest first, alone
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, a.id, 'paid');
    await inState(svc, b.id, 'waiting');
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, b.id, 'paid');
    expect(providerOrders(a.outOrderNo)).toHaveLength(1);
    expect(providerOrders(b.outOrderNo)).toHaveLength(1);
    expect(svc.history(b.id).map((e) => e.to)).toEqual(['queued', 'creating', 'waiting', 'paid']);
  });

  it('a dropped connection before the provider did anything: unknown, query says none, sent again once', async () => {
    const { svc } = checkout();
    sb.sandbox.setFaults([{ path: CREATE, kind: 'drop', times: 1 }]);
    const v = await svc.sell(sale('F7,F8'));
    await inState(svc, v.id, 'waiting');
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'unknown', 'creating', 'waiting']);
    expect(providerOrders(v.outOrderNo)).toHaveLength(1);
    expect(svc.get(v.id)!.attempts).toBe(2);
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, v.id, 'paid');
  });
});

describe('lost answers', () => {
  it('commit-then-drop on create: unknown, settled by a query, exactly one provider order', async () => {
    const { svc } = checkout();
    sb.sandbox.setFaults([{ path: CREATE, kind: 'commitThenDrop', times: 1 }]);
    const v = await svc.sell(sale('F7,F8'));
    const waiting = await inState(svc, v.id, 'waiting');
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'unknown', 'waiting']);
    const po = providerOrders(v.outOrderNo);
    expect(po).toHaveLength(1);
    expect(waiting.orderNo).toBe(po[0]!.orderNo);
    expect(waiting.attempts).toBe(1);
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await inState(svc, v.id, 'paid');
    expect(sb.sandbox.listPosOrders()).toHaveLength(1);
  });

  it('HTTP 500 on create: checked before anything is sent again; still one order', async () => {
    const { svc } = checkout();
    sb.sandbox.setFaults([{ path: CREATE, kind: 'http500', times: 1 }]);
    const v = await svc.sell(sale('F7,F8'));
    await inState(svc, v.id, 'waiting');
    expect(svc.history(v.id).map((e) => e.to)).toEqual(['creating', 'unknown', 'creating', 'waiting']);
    expect(providerOrders(v.outOrderNo)).toHaveLength(1);
  });
});
