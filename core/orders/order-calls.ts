// The provider calls for one order: sending it (createOrder, journaled as `creating` first) and
// checking it (queryOrder), each answer turned into a decision (order-decisions.ts) and applied.
import { AppError, isAppError } from '../../shared/errors';
import type { PosClient } from '../provider';
import type { CheckoutRun } from './checkout-run';
import type { ConnectivityMonitor } from './connectivity';
import {
  decideOnCreateError,
  decideOnDetails,
  decideOnMissing,
  decideOnQueryError,
  providerAnswered,
} from './order-decisions';
import type { OrderRecord } from './order-journal';
import { isFinalState } from './order-state';
import { remainingExpireSeconds } from './poll-schedule';
import type { Poller, QueryOutcome } from './poller';
import type { SendResult } from './queue-sender';
import { providerFieldsFor } from './sale-wire';
import { isCashSale } from './order-record';

interface OrderCallsDeps {
  run: CheckoutRun;
  getPos: () => PosClient;
  now: () => number;
  minUsefulMs: number;
  /** Learns from every call whether the provider can be reached. */
  monitor: Pick<ConnectivityMonitor, 'reached' | 'unreachable'>;
  poller: Pick<Poller, 'track' | 'untrack'>;
}

export class OrderCalls {
  /** Orders whose createOrder is on the wire (a resume leaves them alone). */
  private readonly sending = new Set<number>();

  constructor(private readonly d: OrderCallsDeps) {}

  isSending(id: number): boolean {
    return this.sending.has(id);
  }

  /** Sends an order already journaled as `creating` (with the attempt counted). */
  async create(id: number): Promise<SendResult> {
    const { run, now, monitor, poller } = this.d;
    const { journal } = run;
    const rec = journal.get(id);
    if (!rec || rec.state !== 'creating') return 'skipped';
    // A sale wholly in cash has no card order: the cash taken, it is paid (also when a restart finds it here).
    if (isCashSale(rec)) {
      const r = journal.transition(id, 'paid', 'Paid in cash', { from: ['creating'], patch: { reason: null } });
      if (r.changed) run.changed(r.record);
      return 'sent';
    }
    this.sending.add(id);
    try {
      let pos: PosClient;
      try {
        pos = this.d.getPos();
      } catch (err) {
        // Nothing went out: a settings problem, not the network.
        run.apply(
          id,
          decideOnCreateError(
            isAppError(err) ? err : new AppError('PROVIDER_NOT_CONFIGURED', 'The payment provider is not set up.'),
          ),
        );
        return 'sent';
      }
      const t0 = now();
      try {
        const { orderNo } = await pos.createOrder({
          outOrderNo: rec.outOrderNo,
          amountKobo: rec.amountKobo,
          orderExpireSeconds: remainingExpireSeconds(t0, rec.expiresAt, rec.expireSeconds),
          sn: rec.sn,
          ...providerFieldsFor(rec),
        });
        monitor.reached();
        const r = journal.transition(id, 'waiting', 'Order on the terminal; waiting for the customer to pay', {
          from: ['creating'],
          patch: { orderNo, waitingSince: now(), reason: null },
        });
        poller.track(id); // first, so the event already carries the next check
        if (r.changed) run.changed(r.record);
        return 'sent';
      } catch (err) {
        const unreachable = isAppError(err) && err.code === 'PROVIDER_UNREACHABLE';
        if (unreachable) monitor.unreachable();
        else if (providerAnswered(err)) monitor.reached();
        run.logger.warn('create order failed', {
          orderId: id,
          outOrderNo: rec.outOrderNo,
          code: isAppError(err) ? err.code : 'INTERNAL',
        });
        run.apply(id, decideOnCreateError(err));
        poller.track(id);
        return unreachable ? 'unreachable' : 'sent';
      }
    } finally {
      this.sending.delete(id);
    }
  }

  /** queued/unknown -> creating (journaled, attempt counted), then the call. */
  sendFrom(id: number, from: 'queued' | 'unknown', note: string): Promise<SendResult> {
    const { run, poller } = this.d;
    if (run.stopped) return Promise.resolve('skipped');
    const r = run.journal.transition(id, 'creating', note, {
      from: [from],
      patch: { countAttempt: true, reason: null },
    });
    if (!r.changed) return Promise.resolve('skipped');
    run.changed(r.record);
    poller.untrack(id);
    return run.track(this.create(id));
  }

  /** One status query; never throws (an error comes back as an outcome). */
  async query(rec: OrderRecord): Promise<QueryOutcome> {
    const { monitor } = this.d;
    try {
      const details = await this.d
        .getPos()
        .queryOrder(rec.orderNo ? { orderNo: rec.orderNo } : { outOrderNo: rec.outOrderNo });
      monitor.reached();
      return details ? { kind: 'found', details } : { kind: 'missing' };
    } catch (err) {
      if (isAppError(err) && err.code === 'PROVIDER_UNREACHABLE') monitor.unreachable();
      else if (providerAnswered(err)) monitor.reached();
      return { kind: 'error', error: err };
    }
  }

  /** Acts on a status answer. `final`: the check was made at or after expiry + grace. */
  handleQuery(id: number, outcome: QueryOutcome, final: boolean): void {
    const { run, now, minUsefulMs } = this.d;
    const rec = run.journal.get(id);
    if (!rec || isFinalState(rec.state)) return;
    const at = now();
    const decision =
      outcome.kind === 'found'
        ? decideOnDetails(rec, outcome.details, { now: at, final })
        : outcome.kind === 'missing'
          ? decideOnMissing(rec, { now: at, final, minUsefulMs })
          : decideOnQueryError(rec, outcome.error, { final });
    if (run.apply(id, decision)) void this.sendFrom(id, 'unknown', (decision as { note: string }).note);
  }
}
