// The sandbox's node:http pieces on top of the shared ones: its 413 and JSON-object errors, and the outgoing
// POST used for webhooks and callbacks (no pooling, so close() leaves nothing behind).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readBoundedBody, isJsonContentType } from '../protocol/http';
import { CODES, SandboxError, badRequest } from './codes';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the whole body, or throws a 413 SandboxError as soon as it passes `limit` (reading stops). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const read = await readBoundedBody(req, { maxBytes: limit });
  if (!read.ok)
    throw new SandboxError(413, CODES.TOO_LARGE, `request body is larger than ${limit} bytes`, { Connection: 'close' });
  return read.body;
}

/** Parses a JSON object body. Empty bodies count as `{}` when `allowEmpty`. */
export function parseJsonObject(req: IncomingMessage, body: Buffer, allowEmpty = false): Record<string, unknown> {
  if (body.length === 0) {
    if (allowEmpty) return {};
    throw badRequest('request body is empty; send a JSON object');
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new SandboxError(
      415,
      CODES.CONTENT_TYPE,
      `Content-Type must be application/json (got "${req.headers['content-type'] ?? 'none'}")`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw badRequest(`request body is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest('request body must be a JSON object');
  return value as Record<string, unknown>;
}

export interface PostResult {
  status: number | null;
  statusMessage: string;
  body: string;
  error: string | null;
}

/** POSTs a JSON body; never throws: network failures come back in `error`. */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ status: null, statusMessage: '', body: '', error: `invalid URL ${url}` });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          Connection: 'close',
          ...headers,
        },
        timeout: timeoutMs,
        ...(signal ? { signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= 64 * 1024) chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? null,
            statusMessage: res.statusMessage ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
            error: null,
          }),
        );
        res.on('error', (e) =>
          resolve({
            status: res.statusCode ?? null,
            statusMessage: res.statusMessage ?? '',
            body: '',
            error: e.message,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (e) => resolve({ status: null, statusMessage: '', body: '', error: e.message }));
    req.end(body);
  });
}
