// The queue sender: sales recorded while the provider could not be reached, sent oldest first once it
// can be. A queued sale that could no longer be paid before it expires is never sent: it expires.
// A queued sale goes only when the rules let it (`canSend`: a shift is open, its terminal holds no
// unpaid order and no older sale waits for it), so two queued sales never both land on one terminal.
import type { Logger } from '../../shared/logger';
import type { OrderJournal, OrderRecord } from './order-journal';
import { tooLateToSend } from './poll-schedule';
import type { TimerHandle, Timers } from '../lib';

/** How a send ended: 'unreachable' stops the queue until the provider is reachable again. */
export type SendResult = 'sent' | 'unreachable' | 'skipped';

interface QueueSenderDeps {
  journal: OrderJournal;
  timers: Timers;
  now: () => number;
  logger: Logger;
  /** Minimum time an order needs on the terminal to be worth sending. */
  minUsefulMs: number;
  isOnline: () => boolean;
  /** Sends one queued order (queued -> creating -> ...). */
  send: (id: number) => Promise<SendResult>;
  /** Expires one queued order that is too late to send. */
  expire: (rec: OrderRecord) => void;
  /** May this queued order be sent now (charge-guard.ts `canSendQueued`)? Absent: always. */
  canSend?: (rec: OrderRecord) => boolean;
  /** Ends a queued order that must never be sent (bound for a terminal the counter left); true when it did. */
  withdraw?: (rec: OrderRecord) => boolean;
}

export class QueueSender {
  private draining: Promise<void> | null = null;
  private sweepTimer: TimerHandle | null = null;
  private stopped = false;
  private readonly d: QueueSenderDeps;

  constructor(deps: QueueSenderDeps) {
    this.d = deps;
  }

  get length(): number {
    return this.d.journal.countQueued();
  }

  /** Sends what is queued, if the provider is reachable; expires what is too late either way. */
  kick(): void {
    this.sweep();
    if (this.stopped || this.draining || !this.d.isOnline()) return;
    const p = this.drain().finally(() => {
      if (this.draining === p) this.draining = null;
    });
    this.draining = p;
  }

  /** Sends the oldest queued order once (the offline probe). 'idle' when nothing is queued. */
  async sendOldest(): Promise<'idle' | 'done'> {
    this.sweep();
    const next = this.next();
    if (!next || this.stopped) return 'idle';
    await this.d.send(next.id);
    return 'done';
  }

  /** Resolves when the current drain (if any) has finished. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
    if (this.sweepTimer !== null) this.d.timers.clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
  }

  private async drain(): Promise<void> {
    await null; // let kick() record the drain before the first send
    while (!this.stopped && this.d.isOnline()) {
      this.sweep();
      const next = this.next();
      if (!next) return;
      let result: SendResult;
      try {
        result = await this.d.send(next.id);
      } catch (err) {
        // A bug, not a network state: log it and stop rather than spin on the same order.
        this.d.logger.error('queue sender: send failed unexpectedly', { orderId: next.id, error: String(err) });
        return;
      }
      if (result === 'unreachable') return;
    }
  }

  /** The oldest queued order the rules let go now (none: every one waits for its terminal, a shift or nothing is queued). */
  private next(): OrderRecord | undefined {
    const canSend = this.d.canSend;
    return this.d.journal.listQueued().find((rec) => !canSend || canSend(rec));
  }

  /** Expires queued orders that are too late to send (and withdraws those bound for another terminal), and wakes up when the next one will be. */
  private sweep(): void {
    if (this.stopped) return;
    if (this.sweepTimer !== null) this.d.timers.clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    const now = this.d.now();
    let nextDue: number | null = null;
    for (const rec of this.d.journal.listQueued()) {
      if (tooLateToSend(now, rec.expiresAt, this.d.minUsefulMs)) {
        this.d.expire(rec);
        continue;
      }
      if (this.d.withdraw?.(rec)) continue;
      const due = rec.expiresAt - this.d.minUsefulMs;
      nextDue = nextDue === null ? due : Math.min(nextDue, due);
    }
    if (nextDue !== null) {
      // tooLateToSend is strict (>): wake just after the last useful moment.
      this.sweepTimer = this.d.timers.setTimeout(
        () => {
          this.sweepTimer = null;
          this.sweep();
        },
        Math.max(0, nextDue - now + 1),
      );
    }
  }
}
