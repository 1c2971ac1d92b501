// A small in-memory POS provider for unit tests of the order lifecycle: remembers orders by
// outOrderNo like the real one (a second create is "already exists"), and can be told to fail
// a call in each of the ways the real client reports (unreachable, timeout with or without the
// order committed, refused, HTTP 500), or to hold a call until the test releases it.
import { refusedError, timeoutError, unreachableError, httpError } from '../../core/provider/provider-errors';
import type { PosClient, PosCreateOrderInput, PosOrderDetails, PosStatus } from '../../core/provider/types';

export type CreateBehaviour = 'ok' | 'unreachable' | 'timeout' | 'commit-then-timeout' | 'refused' | 'http500' | 'hold';
export type QueryBehaviour = 'ok' | 'unreachable' | 'timeout' | 'hold';

interface StoredOrder {
  input: PosCreateOrderInput;
  orderNo: string;
  status: PosStatus;
  payNo?: string;
}

export class FakePos implements PosClient {
  readonly orders = new Map<string, StoredOrder>();
  readonly calls: { op: 'create' | 'query'; key: string; at: number }[] = [];
  /** Behaviour of the next calls, first in first out; when empty, `default*` applies. */
  readonly createPlan: CreateBehaviour[] = [];
  readonly queryPlan: QueryBehaviour[] = [];
  defaultCreate: CreateBehaviour = 'ok';
  defaultQuery: QueryBehaviour = 'ok';
  /** Calls currently in flight (started, not yet answered). */
  inFlight = 0;
  maxInFlightPerKey = new Map<string, number>();
  private readonly held: (() => void)[] = [];
  private seq = 0;
  private readonly amountOff = new Map<string, number>();
  private readonly current = new Map<string, number>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  creates(outOrderNo?: string): number {
    return this.calls.filter((c) => c.op === 'create' && (outOrderNo === undefined || c.key === outOrderNo)).length;
  }

  queries(): number {
    return this.calls.filter((c) => c.op === 'query').length;
  }

  /** Releases every held call. */
  release(): void {
    for (const r of this.held.splice(0)) r();
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** The customer does something on the terminal. */
  settle(outOrderNo: string, status: 'SUCCESS' | 'FAIL' | 'CANCEL' | 'CLOSE'): PosOrderDetails {
    const o = this.orders.get(outOrderNo);
    if (!o) throw new Error(`fake pos has no order ${outOrderNo}`);
    o.status = status;
    if (status === 'SUCCESS') o.payNo = `PAY${o.orderNo}`;
    return this.details(o);
  }

  /** From now on the provider reports this order's amount off by `kobo` (a wrong or someone else's order). */
  reportAmountOff(outOrderNo: string, kobo: number): void {
    this.amountOff.set(outOrderNo, kobo);
  }

  /** Puts an order in place as if someone else (or an earlier run) created it. */
  seed(input: PosCreateOrderInput, status: PosStatus = 'PENDING'): PosOrderDetails {
    const o: StoredOrder = { input, orderNo: `FAKE${++this.seq}`, status };
    this.orders.set(input.outOrderNo, o);
    return this.details(o);
  }

  detailsOf(outOrderNo: string): PosOrderDetails {
    const o = this.orders.get(outOrderNo);
    if (!o) throw new Error(`fake pos has no order ${outOrderNo}`);
    return this.details(o);
  }

  async createOrder(input: PosCreateOrderInput): Promise<{ orderNo: string }> {
    const behaviour = this.createPlan.shift() ?? this.defaultCreate;
    return this.traced('create', input.outOrderNo, behaviour === 'hold', async () => {
      const ctx = { op: 'pos.createOrder' };
      if (behaviour === 'unreachable') throw unreachableError(ctx, 'refused', 'ECONNREFUSED');
      if (behaviour === 'timeout') throw timeoutError(ctx, 'timeout');
      if (behaviour === 'refused') throw refusedError(ctx, '00002', 'invalid parameter: sn');
      if (behaviour === 'http500') throw httpError(ctx, 500);
      if (this.orders.has(input.outOrderNo)) throw refusedError(ctx, '00005', 'order already exists');
      const o: StoredOrder = { input, orderNo: `FAKE${++this.seq}`, status: 'PENDING' };
      this.orders.set(input.outOrderNo, o);
      if (behaviour === 'commit-then-timeout') throw timeoutError(ctx, 'connection-dropped');
      return { orderNo: o.orderNo };
    });
  }

  async queryOrder(by: { outOrderNo: string } | { orderNo: string }): Promise<PosOrderDetails | null> {
    const behaviour = this.queryPlan.shift() ?? this.defaultQuery;
    const key = 'outOrderNo' in by ? by.outOrderNo : by.orderNo;
    return this.traced('query', key, behaviour === 'hold', async () => {
      const ctx = { op: 'pos.queryOrder' };
      if (behaviour === 'unreachable') throw unreachableError(ctx, 'refused', 'ECONNREFUSED');
      if (behaviour === 'timeout') throw timeoutError(ctx, 'timeout');
      const o =
        'outOrderNo' in by
          ? this.orders.get(by.outOrderNo)
          : [...this.orders.values()].find((x) => x.orderNo === by.orderNo);
      return o ? this.details(o) : null;
    });
  }

  async depositCallbackStatus(): Promise<{ headMerchantId: string; httpCode: string; httpMessage: string }> {
    return { headMerchantId: 'H', httpCode: '200', httpMessage: 'OK' };
  }

  private async traced<T>(op: 'create' | 'query', key: string, hold: boolean, fn: () => Promise<T>): Promise<T> {
    this.calls.push({ op, key, at: this.now() });
    this.inFlight++;
    const n = (this.current.get(key) ?? 0) + 1;
    this.current.set(key, n);
    this.maxInFlightPerKey.set(key, Math.max(this.maxInFlightPerKey.get(key) ?? 0, n));
    try {
      if (hold) await new Promise<void>((r) => this.held.push(r));
      await Promise.resolve();
      return await fn();
    } finally {
      this.inFlight--;
      this.current.set(key, (this.current.get(key) ?? 1) - 1);
    }
  }

  private details(o: StoredOrder): PosOrderDetails {
    return {
      outOrderNo: o.input.outOrderNo,
      orderNo: o.orderNo,
      status: o.status,
      amountKobo: o.input.amountKobo + (this.amountOff.get(o.input.outOrderNo) ?? 0),
      sn: o.input.sn,
      currency: 'NGN',
      ...(o.status === 'SUCCESS'
        ? {
            payNo: o.payNo ?? `PAY${o.orderNo}`,
            feeKobo: 150,
            feePattern: 'OUT_DEDUCT',
            senderName: 'ADA OBI',
            senderAccount: '0123456789',
            transactionTime: 1738314000000,
            completedTime: 1738314005000,
          }
        : {}),
    };
  }
}
