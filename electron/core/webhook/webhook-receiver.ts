// The merchant-side HTTP endpoint the provider calls: POST /webhook/pos (payment notifications)
// and POST /webhook/bills (top-up callbacks). Each event is checked, recorded durably, handed on
// once, and only then answered with {"code":"00000","message":"SUCCESSFUL"}.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../../shared/profile-safety';
import { systemClock } from '../clock';
import { verifyBillsCallback } from './bills-callback';
import { verifyPosWebhook } from './pos-webhook';
import { markWebhookEventFailed, markWebhookEventHandled, recordWebhookEvent, type WebhookKind } from './webhook-store';
import {
  WEBHOOK_NOT_AUTHENTICATED, WEBHOOK_PATHS, WEBHOOK_REFUSAL_CODES as C, WEBHOOK_SUCCESS, type WebhookReceiver, type WebhookReceiverOptions, type WebhookVerdict,
} from './webhook-types';

export const DEFAULT_MAX_WEBHOOK_BODY = 64 * 1024;

type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true };

/** Reads at most `max` bytes; stops listening (buffers nothing more) once the limit is passed. */
function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        chunks.length = 0;
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', reject);
    // The sender went away mid-body: nothing to answer (settles nothing if already resolved).
    req.on('close', () => {
      if (!req.complete) reject(new Error('the sender closed the connection before the body ended'));
    });
  });
}

function reply(res: ServerResponse, status: number, body: { code: string; message: string }, close = false): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
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

    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > maxBody) return refuse(413, C.tooLarge, `body larger than ${maxBody} bytes`, true);
    const body = await readBody(req, maxBody);
    if (!body.ok) return refuse(413, C.tooLarge, `body larger than ${maxBody} bytes`, true);

    const cfg = opts.getConfig();
    if (kind === 'pos') {
      const verdict = verifyPosWebhook(body.text, cfg, clock.now());
      if (!verdict.ok) return refuse(verdict.httpStatus, verdict.code, verdict.reason);
      const tranIdHeader = req.headers[cfg.conventions.webhookTranIdHeader.toLowerCase()];
      accept('pos', verdict, opts.onPosNotification, Array.isArray(tranIdHeader) ? tranIdHeader[0] : tranIdHeader);
    } else {
      const verdict = verifyBillsCallback(body.text, cfg);
      if (!verdict.ok) return refuse(verdict.httpStatus, verdict.code, verdict.reason);
      accept('bills', verdict, opts.onBillsCallback);
    }
    reply(res, 200, WEBHOOK_SUCCESS);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // Typically the database: answer non-success so the provider sends the event again.
      logger.error('webhook could not be recorded', { path: req.url, error: e instanceof Error ? e.message : String(e) });
      if (!res.destroyed) reply(res, 500, { code: C.internal, message: 'could not record the event; send it again' });
    });
  });
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
