// The node:http tools of every server CounterPay runs (the browser shell, the webhook receiver,
// the provider sandbox): a bounded body reader that answers "too large" instead of buffering,
// the one JSON content-type test, JSON answers, and a request wrapper that turns a throw into
// the server's own 500 answer. Each server keeps its own routes and error bodies.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** @internal for tests */
export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /**
   * Past `maxBytes`, keep reading (and throwing away) up to this many bytes, so the caller can
   * be sent a 413 answer on a connection it is still writing to. Omitted: stop reading at once.
   */
  drainBytes?: number;
}

/** `drained`: the whole body was read, so an answer is sure to reach the sender; false: reading stopped (close the connection). */
type BodyRead = { ok: true; body: Buffer } | { ok: false; tooLarge: true; drained: boolean };

/**
 * Reads the whole body within `limits`. A declared Content-Length past the limit is refused before
 * reading. Rejects when the request fails or the sender goes away before the body ends.
 */
export function readBoundedBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  const max = limits.maxBytes;
  const drainTo = Math.max(max, limits.drainBytes ?? max);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > drainTo)
    return Promise.resolve({ ok: false, tooLarge: true, drained: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: Error | null, result?: BodyRead) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(result!);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainTo) {
        chunks.length = 0;
        req.pause();
        finish(null, { ok: false, tooLarge: true, drained: false });
        return;
      }
      if (size > max) {
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish(
        null,
        size > max ? { ok: false, tooLarge: true, drained: true } : { ok: true, body: Buffer.concat(chunks) },
      );
    const onError = (e: Error) => finish(e);
    // The sender went away mid-body: nothing to answer (settles nothing if already settled).
    const onClose = () => {
      if (!req.complete) finish(new Error('the sender closed the connection before the body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** application/json, with parameters (charset) allowed; not application/jsonfoo. */
export function isJsonContentType(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** A JSON answer with its length. `headers` add to (or replace, whatever their case) the defaults. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  const text = JSON.stringify(body);
  const all: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  };
  for (const [k, v] of Object.entries(headers)) all[k.toLowerCase()] = v;
  res.writeHead(status, all);
  res.end(text);
}

/** A text answer of the given content type, with its length. */
export function sendText(res: ServerResponse, status: number, contentType: string, text: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The first value of a request header. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * A request listener around an async handler. When it throws, `onFailure` logs and names the 500
 * answer; it is sent if the response has not started, else the response is ended as it stands.
 */
export function guardedHandler(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
  onFailure: (e: unknown, req: IncomingMessage) => { status: number; body: unknown; headers?: Record<string, string> },
): RequestListener {
  return (req, res) => {
    handle(req, res).catch((e: unknown) => {
      const answer = onFailure(e, req);
      if (res.destroyed) return;
      if (!res.headersSent) sendJson(res, answer.status, answer.body, answer.headers);
      else res.end();
    });
  };
}
