// Outgoing notifications: delivery with retries on a backoff schedule (POS webhooks and bills
// callbacks). Each attempt is rebuilt (fresh timestamp and sign); reset/close abort them all.
import type { Clock } from '../shared/clock';
import type { Logger } from '../shared/logger';
import type { SandboxEvents } from './context';
import { postJson, type PostResult } from './http-util';
import type { SandboxTimers } from './scheduler';
import type { DeliveryStatus } from './types';

export type WebhookKind = 'pos' | 'bills';

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookAttempt {
  kind: WebhookKind;
  orderNo: string;
  url: string;
  /** 1 for the first attempt of a delivery. */
  attempt: number;
  ok: boolean;
  httpCode: string;
  httpMessage: string;
  redelivery: boolean;
}

export interface WebhookDeliveryOptions {
  kind: WebhookKind;
  orderNo: string;
  status: DeliveryStatus;
  /** Builds the request for one attempt, or returns a reason string when there is nowhere to send. */
  build: () => OutgoingRequest | string;
  accept: (r: PostResult) => boolean;
}

/** POS webhooks count as delivered only on HTTP 2xx with `{"code":"00000"}`. */
export function posReceiverAccepted(r: PostResult): boolean {
  if (r.status === null || r.status < 200 || r.status > 299) return false;
  try {
    const body = JSON.parse(r.body) as { code?: unknown };
    return body.code === '00000';
  } catch {
    return false;
  }
}

/** Bills callbacks: any 2xx (the receiver's answer is not documented). */
export const billsReceiverAccepted = (r: PostResult): boolean =>
  r.status !== null && r.status >= 200 && r.status <= 299;

export class WebhookSender {
  private controller = new AbortController();

  constructor(
    private readonly deps: {
      timers: SandboxTimers;
      clock: Clock;
      logger: Logger;
      events: SandboxEvents;
      retryScheduleMs: number[];
      timeoutMs: number;
    },
  ) {}

  /** Starts a delivery; retries follow retryScheduleMs until accepted or the schedule runs out. */
  deliver(opts: WebhookDeliveryOptions): void {
    const signal = this.controller.signal;
    const run = async (n: number): Promise<void> => {
      const a = await this.attempt(opts, n, false, signal);
      if (signal.aborted || !a || a.ok) return;
      const delay = this.deps.retryScheduleMs[n - 1];
      if (delay === undefined) {
        opts.status.gaveUp = true;
        this.deps.logger.warn('sandbox: webhook delivery gave up', { kind: a.kind, orderNo: a.orderNo, attempts: n });
        this.deps.events.emit('webhook-gave-up', a);
        return;
      }
      this.deps.timers.after(delay, () => void run(n + 1));
    };
    void run(1);
  }

  /** One extra attempt (duplicate / late webhook tests); does not start retries. */
  async once(opts: WebhookDeliveryOptions): Promise<WebhookAttempt> {
    const a = await this.attempt(opts, opts.status.attempts + 1, true, this.controller.signal);
    if (!a) throw new Error(`No webhook could be sent for ${opts.orderNo}: ${String(opts.status.httpMessage)}`);
    return a;
  }

  /** Ends every delivery in flight and every scheduled retry (their timers are cleared by the caller). */
  abortAll(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }

  private async attempt(
    opts: WebhookDeliveryOptions,
    n: number,
    redelivery: boolean,
    signal: AbortSignal,
  ): Promise<WebhookAttempt | null> {
    const built = opts.build();
    if (typeof built === 'string') {
      opts.status.httpMessage = built;
      return null;
    }
    const r = await postJson(built.url, built.body, built.headers, this.deps.timeoutMs, signal);
    if (signal.aborted) return null;
    const ok = opts.accept(r);
    const s = opts.status;
    s.attempts += 1;
    s.lastAttemptAt = this.deps.clock.now();
    s.httpCode = r.status === null ? '' : String(r.status);
    s.httpMessage = r.error ?? r.body.slice(0, 500);
    if (ok) s.delivered = true;
    const a: WebhookAttempt = {
      kind: opts.kind,
      orderNo: opts.orderNo,
      url: built.url,
      attempt: n,
      ok,
      httpCode: s.httpCode,
      httpMessage: s.httpMessage,
      redelivery,
    };
    this.deps.logger.info('sandbox: webhook attempt', {
      kind: a.kind,
      orderNo: a.orderNo,
      attempt: n,
      ok,
      httpCode: a.httpCode,
    });
    this.deps.events.emit('webhook-attempt', a);
    if (ok) this.deps.events.emit('webhook-delivered', a);
    return a;
  }
}
