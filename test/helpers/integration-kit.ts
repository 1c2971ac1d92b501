// Shared parts of the box-office integration tests: a callback receiver on loopback that checks
// each signature and can be told to fail, and a small JSON caller of the integration API.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCallback } from '../../protocol/crypto';
import { CALLBACK_HEADERS, CALLBACK_REPLAY_WINDOW_MS, type CallbackBody } from '../../shared/integration';

export interface Received {
  body: CallbackBody;
  raw: string;
  signatureOk: boolean;
  answered: number;
}

export interface CallbackReceiver {
  url: string;
  /** Every POST, acknowledged or not, in arrival order. */
  all: Received[];
  /** Only the acknowledged ones. */
  acked: () => Received[];
  /** Answers for the next requests (e.g. [500, 500] then 200 by default). */
  failNext(statuses: number[]): void;
  /** Resolves when an acknowledged callback satisfies `test`. */
  until(test: (r: Received) => boolean): Promise<Received>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(key: () => string): Promise<CallbackReceiver> {
  const all: Received[] = [];
  const failures: number[] = [];
  const waiters: { test: (r: Received) => boolean; ok: (r: Received) => void }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const check = verifyCallback(
        key(),
        {
          timestamp: req.headers[CALLBACK_HEADERS.timestamp] as string,
          signature: req.headers[CALLBACK_HEADERS.signature] as string,
        },
        raw,
        Date.now(),
        CALLBACK_REPLAY_WINDOW_MS,
      );
      const answered = !check.ok ? 401 : (failures.shift() ?? 200);
      const r: Received = { body: JSON.parse(raw) as CallbackBody, raw, signatureOk: check.ok, answered };
      all.push(r);
      res.writeHead(answered).end();
      if (answered === 200) {
        for (const w of [...waiters]) {
          if (w.test(r)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.ok(r);
          }
        }
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/counterpay/callback`;
  const acked = () => all.filter((r) => r.answered === 200);
  return {
    url,
    all,
    acked,
    failNext: (s) => failures.push(...s),
    until: (test) =>
      new Promise((ok) => {
        const hit = acked().find(test);
        if (hit) return ok(hit);
        waiters.push({ test, ok });
      }),
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** One call to the integration API; `key` null sends no Authorization header. */
export async function api<T = Record<string, unknown>>(
  base: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** A box office's two-seat charge for `reference`. */
export function twoSeats(reference: string, over: Record<string, unknown> = {}) {
  return {
    reference,
    amountKobo: 350_000,
    sale: {
      filmName: 'Lagos Nights',
      filmTitle: 'Lagos Nights (2D)',
      showDate: '2026-11-21',
      showTime: '19:30',
      seats: 'F7,F8',
      tickets: 2,
      priceKobo: 150_000,
      bookingFeeKobo: 50_000,
    },
    ...over,
  };
}
