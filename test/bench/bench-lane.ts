// One counter of the benchmark: its own checkout service and SQLite file, its own sandbox
// terminal, selling one order at a time; the customer taps after a drawn delay, and the lane
// measures when the app learns the result and how many status checks it made for it.
import { join } from 'node:path';
import { openJournalDb } from '../../core/schema';
import { type Db } from '../../core/db';
import { silentLogger } from '../../shared/logger';
import {
  createCheckoutService,
  type CheckoutService,
  type CheckoutTuningInput,
} from '../../core/orders/checkout-service';
import { createPosClient } from '../../core/provider';
import type { PosClient, PosOrderDetails, ProviderConfig } from '../../core/provider/types';
import type { Sandbox, TerminalOutcome } from '../../sandbox';
import { isFinalState } from '../../shared/orders';
import { createRng } from '../helpers/chaos-random';
import type { LaneTime } from './scaled-time';

/** The sale the detection benchmarks sell (bench-lane, relay-detection): one ₦2,500 ticket; add the terminal's `sn`. */
export const BENCH_SALE = {
  filmName: 'Bench Film',
  filmTitle: 'Hall 1',
  showDate: '2025-03-31',
  showTime: '19:30',
  seats: 'A1',
  tickets: 1,
  priceKobo: 250_000,
  bookingFeeKobo: 0,
};

export interface OrderMeasure {
  /** Provider settles -> the app has it journaled, on the lane's clock (real-world ms). */
  latencyMs: number;
  queries: number;
  viaWebhook: boolean;
  paid: boolean;
  /** Paid, but the journal has no payNo (the webhook carries none). */
  paidWithoutPayNo: boolean;
}

/** Shared by the lanes of one sandbox: orders reaching each lane's terminal, and webhook routing. */
export class SandboxHub {
  private readonly lanes = new Map<string, BenchLane>();
  /** True while a webhook is being handled (so a lane can tell what ended its order). */
  inWebhook = false;

  constructor(readonly sandbox: Sandbox) {
    sandbox.events.on('pos-order-created', (o) => this.lanes.get(o.sn)?.reached(o.outOrderNo));
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
  time: LaneTime;
  tuning?: CheckoutTuningInput;
  dir: string;
  seed: number;
}

interface Current {
  id: number;
  queries: number;
  done: (end: { at: number; viaWebhook: boolean }) => void;
}

export class BenchLane {
  readonly svc: CheckoutService;
  private readonly db: Db;
  private current: Current | null = null;
  private onReached: ((outOrderNo: string) => void) | null = null;

  constructor(private readonly o: BenchLaneOptions) {
    this.db = openJournalDb(join(o.dir, `${o.sn}.sqlite`));
    const { time } = o;
    const real = createPosClient(o.provider, { logger: silentLogger, clock: time.clock });
    const pos: PosClient = {
      createOrder: (i) => time.call(() => real.createOrder(i)),
      queryOrder: (by) => {
        if (this.current) this.current.queries += 1;
        return time.call(() => real.queryOrder(by));
      },
      depositCallbackStatus: (by) => time.call(() => real.depositCallbackStatus(by)),
    };
    this.svc = createCheckoutService({
      db: this.db,
      pos,
      clock: time.clock,
      timers: time.timers,
      logger: silentLogger,
      random: createRng(o.seed).next,
      settings: () => ({
        counterName: o.counterName,
        headMerchantId: o.provider.headMerchantId,
        merchantId: o.provider.merchantId,
        orderExpireSeconds: 300,
      }),
      ...(o.tuning ? { tuning: o.tuning } : {}),
    });
    this.svc.on('order', (v) => {
      const c = this.current;
      if (c && v.id === c.id && isFinalState(v.state)) c.done({ at: time.now(), viaWebhook: o.hub.inWebhook });
    });
    o.hub.register(o.sn, this);
  }

  /** The sandbox put an order on this lane's terminal. */
  reached(outOrderNo: string): void {
    this.onReached?.(outOrderNo);
  }

  /** Sells one order; the customer acts `tapMs` (lane clock) after it reaches the terminal. */
  async one(tapMs: number, outcome: TerminalOutcome): Promise<OrderMeasure> {
    const { time, hub, sn } = this.o;
    let settledAt: number | null = null;
    let outOrderNo = '';
    const end = await new Promise<{ at: number; viaWebhook: boolean }>((done, fail) => {
      this.onReached = (out) => {
        this.onReached = null;
        outOrderNo = out;
        time.timers.setTimeout(() => {
          settledAt = time.now();
          hub.sandbox.present(sn, outcome);
        }, tapMs);
      };
      this.svc.sell({ ...BENCH_SALE, sn }).then((v) => (this.current = { id: v.id, queries: 0, done }), fail);
    });
    const c = this.current as Current | null;
    this.current = null;
    if (settledAt === null || !c) throw new Error(`order ${outOrderNo} ended before the customer tapped`);
    const final = this.svc.get(c.id);
    return {
      latencyMs: end.at - settledAt,
      queries: c.queries,
      viaWebhook: end.viaWebhook,
      paid: final?.state === 'paid',
      paidWithoutPayNo: final?.state === 'paid' && !final.payNo,
    };
  }

  async close(): Promise<void> {
    await this.svc.stop();
    this.db.close();
  }
}
