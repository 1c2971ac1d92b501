// The merchant-side HTTP endpoint the provider calls: POST /webhook/pos (payment notifications)
// and POST /webhook/bills (top-up callbacks). Each event is checked, recorded durably, handed on
// once, and only then answered with {"code":"00000","message":"SUCCESSFUL"}.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../../shared/profile-safety';
import { systemClock } from '../clock';
import { guardedHandler, readBoundedBody, sendJson } from '../lib';
import { verifyBillsCallback } from './bills-callback';
import { verifyPosWebhook } from './pos-webhook';
import { markWebhookEventFailed, markWebhookEventHandled, recordWebhookEvent, type WebhookKind } from './webhook-store';
import {
  WEBHOOK_NOT_AUTHENTICATED, WEBHOOK_PATHS, WEBHOOK_REFUSAL_CODES as C, WEBHOOK_SUCCESS, type WebhookReceiver, type WebhookReceiverOptions, type WebhookVerdict,
} from './webhook-types';

export const DEFAULT_MAX_WEBHOOK_BODY = 64 * 1024;

function reply(res: ServerResponse, status: number, body: { code: string; message: string }, close = false): void {
  if (res.headersSent) return;
  sendJson(res, status, body, { 'content-type': 'application/json', 'cache-control': 'no-store', ...(close ? { connection: 'close' } : {}) });
}

export async function startWebhookReceiver(opts: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const { db, logger } = opts;
  const clock = opts.clock ?? systemClock;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BODY;

  function accept<T>(kind: WebhookKind, verdict: Extract<WebhookVerdict<T>, { ok: true }>, handler: (e: T) => void, tranId?: string): void {
    const id = recordWebhookEvent(db, { kind, dedupeKey: verdict.dedupeKey, orderNo: verdict.orderNo, status: verdict.status, payload: verdict.event, receivedAt: clock.now() });
    if (id === null) {
      logger.info('webhook repeat acknowledged, not handled again', { kind, orderNo: verdict.orderNo, status: verdict.status });
      return;
    }
    logger.info('webhook recorded', { kind, id, orderNo: verdict.orderNo, status: verdict.status, ...(tranId ? { tranId } : {}) });
    // The transaction header is not signed, so a mismatch is only worth a line in the log.
    if (tranId && tranId !== verdict.orderNo) logger.warn('webhook transaction header differs from the signed orderNo', { kind, id, tranId, orderNo: verdict.orderNo });
    const failed = (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      logger.error('webhook handler failed; the event stays recorded for replay', { kind, id, orderNo: verdict.orderNo, error: message });
      markWebhookEventFailed(db, id, message);
    };
    try {
      const r: unknown = handler(verdict.event);
      if (r && typeof (r as Promise<unknown>).then === 'function') {
        (r as Promise<unknown>).then(() => markWebhookEventHandled(db, id, clock.now()), failed);
      } else {
        markWebhookEventHandled(db, id, clock.now());
      }
    } catch (e) {
      failed(e);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const kind: WebhookKind | undefined = path === WEBHOOK_PATHS.pos ? 'pos' : path === WEBHOOK_PATHS.bills ? 'bills' : undefined;
    const refuse = (status: number, code: string, reason: string, close = false) => {
      logger.warn('webhook refused', { path, status, code, reason, remote: req.socket.remoteAddress });
      // Every authentication failure gets one answer: telling a wrong clientAuthKey from a bad
      // signature or a stale timestamp would let a caller learn which check it already passes.
      reply(res, status, status === 401 ? WEBHOOK_NOT_AUTHENTICATED : { code, message: reason }, close);
    };
    if (!kind) return refuse(404, C.notFound, 'unknown path');
    if (req.method !== 'POST') return refuse(405, C.methodNotAllowed, 'use POST');

    const read = await readBoundedBody(req, { maxBytes: maxBody });
    if (!read.ok) return refuse(413, C.tooLarge, `body larger than ${maxBody} bytes`, true);
    const text = read.body.toString('utf8');

    const cfg = opts.getConfig();
    if (kind === 'pos') {
      const verdict = verifyPosWebhook(text, cfg, clock.now());
      if (!verdict.ok) return refuse(verdict.httpStatus, verdict.code, verdict.reason);
      const tranIdHeader = req.headers[cfg.conventions.webhookTranIdHeader.toLowerCase()];
      accept('pos', verdict, opts.onPosNotification, Array.isArray(tranIdHeader) ? tranIdHeader[0] : tranIdHeader);
    } else {
      const verdict = verifyBillsCallback(text, cfg);
      if (!verdict.ok) return refuse(verdict.httpStatus, verdict.code, verdict.reason);
      accept('bills', verdict, opts.onBillsCallback);
    }
    reply(res, 200, WEBHOOK_SUCCESS);
  }

  const server = createServer(guardedHandler(handle, (e, req) => {
    // Typically the database: answer non-success so the provider sends the event again.
    logger.error('webhook could not be recorded', { path: req.url, error: e instanceof Error ? e.message : String(e) });
    return { status: 500, body: { code: C.internal, message: 'could not record the event; send it again' }, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } };
  }));
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  logger.info('webhook receiver listening', { host: opts.host, port, paths: Object.values(WEBHOOK_PATHS) });
  if (!isLoopbackHost(opts.host)) {
    logger.warn('webhook receiver is reachable from other computers on the network; use 127.0.0.1 behind an HTTPS proxy unless the provider calls this computer directly', { host: opts.host, port });
  }

  return {
    url: `http://${hostPart}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
