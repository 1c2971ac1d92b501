// The checkout's seat part (docs/seat-maps.md): the seat rules asked before a sale is recorded (the
// programme's planner, then this counter's own sales), the seats recorded with the sale, the hold
// asked before the provider is, and the hold settled when the order is final. Built by the checkout
// service from the checkout's `seats` (the planner and the holds, given when it is built).
import type { OrderView, Sale } from '../../shared/orders';
import type { SeatHolds } from '../../shared/seats';
import type { Logger } from '../../shared/logger';
import type { Db } from '../db';
import type { Timers } from '../lib';
import type { CheckoutRun } from './checkout-run';
import type { OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import {
  holdForSale,
  localSeatHolds,
  refuseOwnTaken,
  SeatHoldStore,
  type HoldStepDeps,
  type SeatPlan,
  type SeatPlanner,
} from './seat-holding';

export interface CheckoutSeatsDeps {
  db: Db;
  run: CheckoutRun;
  timers: Timers;
  logger: Logger;
  counterName: () => string;
  /** Asked per sale (the Hub's when the counter has one); absent: this counter's own sales only. */
  holds?: (() => SeatHolds) | undefined;
  planner?: SeatPlanner | undefined;
}

type OwnSeat = ReturnType<SeatHoldStore['ownTaken']>[number];

/** What the seat map reads of the checkout's seats. */
export interface OrderSeats {
  /** This counter's own seats of a show: held while its sale is open, sold when paid (also paid after closing). */
  ownSeats(showKey: string): OwnSeat[];
  /** The show and seats of a sale of a show with a seat map (null: none). */
  seatsOf(id: number): OrderView['seatHold'] | null;
}

export class CheckoutSeats implements OrderSeats {
  readonly store: SeatHoldStore;
  private readonly planner: SeatPlanner | null;
  private readonly holds: () => SeatHolds;
  /** Sales whose seats are being held: not sent (nor taken by the queue sender) until the hold answers. */
  private readonly holding = new Set<number>();
  private readonly step: HoldStepDeps;

  constructor(private readonly deps: CheckoutSeatsDeps) {
    const { run } = deps;
    this.store = new SeatHoldStore(deps.db);
    this.planner = deps.planner ?? null;
    this.holds = deps.holds ?? localSeatHolds;
    this.step = {
      journal: run.journal,
      store: this.store,
      holds: () => this.holds(),
      timers: deps.timers,
      logger: deps.logger,
      changed: run.changed,
    };
    // A sale's seats end with it: sold when paid (also paid after closing), else released.
    run.events.on('order', (v) => {
      const held = isFinalState(v.state) ? this.store.of(v.id) : null;
      if (held && held.outcome !== 'taken' && held.outcome !== 'refused')
        this.holds().settle(v.outOrderNo, v.state === 'paid' ? 'sold' : 'released');
    });
    run.events.on('late', ({ orderId }) => {
      const rec = run.journal.get(orderId);
      if (rec && this.store.of(orderId) && run.late.get(orderId)?.kind === 'paid-after-closing')
        this.holds().settle(rec.outOrderNo, 'sold');
    });
  }

  /** The seat rules, before anything is recorded: null for a sale of a show without a seat map; throws VALIDATION. */
  plan(
    sale: Sale,
    opts: {
      show?: { showKey?: string | undefined; ticketType?: string };
      retryOf?: number;
      seatTypes?: ReadonlyMap<string, string>;
    },
  ): SeatPlan | null {
    const showKey =
      opts.show?.showKey ?? (opts.retryOf !== undefined ? this.store.of(opts.retryOf)?.showKey : undefined);
    const plan =
      this.planner?.plan(sale, { showKey, ticketType: opts.show?.ticketType, seatTypes: opts.seatTypes }) ?? null;
    if (plan) refuseOwnTaken(this.store, plan, this.deps.counterName());
    return plan;
  }

  /** The journal's `alongside` for a sale: its seats recorded with it, then the door's own write. */
  alongside(
    plan: SeatPlan | null,
    other: ((id: number, outOrderNo: string) => void) | undefined,
  ): ((id: number, outOrderNo: string) => void) | undefined {
    if (!plan) return other;
    return (id, outOrderNo) => {
      this.store.insert(id, plan);
      other?.(id, outOrderNo);
    };
  }

  /** Holds the recorded sale's seats before the provider is asked: 'stop' when they were taken elsewhere (the order failed). */
  async hold(rec: OrderRecord, plan: SeatPlan, practice: boolean, needHeld = false): Promise<'go' | 'stop'> {
    this.holding.add(rec.id);
    try {
      return await this.deps.run.track(holdForSale(this.step, rec, plan, practice, needHeld));
    } finally {
      this.holding.delete(rec.id);
    }
  }

  isHolding(id: number): boolean {
    return this.holding.has(id);
  }

  ownSeats(showKey: string): OwnSeat[] {
    return this.store.ownTaken(showKey, this.deps.counterName());
  }

  /** Also the order view's `seatHold`. */
  seatsOf(id: number): OrderView['seatHold'] | null {
    return this.store.of(id);
  }
}
