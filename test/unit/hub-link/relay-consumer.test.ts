// The relay consumer against a scripted stream (fake fetch with a body the test writes to, fake
// clock and timers, a real SQLite file): the SSE parser on split chunks; health from heartbeats
// and a silent stream seen within interval + 1 s; Last-Event-ID kept only after the notification
// is recorded; acks in batches; reconnect backoff with jitter from 0.5 s to 30 s; a refusal stops.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createRelayConsumer,
  HubCallError,
  RELAY_LAST_EVENT_ID_KEY,
  type HubClient,
  type RelayConsumer,
} from '../../../core/hub-link';
import { createSseParser, MAX_SSE_LINE, SseLineTooLong, type SseEvent } from '../../../core/hub-link/sse-parser';
import { memoryLogger } from '../../../shared/logger';
import type { RelayNotification } from '../../../shared/hub-contract';
import { openTempDb } from '../../helpers/orders-db';
import { fakeTime, settle, type FakeTime } from '../../helpers/orders-fake-time';

describe('SSE parser', () => {
  it('reads events split anywhere, CRLF or LF, comments and multi-line data', () => {
    const out: SseEvent[] = [];
    const p = createSseParser((e) => out.push(e));
    const text =
      'retry: 1000\r\n\r\n: comment\nid: 7\nevent: notification\ndata: {"a":\ndata: 1}\n\nevent: heartbeat\r\ndata:{"at":1}\r\n\r\n';
    for (const ch of text) p.push(ch);
    expect(out).toEqual([
      { id: '7', event: 'notification', data: '{"a":\n1}' },
      { id: null, event: 'heartbeat', data: '{"at":1}' },
    ]);
  });

  it('cuts an event that never ends, however short its lines, as it cuts a line that never ends', () => {
    const p = createSseParser(() => {});
    const line = `data: ${'x'.repeat(1000)}\n`;
    expect(() => {
      for (let i = 0; i <= MAX_SSE_LINE / 1000; i++) p.push(line);
    }).toThrow(SseLineTooLong);
    const q = createSseParser(() => {});
    expect(() => q.push('x'.repeat(MAX_SSE_LINE + 1))).toThrow(/line is longer/);
  });
});

interface Stream {
  headers: Record<string, string>;
  write(s: string): void;
  close(): void;
  fail(): void;
}

let time: FakeTime;
let temp: ReturnType<typeof openTempDb>;
let streams: Stream[];
let answers: (() => Response | null)[];
let acks: string[][];
let ackFails: number;
let ingested: RelayNotification[];
let ingestFails: number;
let health: boolean[];
let refusals: HubCallError[];
let consumer: RelayConsumer;

function fakeFetch(_url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const scripted = answers.shift()?.();
  if (scripted) return Promise.resolve(scripted);
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  const enc = new TextEncoder();
  let open = true;
  const s: Stream = {
    headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>)),
    write: (t) => open && ctl.enqueue(enc.encode(t)),
    close: () => {
      if (open) ctl.close();
      open = false;
    },
    fail: () => {
      if (open) ctl.error(new Error('connection reset'));
      open = false;
    },
  };
  init?.signal?.addEventListener('abort', () => s.fail());
  streams.push(s);
  return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
}

const client: HubClient = {
  async call(_c, _m, path, body, answer) {
    if (path === '/relay/ack') {
      if (ackFails > 0) {
        ackFails -= 1;
        throw new HubCallError('HUB_UNREACHABLE', 'down', null);
      }
      acks.push((body as { eventIds: string[] }).eventIds);
      return answer.parse({ acked: (body as { eventIds: string[] }).eventIds.length });
    }
    throw new Error(`unexpected call ${path}`);
  },
  callAnonymous: () => Promise.reject(new Error('not used')),
};

const heartbeat = (intervalMs = 1000) => `event: heartbeat\ndata: ${JSON.stringify({ at: time.now, intervalMs })}\n\n`;
const notification = (eventId: string) =>
  `id: ${eventId}\nevent: notification\ndata: ${JSON.stringify({ eventId, notificationId: eventId, kind: 'pos', receivedAt: time.now, headers: {}, body: `{"n":${eventId}}`, replay: false })}\n\n`;
const stored = () =>
  (
    temp.db.prepare('SELECT value FROM hub_state WHERE key = ?').get(RELAY_LAST_EVENT_ID_KEY) as
      { value: string } | undefined
  )?.value ?? null;
const last = () => streams[streams.length - 1]!;

function start(random = () => 0.5): void {
  consumer = createRelayConsumer({
    db: temp.db,
    client,
    clock: time.clock,
    timers: time.timers,
    logger: memoryLogger(),
    fetch: fakeFetch as typeof fetch,
    random,
    connection: () => ({ url: 'http://hub.test', counterId: 'ctr_1', credential: 'c'.repeat(43), branch: 'B1' }),
    ingest: (n) => {
      if (ingestFails > 0) {
        ingestFails -= 1;
        throw new Error('disk I/O error');
      }
      ingested.push(n);
    },
    onRefused: (e) => refusals.push(e),
  });
  consumer.onChange((h) => health.push(h));
  consumer.start();
}

