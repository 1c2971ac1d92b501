// The counter's local integration API (node:http): a paired box office asks for a charge by its
// booking reference, reads it, waits for a change, cancels it while queued, and reads its
// callback deliveries. Loopback only unless an administrator allows the network; every call
// carries the integration's key (Authorization: Bearer …). Routes and bodies are described in
// docs/integration-openapi.json (a test keeps the two in step).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedHandler, header, isJsonContentType, readBoundedBody, sendJson } from '../../protocol/http';
import { isLoopbackHost } from '../../shared/profile-safety';
import { INTEGRATION_ROUTES } from '../../shared/integration';
import type { Logger } from '../../shared/logger';
import type { ChargeDesk } from './charge-desk';
import { createAttemptThrottle, type AttemptLimits } from './attempt-throttle';
import { IntegrationApiError } from './integration-errors';
import { bearer, keyId, keyMatches } from './integration-keys';
import type { IntegrationRow, IntegrationStore } from './integration-store';

const MAX_CHARGE_BODY = 16 * 1024;
const MAX_WAIT_MS = 60_000;

interface IntegrationServerOptions {
  host: string;
  port: number;
  /** Callers from other computers are answered (an administrator turned the network on). */
  allowRemote: boolean;
  desk: ChargeDesk;
  store: IntegrationStore;
  logger: Logger;
  now: () => number;
  /** Failed attempts allowed per caller address (tests). */
  attemptLimits?: Partial<AttemptLimits>;
}

export interface IntegrationServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const NO_STORE = { 'cache-control': 'no-store' };
/**
 * The shared route list, each path template as a pattern (`{reference}`: one path segment, as sent:
 * OpenAPI clients percent-encode it, `:` as `%3A`, so up to three characters a character).
 */
const ROUTES = INTEGRATION_ROUTES.map((r) => ({
  ...r,
  re: new RegExp(`^${r.path.replace('{reference}', '([^/]{1,192})')}$`),
}));

/** The path's reference, percent-decoded; a malformed escape finds no charge rather than failing. */
function pathReference(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const isLoopbackAddress = (a: string | undefined) => !!a && (isLoopbackHost(a) || /^::ffff:127\./.test(a));

/** A charge request's JSON body (at most MAX_CHARGE_BODY bytes). */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  if (!isJsonContentType(req.headers['content-type']))
    throw new IntegrationApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON with Content-Type: application/json.',
    );
  const read = await readBoundedBody(req, { maxBytes: MAX_CHARGE_BODY });
  if (!read.ok) throw new IntegrationApiError(413, 'TOO_LARGE', `The body is larger than ${MAX_CHARGE_BODY} bytes.`);
  try {
    return JSON.parse(read.body.toString('utf8')) as unknown;
  } catch {
    throw new IntegrationApiError(422, 'VALIDATION', 'The body is not valid JSON.', {
      request: 'The body is not valid JSON',
    });
  }
}

/** A wait's query: the version the caller holds and how long to wait (VALIDATION when wrong). */
function waitQuery(url: URL): { after: number; secs: number } {
  const after = Number(url.searchParams.get('after') ?? '0');
  const secs = Number(url.searchParams.get('timeoutSeconds') ?? '25');
  if (!Number.isInteger(after) || after < 0)
    throw new IntegrationApiError(422, 'VALIDATION', 'after is the version you hold (a whole number)', {
      after: 'Send the version you hold, a whole number',
    });
  if (!Number.isFinite(secs) || secs < 0 || secs > MAX_WAIT_MS / 1000)
    throw new IntegrationApiError(422, 'VALIDATION', 'timeoutSeconds is 0 to 60', {
      timeoutSeconds: 'Wait 0 to 60 seconds',
    });
  return { after, secs };
}

