// The customers at the sandbox's terminals: whenever an order comes to the front of a terminal,
// its customer pays, declines, cancels, or walks away (the order expires). Plus the provider's
// duplicate and late webhooks. Each order's fate depends only on the seed and its outOrderNo.
import type { Sandbox, SandboxPosOrder, TerminalOutcome } from '../../sandbox';
import type { Rng } from '../helpers/chaos-random';

export interface TerminalSimulatorOptions {
  rng: Rng;
  /** Latest tap, ms after the order reaches the front of its terminal. */
  maxTapMs: number;
  /** Late redeliveries come up to this long after the settlement. */
  lateWebhookMs: number;
  /** Called whenever a scheduled step ran or a redelivery ended (the driver re-checks whether the run is done). */
  onActivity?: () => void;
}

type Fate = TerminalOutcome | 'WALK_AWAY';

const FATES: readonly (readonly [Fate, number])[] = [
  ['SUCCESS', 60],
  ['FAIL', 15],
  ['CANCEL', 13],
  ['WALK_AWAY', 12],
];

export class TerminalSimulator {
  readonly fates = new Map<string, Fate>();
  readonly counts = { presented: 0, duplicateWebhooks: 0, lateWebhooks: 0, staleWebhooks: 0, redeliveryErrors: 0 };
  private readonly front = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly redeliveries = new Set<Promise<void>>();
  private closed = false;
  private readonly offCreated: () => void;
  private readonly offSettled: () => void;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly o: TerminalSimulatorOptions,
  ) {
    const onCreated = (order: SandboxPosOrder) => this.look(order.sn);
    const onSettled = (order: SandboxPosOrder) => {
      this.webhookChaos(order);
      this.look(order.sn);
    };
    sandbox.events.on('pos-order-created', onCreated);
    sandbox.events.on('pos-order-settled', onSettled);
    this.offCreated = () => sandbox.events.off('pos-order-created', onCreated);
    this.offSettled = () => sandbox.events.off('pos-order-settled', onSettled);
  }

  /** Redeliveries still under way. */
  get busy(): number {
    return this.redeliveries.size + this.timers.size;
  }

  /** Resolves when no redelivery is scheduled or in flight. */
  async drained(): Promise<void> {
    while (this.redeliveries.size > 0) await Promise.allSettled([...this.redeliveries]);
  }

  close(): void {
    this.closed = true;
    this.offCreated();
    this.offSettled();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
      this.o.onActivity?.();
    }, ms);
    this.timers.add(t);
  }

  /** A new order at the front of terminal `sn` meets its customer. */
  private look(sn: string): void {
    if (this.closed) return;
    const screen = this.sandbox.terminalScreen(sn);
    if (screen.state !== 'awaiting-card') {
      this.front.delete(sn);
      return;
    }
    const { orderNo, outOrderNo } = screen.order;
    if (this.front.get(sn) === orderNo) return;
    this.front.set(sn, orderNo);
    const rng = this.o.rng.fork(`tap:${outOrderNo}`);
    const fate = rng.weighted(FATES);
    this.fates.set(outOrderNo, fate);
    if (fate === 'WALK_AWAY') return; // the sandbox closes it at expiry
    this.later(rng.between(100, this.o.maxTapMs), () => {
      const now = this.sandbox.terminalScreen(sn);
      if (now.state !== 'awaiting-card' || now.order.orderNo !== orderNo) return; // expired meanwhile
      this.sandbox.present(sn, fate);
      this.counts.presented += 1;
    });
  }

  /** The provider sends some notifications again: soon, much later, or with a stale timestamp. */
  private webhookChaos(order: SandboxPosOrder): void {
    const rng = this.o.rng.fork(`webhook:${order.outOrderNo}`);
    if (rng.chance(0.3)) this.later(rng.between(0, 800), () => this.redeliver(order.orderNo, 'duplicateWebhooks'));
    if (rng.chance(0.15))
      this.later(rng.between(1_000, this.o.lateWebhookMs), () => this.redeliver(order.orderNo, 'lateWebhooks'));
    if (rng.chance(0.1))
      this.later(rng.between(0, 1_000), () => this.redeliver(order.orderNo, 'staleWebhooks', -6 * 60_000));
  }

  private redeliver(
    orderNo: string,
    what: 'duplicateWebhooks' | 'lateWebhooks' | 'staleWebhooks',
    timestampOffsetMs = 0,
  ): void {
    const p = this.sandbox
      .redeliverWebhook(orderNo, { timestampOffsetMs })
      .then(() => {
        this.counts[what] += 1;
      })
      // No webhook URL while the app restarts, or the app is down: that is part of the chaos.
      .catch(() => {
        this.counts.redeliveryErrors += 1;
      })
      .finally(() => {
        this.redeliveries.delete(p);
        this.o.onActivity?.();
      });
    this.redeliveries.add(p);
  }
}