beforeEach(() => {
  time = fakeTime();
  temp = openTempDb();
  streams = [];
  answers = [];
  acks = [];
  ackFails = 0;
  ingested = [];
  ingestFails = 0;
  health = [];
  refusals = [];
});
afterEach(async () => {
  await consumer?.stop();
  temp.cleanup();
});

describe('relay consumer', () => {
  it('is healthy from the first heartbeat, and unhealthy once nothing came within interval + 1 s (a silent drop)', async () => {
    start();
    await settle();
    expect(consumer.healthy()).toBe(false);
    last().write(heartbeat(1000));
    await settle();
    expect(consumer.healthy()).toBe(true);
    await time.advance(1_900);
    last().write(heartbeat(1000)); // on time: still healthy
    await time.advance(1_900);
    expect(consumer.healthy()).toBe(true);
    await time.advance(200); // 2.1 s since the last heartbeat: silent
    expect(health).toEqual([true, false]);
    expect(streams).toHaveLength(1);
    await time.advance(1_000); // reconnects after the backoff
    expect(streams).toHaveLength(2);
  });

  it('unhealthy at once when the stream closes or errs, then reconnects with Last-Event-ID', async () => {
    start();
    await settle();
    last().write(heartbeat() + notification('41') + notification('42'));
    await settle();
    expect(ingested.map((n) => n.eventId)).toEqual(['41', '42']);
    expect(stored()).toBe('42');
    last().close();
    await settle();
    expect(consumer.healthy()).toBe(false);
    await time.advance(600);
    expect(streams).toHaveLength(2);
    expect(last().headers['last-event-id']).toBe('42');
    expect(last().headers.authorization).toBe(`Bearer ${'c'.repeat(43)}`);
  });

  it('remembers and acks a notification only once it is recorded; one that could not be is sent again', async () => {
    start();
    await settle();
    ingestFails = 1;
    last().write(heartbeat() + notification('7'));
    await settle();
    expect(ingested).toEqual([]);
    expect(stored()).toBeNull();
    expect(consumer.healthy()).toBe(false); // the connection was dropped
    await time.advance(600);
    expect(last().headers['last-event-id']).toBeUndefined();
    last().write(heartbeat() + notification('7'));
    await time.advance(100);
    expect(ingested.map((n) => n.eventId)).toEqual(['7']);
    expect(stored()).toBe('7');
    expect(acks.flat()).toEqual(['7']);
  });

  it('de-duplicates on the event id and acks in batches; a failed ack is sent again', async () => {
    start();
    await settle();
    ackFails = 1;
    last().write(
      heartbeat() + Array.from({ length: 25 }, (_, i) => notification(String(100 + i))).join('') + notification('101'),
    );
    await time.advance(100);
    expect(ingested).toHaveLength(25);
    await time.advance(100);
    expect(new Set(acks.flat()).size).toBe(25);
    expect(acks.length).toBeLessThanOrEqual(4);
  });

  it('backs off with jitter from 0.5 s doubling to 30 s, and starts again after a heartbeat', async () => {
    start(() => 1); // the top of each jittered range
    await settle();
    const at: number[] = [];
    for (let i = 0; i < 9; i++) {
      const n = streams.length;
      last().fail();
      const t0 = time.now;
      await time.until(() => streams.length > n, 60_000, 50);
      at.push(time.now - t0);
    }
    expect(at).toEqual(
      [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000].map((x) => Math.ceil(x / 50) * 50),
    );
    last().write(heartbeat());
    await settle();
    last().fail();
    const t0 = time.now;
    const n = streams.length;
    await time.until(() => streams.length > n, 60_000, 50);
    expect(time.now - t0).toBe(500);
  });

  it('stops for good when the Hub refuses the credential or says the counter was revoked', async () => {
    answers.push(
      () =>
        new Response(JSON.stringify({ code: 'HUB_UNAUTHENTICATED', message: 'unknown credential' }), { status: 401 }),
    );
    start();
    await time.advance(60_000);
    expect(refusals.map((e) => e.code)).toEqual(['HUB_UNAUTHENTICATED']);
    expect(streams).toHaveLength(0);

    await consumer.stop();
    refusals = [];
    start();
    await settle();
    last().write(
      heartbeat() + `event: revoked\ndata: ${JSON.stringify({ code: 'HUB_COUNTER_REVOKED', message: 'removed' })}\n\n`,
    );
    await time.advance(60_000);
    expect(refusals.map((e) => e.code)).toEqual(['HUB_COUNTER_REVOKED']);
    expect(consumer.healthy()).toBe(false);
    expect(streams).toHaveLength(1);
  });

  it('reset forgets the stream position (a new enrollment)', async () => {
    start();
    await settle();
    last().write(heartbeat() + notification('9'));
    await settle();
    expect(consumer.lastEventId()).toBe('9');
    consumer.reset();
    expect(stored()).toBeNull();
    consumer.reconnect();
    await settle();
    expect(last().headers['last-event-id']).toBeUndefined();
  });
});
