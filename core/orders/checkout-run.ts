// What every part of the checkout shares while it runs: the journal and the late outcomes of closed
// orders beside it, the events told of each change, the calls still in flight (waited for on stop)
// and whether it is stopping.
import type { Connectivity, OrderView } from '../../shared/orders';
import type { Logger } from '../../shared/logger';
import { CheckoutEmitter } from './checkout-events';
import type { Decision } from './order-decisions';
import { toView, type OrderJournal, type OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import type { LateOutcomeStore } from './late-outcomes';
import type { ProviderCheckStore } from './provider-checks';
import type { LateSource } from '../../shared/late-payments';
import type { PosOrderDetails } from '../provider';
import { AppError } from '../../shared/errors';

interface CheckoutRunDeps {
  journal: OrderJournal;
  late: LateOutcomeStore;
  /** The last "Check with the provider" of each closed order. */
  checks: ProviderCheckStore;
  logger: Logger;
  now: () => number;
  /** When the app next acts on the order by itself (a check, a probe), shown on its view. */
  nextActionAt: (rec: OrderRecord) => number | undefined;
  /** The provider answers our calls. */
  online: () => boolean;
  /** The seats of a sale of a show with a seat map, and how their hold went (absent: none). */
  seatHold?: (id: number) => OrderView['seatHold'] | null;
}

export class CheckoutRun {
  readonly events: CheckoutEmitter;
  readonly journal: OrderJournal;
  readonly late: LateOutcomeStore;
  readonly checks: ProviderCheckStore;
  readonly logger: Logger;
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopping = false;

  constructor(private readonly deps: CheckoutRunDeps) {
    this.events = new CheckoutEmitter(deps.logger);
    this.journal = deps.journal;
    this.late = deps.late;
    this.checks = deps.checks;
    this.logger = deps.logger;
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /** No new work from now on; `settled()` waits for what is in flight. */
  stop(): void {
    this.stopping = true;
  }

  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  view = (rec: OrderRecord): OrderView => {
    const seatHold = this.deps.seatHold?.(rec.id);
    const v = { ...toView(rec, this.deps.nextActionAt(rec)), ...(seatHold ? { seatHold } : {}) };
    if (!isFinalState(rec.state)) return v;
    const late = this.late.get(rec.id);
    const lastCheck = this.checks.get(rec.id);
    return { ...v, ...(late ? { late } : {}), ...(lastCheck ? { lastCheck } : {}) };
  };

  /** The journaled order, or NOT_FOUND. */
  record(id: number): OrderRecord {
    const rec = this.journal.get(id);
    if (!rec) throw new AppError('NOT_FOUND', `There is no order ${id}.`, { id });
    return rec;
  }

  /** The order a provider's details are about (by our outOrderNo, else its orderNo), or null when not ours. */
  findFor(details: Pick<PosOrderDetails, 'outOrderNo' | 'orderNo'>): OrderRecord | null {
    const { journal } = this;
    return (
      (details.outOrderNo ? journal.findByOutOrderNo(details.outOrderNo) : null) ??
      (details.orderNo ? journal.findByOrderNo(details.orderNo) : null)
    );
  }

  /** The provider's word on a closed order: a contradiction is recorded as its late outcome, never dropped. */
  noteOnClosed(rec: OrderRecord, details: PosOrderDetails, source: LateSource): void {
    const l = this.late.record(rec, details, source, this.deps.now());
    if (!l) return;
    this.logger.warn('provider outcome contradicts a closed order; recorded as its late outcome', {
      orderId: rec.id,
      outOrderNo: rec.outOrderNo,
      state: rec.state,
      status: details.status,
      kind: l.kind,
      source,
    });
    this.changed(rec);
    this.events.emit('late', { orderId: rec.id });
  }

  connectivity(): Connectivity {
    return { online: this.deps.online(), queueLength: this.journal.countQueued() };
  }

  emitConnectivityIfChanged(): void {
    this.events.connectivity(this.connectivity());
  }

  /** Tells the order's new view (and the connectivity, when it changed with it). */
  changed = (rec: OrderRecord | null): void => {
    if (!rec) return;
    this.events.emit('order', this.view(rec));
    this.emitConnectivityIfChanged();
  };

  /** A call in flight: `settled()` waits for it. */
  track = <T>(p: Promise<T>): Promise<T> => {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => {});
    return p;
  };

  /** Applies a decision; returns true when it asks for the same order to be sent again. */
  apply(id: number, d: Decision): boolean {
    if (d.kind === 'none') return false;
    if (d.kind === 'send-again') return true;
    const { journal, logger } = this;
    const r =
      d.kind === 'patch' ? journal.update(id, d.patch) : journal.transition(id, d.to, d.note, { patch: d.patch });
    if (r.changed) this.changed(r.record);
    else if (r.refused && d.kind === 'move')
      logger.info('order change refused', { orderId: id, to: d.to, why: r.refused });
    return false;
  }
}
