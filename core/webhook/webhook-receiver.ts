// The merchant-side HTTP endpoint the provider calls: POST /webhook/pos (payment notifications)
// and POST /webhook/bills (top-up callbacks). Each event goes through the one ingest
// (webhook-ingest.ts: checked, recorded durably, handed on once), and only then is it answered
// with {"code":"00000","message":"SUCCESSFUL"}.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../shared/profile-safety';
import { systemClock } from '../../shared/clock';
import { guardedHandler, readBoundedBody, sendJson } from '../../protocol/http';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { Db } from '../db';
import type { ProviderConfig } from '../provider';
import { createWebhookIngest, type WebhookIngest } from './webhook-ingest';
import type { WebhookKind } from './webhook-store';
import { WEBHOOK_NOT_AUTHENTICATED, WEBHOOK_REFUSAL_CODES as C, WEBHOOK_SUCCESS } from '../../protocol/pos-webhook';
import { WEBHOOK_PATHS, type BillsCallbackEvent, type PosNotification } from './webhook-types';

const DEFAULT_MAX_WEBHOOK_BODY = 64 * 1024;

function reply(res: ServerResponse, status: number, body: { code: string; message: string }, close = false): void {
  if (res.headersSent) return;
  sendJson(res, status, body, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
}

interface WebhookReceiverOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  db: Db;
  /** Read on every request, so new keys apply without a restart. */
  getConfig: () => ProviderConfig;
  logger: Logger;
  clock?: Clock;
  /** Bodies larger than this are refused with 413 without being buffered (default 64 KiB). */
  maxBodyBytes?: number;
  /** Called once per distinct event, after it is durably recorded. Exceptions are logged; the event stays recorded. */
  onPosNotification: (n: PosNotification) => void;
  onBillsCallback: (c: BillsCallbackEvent) => void;
  /** The ingest to use instead of one built from these options (shared with the relay). */
  ingest?: WebhookIngest;
}

export interface WebhookReceiver {
  /** e.g. http://127.0.0.1:8787 (no trailing slash); append WEBHOOK_PATHS. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(opts: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const { logger } = opts;
  const clock = opts.clock ?? systemClock;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BODY;

  // Built from the options unless the caller shares its own ingest (the relay uses the same one).
  const ingest =
    opts.ingest ??
    createWebhookIngest({
      db: opts.db,
      logger,
      clock,
      getConfig: opts.getConfig,
      onPosNotification: opts.onPosNotification,
      onBillsCallback: opts.onBillsCallback,
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const kind: WebhookKind | undefined =
      path === WEBHOOK_PATHS.pos ? 'pos' : path === WEBHOOK_PATHS.bills ? 'bills' : undefined;
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

    const tranIdHeader =
      kind === 'pos' ? req.headers[opts.getConfig().conventions.webhookTranIdHeader.toLowerCase()] : undefined;
    const tranId = Array.isArray(tranIdHeader) ? tranIdHeader[0] : tranIdHeader;
    const r = ingest({ kind, body: text, via: 'direct', ...(tranId ? { tranId } : {}) });
    if (r.httpStatus !== 200) return refuse(r.httpStatus, r.code, r.reason);
    reply(res, 200, WEBHOOK_SUCCESS);
  }

  const server = createServer(
    guardedHandler(handle, (e, req) => {
      // Typically the database: answer non-success so the provider sends the event again.
      logger.error('webhook could not be recorded', {
        path: req.url,
        error: e instanceof Error ? e.message : String(e),
      });
      return {
        status: 500,
        body: { code: C.internal, message: 'could not record the event; send it again' },
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      };
    }),
  );
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
    logger.warn(
      'webhook receiver is reachable from other computers on the network; use 127.0.0.1 behind an HTTPS proxy unless the provider calls this computer directly',
      { host: opts.host, port },
    );
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