export async function startIntegrationServer(o: IntegrationServerOptions): Promise<IntegrationServer> {
  const { desk, store, logger } = o;
  const attempts = createAttemptThrottle({
    logger,
    now: o.now,
    ...(o.attemptLimits ? { limits: o.attemptLimits } : {}),
  });

  function authenticate(req: IncomingMessage): IntegrationRow {
    const key = bearer(header(req, 'authorization'));
    const id = key ? keyId(key) : null;
    const row = id ? store.integration(id) : null;
    // One answer for every failure: a caller learns nothing about which part was wrong.
    if (!key || !row || row.revokedAt !== null || !keyMatches(key, row.keyHash)) {
      throw new IntegrationApiError(
        401,
        'NOT_AUTHENTICATED',
        'The key is missing, wrong or revoked. Send Authorization: Bearer <key> with the key given when this system was paired in CounterPay Settings → Integrations.',
      );
    }
    store.touch(row.id, o.now());
    return row;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!o.allowRemote && !isLoopbackAddress(req.socket.remoteAddress)) {
        throw new IntegrationApiError(
          403,
          'FORBIDDEN',
          'This counter answers its integration API only on this computer. An administrator can allow the network in Settings → Integrations.',
        );
      }
      const url = new URL(req.url ?? '/', 'http://counter');
      const route = ROUTES.find((r) => r.re.test(url.pathname));
      if (!route)
        throw new IntegrationApiError(
          404,
          'NOT_FOUND',
          `There is no ${url.pathname} in the integration API; see docs/integration.md.`,
        );
      const matching = ROUTES.filter((r) => r.re.test(url.pathname) && r.method === req.method);
      if (matching.length === 0)
        throw new IntegrationApiError(405, 'METHOD_NOT_ALLOWED', `Use ${route.method} for ${url.pathname}.`);
      const r = matching[0]!;
      // The key first (one SHA-256), so a right key is always answered; only failures are throttled:
      // an address that keeps sending wrong keys is told to wait, whoever else calls from it.
      const remote = req.socket.remoteAddress ?? '?';
      let integration: IntegrationRow;
      try {
        integration = authenticate(req);
      } catch (e) {
        const waitMs = attempts.waitMs(remote);
        if (waitMs > 0) {
          const secs = Math.ceil(waitMs / 1000);
          throw new IntegrationApiError(
            429,
            'TOO_MANY_ATTEMPTS',
            `Too many requests without a valid key from this address: wait ${secs} s, then send Authorization: Bearer <key> with the key given at pairing.`,
            undefined,
            { 'retry-after': String(secs) },
          );
        }
        attempts.failed(remote);
        throw e;
      }
      const ref = pathReference(r.re.exec(url.pathname)?.[1] ?? '');
      switch (r.name) {
        case 'ping':
          return sendJson(res, 200, { integration: integration.name }, NO_STORE);
        case 'charge': {
          const answer = await desk.charge(integration, await jsonBody(req), 'api');
          return sendJson(res, answer.created ? 201 : 200, answer.charge, NO_STORE);
        }
        case 'read':
          return sendJson(res, 200, desk.read(integration, ref), NO_STORE);
        case 'wait': {
          const { after, secs } = waitQuery(url);
          const gone = new AbortController();
          res.once('close', () => gone.abort());
          const view = await desk.wait(integration, ref, after, secs * 1000, gone.signal);
          if (!res.destroyed) sendJson(res, 200, view, NO_STORE);
          return;
        }
        case 'cancel':
          return sendJson(res, 200, desk.cancel(integration, ref), NO_STORE);
        case 'refund':
          return sendJson(res, 200, await desk.refund(integration, ref, await jsonBody(req)), NO_STORE);
        case 'deliveries':
          return sendJson(res, 200, { reference: ref, deliveries: desk.deliveries(integration, ref) }, NO_STORE);
      }
    } catch (e) {
      if (!(e instanceof IntegrationApiError)) throw e;
      // Failed keys and 429s are logged by the throttle, once per address and then summarised.
      if (e.status !== 404 && e.status !== 401 && e.status !== 429)
        logger.info('integration request refused', {
          status: e.status,
          code: e.code,
          path: (req.url ?? '').split('?')[0],
        });
      sendJson(res, e.status, e.body(), {
        ...NO_STORE,
        ...e.headers,
        ...(e.status === 413 ? { connection: 'close' } : {}),
      });
    }
  }

  const server = createServer(
    guardedHandler(handle, (e) => {
      logger.error('integration request failed', { error: e instanceof Error ? e.message : String(e) });
      return {
        status: 500,
        body: new IntegrationApiError(
          500,
          'INTERNAL',
          'The counter could not answer; send the same request again (the booking reference keeps it to one charge).',
        ).body(),
        headers: NO_STORE,
      };
    }),
  );
  server.requestTimeout = MAX_WAIT_MS + 15_000;
  server.headersTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host;
  logger.info('integration API listening', { host: o.host, port });
  if (!isLoopbackHost(o.host))
    logger.warn(
      'integration API is reachable from other computers on the network, over plain HTTP: keys and sales cross the network unencrypted; put it behind an HTTPS proxy or use it on a trusted network only',
      { host: o.host, port },
    );
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        attempts.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
