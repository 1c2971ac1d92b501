// What the Hub's routing tests share: Hubs and relay streams closed after each test, a counter's
// journal sync and the events it sends (a sale made, a top-up submitted, a sale's provider number
// learnt), an unsigned bills callback, and who the Hub delivered what to.
import { afterEach } from 'vitest';
import { RelayClient } from './sse-client';
import { bearer, post, startTestHub, type TestHub } from './hub-harness';

/** For a test file: `newHub` and `stream` whose Hubs and streams are closed after each of its tests. */
export function hubsPerTest() {
  const hubs: TestHub[] = [];
  const clients: RelayClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.disconnect();
    for (const h of hubs.splice(0)) await h.stop();
  });
  return {
    newHub: async (o: Parameters<typeof startTestHub>[0] = {}) => {
      const h = await startTestHub(o);
      hubs.push(h);
      return h;
    },
    stream: async (hub: TestHub, credential: string, lastEventId: string | null = null) => {
      const c = new RelayClient(hub.url, credential);
      c.lastEventId = lastEventId;
      clients.push(c);
      await c.connect();
      return c;
    },
  };
}

/** The status a counter sends with each sync. */
export const counterStatus = () => ({
  appVersion: '0.1.0',
  profile: 'production',
  sentAt: Date.now(),
  queueLength: 0,
  openPayments: 0,
});

/** A counter's journal sync of these events. */
export const sync = (hub: TestHub, credential: string, events: unknown[]) =>
  post(`${hub.url}/api/v1/sync`, { status: counterStatus(), events }, bearer(credential));

export const topup = (seq: number, reference: string) => ({
  seq,
  kind: 'topup.submitted',
  at: Date.now(),
  payload: { reference, kind: 'airtime', amountKobo: 10_000, provider: 'MTN', customerId: '+2348030000000' },
});

export const sale = (seq: number, reference: string, orderNo?: string) => ({
  seq,
  kind: 'order.created',
  at: Date.now(),
  payload: { reference, amountKobo: 150_000, sn: 'SN', ...(orderNo ? { orderNo } : {}) },
});

/** The sale's provider order number learnt (the terminal has it). */
export const saleStatus = (seq: number, reference: string, orderNo: string) => ({
  seq,
  kind: 'order.status',
  at: Date.now(),
  payload: { reference, orderNo, status: 'waiting' },
});

/** A bills callback: the Hub cannot check its sha512 (the counter does, with its bills secret). */
export const billsBody = (merchantOrderNo: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    payload: {
      orderNo: `BO-${merchantOrderNo}`,
      merchantOrderNo,
      merchantId: 'BILLS-1',
      orderAmount: '100.00',
      serviceType: 'AIRTIME',
      orderStatus: 'SUCCESS',
      ...extra,
    },
    sha512: 'ab'.repeat(64),
    type: 'x',
  });

/** Every delivery the Hub made, in order: [order number, counter]. */
export const deliveredTo = async (hub: TestHub) =>
  (
    await hub.db.query<{ counter_id: string; order_no: string }>(
      'select d.counter_id, n.order_no from deliveries d join notifications n on n.id = d.notification_id order by d.id',
    )
  ).map((r) => [r.order_no, r.counter_id]);
