// What the chaos run's child processes (chaos-app.ts, hub-chaos-counter.ts) share: talking to the
// driver over the IPC channel, a JSON-lines file logger, reading the args file, answering a sale
// (and a cancel or an exchange, chaos app only), and leaving loudly when start fails.
import { openSync, readFileSync, writeSync } from 'node:fs';
import type { Logger } from '../../shared/logger';
import type { CheckoutService } from '../../core/orders/checkout-service';
import { isAppError } from '../../shared/errors';
import { CHAOS_PIN, type AppMessage, type DriverMessage } from './chaos-protocol';

export function send(m: AppMessage): void {
  process.send?.(m);
}

export function fileLogger(file: string): Logger {
  const fd = openSync(file, 'a');
  const line = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    writeSync(fd, `${JSON.stringify({ t: Date.now(), pid: process.pid, level, msg, ...fields })}\n`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

/** The args file named on the command line; `file` (the child's file name) says who must be spawned with IPC. */
export function childArgs<A>(file: string): A {
  if (!process.send) throw new Error(`${file} must be spawned with an IPC channel`);
  return JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as A;
}

/**
 * Sells as the driver asks: sell() resolves after the journal insert, so the ack never runs ahead of
 * the journal. A sale for a busy terminal waits its turn (queued) as a box office's charge does, so
 * the run keeps sending its sales through the queue, kills and outages rather than being refused.
 */
export function answerSell(checkout: CheckoutService, m: Extract<DriverMessage, { type: 'sell' }>): void {
  checkout.sell(m.sale, { whenBusy: 'queue' }).then(
    (v) => send({ type: 'ack', reqId: m.reqId, id: v.id, outOrderNo: v.outOrderNo }),
    (err: unknown) =>
      send({
        type: 'refused',
        reqId: m.reqId,
        code: isAppError(err) ? err.code : 'INTERNAL',
        message: err instanceof Error ? err.message : String(err),
      }),
  );
}

/**
 * Cancels as the driver asks, with the admin PIN: the promise resolves after the one transaction
 * (the undo, its seats, its refunds owed, the 'order.cancelled' event) has committed, so
 * `cancelled` never runs ahead of the journal; a refusal is answered with its code.
 */
export function answerCancel(checkout: CheckoutService, m: Extract<DriverMessage, { type: 'cancel' }>): void {
  checkout.undo
    .cancel({
      orderId: m.orderId,
      seats: m.seats,
      reason: 'customer-request',
      approval: { pin: CHAOS_PIN },
      cashier: 'Chaos',
    })
    .then(
      (r) => send({ type: 'cancelled', reqId: m.reqId, refundNos: r.refunds.map((x) => x.refundNo) }),
      (err: unknown) =>
        send({
          type: 'refused',
          reqId: m.reqId,
          code: isAppError(err) ? err.code : 'INTERNAL',
          message: err instanceof Error ? err.message : String(err),
        }),
    );
}

/** Exchanges as the driver asks, with the admin PIN: answered once the new sale is journaled (and, paid, the old seats moved). */
export function answerExchange(checkout: CheckoutService, m: Extract<DriverMessage, { type: 'exchange' }>): void {
  checkout.exchanges
    .exchange({
      orderId: m.orderId,
      seats: m.seats,
      to: m.to,
      ...(m.tender ? { tender: m.tender } : {}),
      reason: 'customer-request',
      approval: { pin: CHAOS_PIN },
      cashier: 'Chaos',
    })
    .then(
      (r) =>
        send({
          type: 'exchanged',
          reqId: m.reqId,
          newOrderId: r.to.id,
          newOutOrderNo: r.to.outOrderNo,
          newState: r.to.state,
          refundNos: r.refunds.map((x) => x.refundNo),
        }),
      (err: unknown) =>
        send({
          type: 'refused',
          reqId: m.reqId,
          code: isAppError(err) ? err.code : 'INTERNAL',
          message: err instanceof Error ? err.message : String(err),
        }),
    );
}

/** Runs the child's main; a failed start is written to stderr with `name` and exits 2. */
export function runChild(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  });
}
