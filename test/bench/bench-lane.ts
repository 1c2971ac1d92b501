// One counter of the benchmark: its own checkout service and SQLite file, its own sandbox
// terminal, selling one order at a time; the customer taps after a drawn delay, and the lane
// measures when the app learns the result and how many status checks it made for it.
import { join } from 'node:path';
import type { Clock } from '../../electron/core/clock';
import { openDatabase, type Db } from '../../electron/core/db/database';
import { silentLogger } from '../../electron/core/log';
import { createCheckoutService, type CheckoutService, type CheckoutTuningInput } from '../../electron/core/orders/checkout-service';
import type { Timers } from '../../electron/core/orders/timers';
import { createPosClient } from '../../electron/core/provider';
import type { PosClient, PosOrderDetails, ProviderConfig } from '../../electron/core/provider/types';
import type { Sandbox, TerminalOutcome } from '../../electron/sandbox';
import { isFinalState } from '../../shared/orders';
import { createRng } from '../helpers/chaos-random';

export interface OrderMeasure {
  /** Provider settles -> the app has it journaled, real-world ms. */
  latencyMs: number;
  queries: number;
  viaWebhook: boolean;
  paid: boolean;
  /** Paid, but the journal has no payNo (the webhook carries none). */
  paidWithoutPayNo: boolean;
}

/** Shared by the lanes of one sandbox: when each order reached its terminal, and webhook routing. */
export class SandboxHub {
  private readonly reached = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();
  private readonly lanes = new Map<string, BenchLane>();
  /** True while a webhook is being handled (so a lane can tell what ended its order). */
  inWebhook = false;

  constructor(readonly sandbox: Sandbox, private readonly clock: Clock) {
    sandbox.events.on('pos-order-created', (o) => {
      const at = this.clock.now();
      const w = this.waiters.get(o.outOrderNo);
      if (w) {
        this.waiters.delete(o.outOrderNo);
        w(at);
      } else this.reached.set(o.outOrderNo, at);
    });
  }

  /** Resolves with the (clock) time the order reached its terminal. */
  reachedAt(outOrderNo: string): Promise<number> {
    const at = this.reached.get(outOrderNo);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => this.waiters.set(outOrderNo, resolve));
  }

  register(sn: string, lane: BenchLane): void {
    this.lanes.set(sn, lane);
  }

  /** Hands a verified notification to the lane whose terminal it is about. */
  onWebhook(n: PosOrderDetails): void {
    const lane = n.sn ? this.lanes.get(n.sn) : undefined;
    this.inWebhook = true;
    try {
      lane?.svc.onWebhook(n);
    } finally {
      this.inWebhook = false;
    }
  }
}

export interface BenchLaneOptions {
  hub: SandboxHub;
  counterName: string;
  sn: string;
  provider: ProviderConfig;
  clock: Clock;
  timers: Timers;
  tuning?: CheckoutTuningInput;
  dir: string;
  seed: number;
}

interface Current {
  id: number;
  queries: number;
  lastQuery: { at: number; perf: number } | null;
  done: (end: { perf: number; at: number; viaWebhook: boolean }) => void;
}

export class BenchLane {
  readonly svc: CheckoutService;
  private readonly db: Db;
  private current: Current | null = null;

  constructor(private readonly o: BenchLaneOptions) {
    this.db = openDatabase(join(o.dir, `${o.sn}.sqlite`));
    const real = createPosClient(o.provider, { logger: silentLogger, clock: o.clock });
    const pos: PosClient = {
      createOrder: (i) => real.createOrder(i),
      queryOrder: (by) => {
        if (this.current) {
          this.current.queries += 1;
          this.current.lastQuery = { at: o.clock.now(), perf: performance.now() };
        }
        return real.queryOrder(by);
      },
      depositCallbackStatus: (by) => real.depositCallbackStatus(by),
    };
    this.svc = createCheckoutService({
      db: this.db, pos, clock: o.clock, timers: o.timers, logger: silentLogger, random: createRng(o.seed).next,
      settings: () => ({ counterName: o.counterName, headMerchantId: o.provider.headMerchantId, merchantId: o.provider.merchantId, orderExpireSeconds: 300 }),
      ...(o.tuning ? { tuning: o.tuning } : {}),
    });
    this.svc.on('order', (v) => {
      const c = this.current;
      if (c && v.id === c.id && isFinalState(v.state)) c.done({ perf: performance.now(), at: o.clock.now(), viaWebhook: o.hub.inWebhook });
    });
    o.hub.register(o.sn, this);
  }

  /** Sells one order; the customer acts `tapMs` (clock ms) after it reaches the terminal. */
  async one(tapMs: number, outcome: TerminalOutcome): Promise<OrderMeasure> {
    const { clock, timers, hub } = this.o;
    const v = await this.svc.sell({
      filmName: 'Bench Film', filmTitle: 'Hall 1', showDate: '2025-03-31', showTime: '19:30', seats: 'A1', tickets: 1, priceKobo: 250_000, feeKobo: 0, sn: this.o.sn,
    });
    let settled: { at: number; perf: number } | null = null;
    const end = await new Promise<{ perf: number; at: number; viaWebhook: boolean }>((done) => {
      this.current = { id: v.id, queries: 0, lastQuery: null, done };
      void hub.reachedAt(v.outOrderNo).then((reached) => {
        timers.setTimeout(() => {
          settled = { at: clock.now(), perf: performance.now() };
          hub.sandbox.present(this.o.sn, outcome);
        }, reached + tapMs - clock.now());
      });
    });
    const c = this.current as Current | null;
    this.current = null;
    if (!settled || !c) throw new Error(`order ${v.outOrderNo} ended before the customer tapped`);
    const s = settled as { at: number; perf: number };
    // The wait for the check is on the scaled clock; the check itself (the HTTP round trip and
    // handling) is measured in wall time, so scaling does not stretch it.
    const q = c.lastQuery;
    const latencyMs = end.viaWebhook || !q
      ? end.perf - s.perf
      : Math.max(0, q.at - s.at) + (end.perf - q.perf);
    const final = this.svc.get(v.id);
    return { latencyMs, queries: c.queries, viaWebhook: end.viaWebhook, paid: final?.state === 'paid', paidWithoutPayNo: final?.state === 'paid' && !final.payNo };
  }

  async close(): Promise<void> {
    await this.svc.stop();
    this.db.close();
  }
}
