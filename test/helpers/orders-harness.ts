// A checkout service on a temp SQLite file, a fake POS provider and fake time, with every
// event it emits recorded: the unit-test rig for the order lifecycle.
import { createCheckoutService, type CheckoutDeps, type CheckoutSettings } from '../../core/orders/checkout-service';
import { relayHealthFeed } from '../../core/orders/relay-follower';
import { memoryLogger } from '../../shared/logger';
import type { Db } from '../../core/db/database';
import type { Connectivity, OrderState, OrderView } from '../../shared/orders';
import { openTempDb, SALE_INPUT } from './orders-db';
import { FakePos } from './orders-fake-pos';
import { fakeTime, type FakeTime } from './orders-fake-time';

export interface HarnessOptions {
  time?: FakeTime;
  pos?: FakePos;
  db?: Db;
  random?: () => number;
  settings?: Partial<CheckoutSettings>;
  tuning?: CheckoutDeps['tuning'];
  /** Is a shift open? Absent: not asked. */
  shiftOpen?: () => boolean;
  /** Which queued orders give way to the cashier's own sale (a box office's charges). Absent: none. */
  yieldRule?: CheckoutDeps['yieldRule'];
  /** Who keeps an order from Try again. Absent: no one. */
  retryRule?: CheckoutDeps['retryRule'];
}

export function checkoutHarness(opts: HarnessOptions = {}) {
  const time = opts.time ?? fakeTime();
  const pos = opts.pos ?? new FakePos(time.clock.now);
  const temp = opts.db ? null : openTempDb();
  const db = opts.db ?? temp!.db;
  const logger = memoryLogger();
  const settings: CheckoutSettings = {
    counterName: 'Counter 3',
    headMerchantId: 'H1',
    merchantId: 'M1',
    orderExpireSeconds: 300,
    ...opts.settings,
  };
  /** The Hub's relay stream the checkout follows (none until a test sets one). */
  const relayHealth = relayHealthFeed();
  const svc = createCheckoutService({
    db,
    pos,
    clock: time.clock,
    logger,
    settings: () => settings,
    random: opts.random ?? (() => 0.5),
    timers: time.timers,
    ...(opts.tuning ? { tuning: opts.tuning } : {}),
    ...(opts.shiftOpen ? { shiftOpen: opts.shiftOpen } : {}),
    ...(opts.yieldRule ? { yieldRule: opts.yieldRule } : {}),
    ...(opts.retryRule ? { retryRule: opts.retryRule } : {}),
    relayHealth,
  });
  const events: OrderView[] = [];
  const connectivity: Connectivity[] = [];
  svc.on('order', (v) => events.push(v));
  svc.on('connectivity', (c) => connectivity.push(c));

  return {
    time,
    pos,
    db,
    svc,
    relayHealth,
    logger,
    settings,
    events,
    connectivity,
    state: (id: number): OrderState | undefined => svc.get(id)?.state,
    path: (id: number): string =>
      svc
        .history(id)
        .map((e) => e.to)
        .join('>'),
    /** Advances fake time until the order is in `state` (fails after 10 fake minutes). */
    async until(id: number, state: OrderState, maxMs?: number): Promise<OrderView> {
      await time.until(() => svc.get(id)?.state === state, maxMs);
      return svc.get(id)!;
    },
    async sell(over: Partial<typeof SALE_INPUT> = {}): Promise<OrderView> {
      return svc.sell({ ...SALE_INPUT, ...over });
    },
    async close(): Promise<void> {
      pos.release();
      await svc.stop();
      temp?.cleanup();
    },
  };
}
export type CheckoutHarness = ReturnType<typeof checkoutHarness>;
