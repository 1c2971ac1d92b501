// A manager's browser for the dashboard API tests: keeps the session cookie, sends the CSRF header
// on writes, reads the live feed (SSE) with the cookie. Plus journal helpers that sync events as a
// counter does.
import type { SyncEvent } from '../../../shared/hub-contract';
import { CSRF_HEADER, SESSION_COOKIE, type SessionView } from '../../../shared/hub-dashboard-contract';
import { bearer, post } from './hub-harness';

export interface Answer {
  status: number;
  json: Record<string, unknown>;
  text: string;
  headers: Headers;
}

export class Manager {
  cookie: string | null = null;
  csrf: string | null = null;
  constructor(readonly base: string) {}

  async req(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.cookie = `${SESSION_COOKIE}=${this.cookie}`;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const set = res.headers.get('set-cookie');
    if (set) {
      const m = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(set);
      if (m) this.cookie = m[1] || null;
    }
    let json: Record<string, unknown> = {};
    try {
      json =
        text && res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = {};
    }
    return { status: res.status, json, text, headers: res.headers };
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.req('GET', `/api/v1/dashboard${path}`, undefined, headers);
  }

  /** A write with the session's CSRF token (unless told otherwise). */
  post(path: string, body: unknown = {}, headers: Record<string, string> = {}) {
    return this.req('POST', `/api/v1/dashboard${path}`, body, {
      ...(this.csrf ? { [CSRF_HEADER]: this.csrf } : {}),
      ...headers,
    });
  }

  /** A PUT with the session's CSRF token (unless told otherwise). */
  put(path: string, body: unknown = {}, headers: Record<string, string> = {}) {
    return this.req('PUT', `/api/v1/dashboard${path}`, body, {
      ...(this.csrf ? { [CSRF_HEADER]: this.csrf } : {}),
      ...headers,
    });
  }

  async login(name: string, password: string): Promise<Answer> {
    const r = await this.req('POST', '/api/v1/dashboard/login', { name, password });
    if (r.status === 200) this.csrf = (r.json as unknown as SessionView).csrfToken;
    return r;
  }

  /** Opens the live feed; `events` fills as they arrive. */
  async live(query = '', lastEventId?: string): Promise<LiveReader> {
    const ac = new AbortController();
    const res = await fetch(`${this.base}/api/v1/dashboard/live${query}`, {
      headers: {
        ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      signal: ac.signal,
    });
    return new LiveReader(res, ac);
  }
}

export class LiveReader {
  readonly events: { event: string; id: string | null; data: Record<string, unknown> }[] = [];
  private waiters: (() => void)[] = [];
  readonly done: Promise<void>;

  constructor(
    readonly res: Response,
    private readonly ac: AbortController,
  ) {
    this.done = this.pump().catch(() => undefined);
  }

  private async pump(): Promise<void> {
    if (!this.res.body) return;
    const dec = new TextDecoder();
    let buf = '';
    for await (const chunk of this.res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += dec.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let event = 'message';
        let id: string | null = null;
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) this.events.push({ event, id, data: JSON.parse(data) as Record<string, unknown> });
        for (const w of this.waiters.splice(0)) w();
      }
    }
  }

  orders() {
    return this.events.filter((e) => e.event === 'order');
  }

  /** Resolves once cond() holds (checked on every event); rejects after timeoutMs. */
  async until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
    const t0 = Date.now();
    while (!cond()) {
      if (Date.now() - t0 > timeoutMs)
        throw new Error(`live feed: condition not met; events: ${JSON.stringify(this.events.slice(-5))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, timeoutMs).unref();
      });
    }
  }

  close(): void {
    this.ac.abort();
  }
}

/** A counter's journal writer: numbers its events and syncs them like the counter's pusher. */
export class CounterJournal {
  seq = 0;
  readonly sent: SyncEvent[] = [];
  constructor(
    readonly base: string,
    readonly credential: string,
  ) {}

  ev<K extends SyncEvent['kind']>(kind: K, at: number, payload: Extract<SyncEvent, { kind: K }>['payload']): SyncEvent {
    const e = { seq: ++this.seq, kind, at, payload } as SyncEvent;
    this.sent.push(e);
    return e;
  }

  async sync(events: SyncEvent[], status: { sentAt?: number; queueLength?: number; profile?: string } = {}) {
    for (let i = 0; i < Math.max(1, events.length); i += 500) {
      const r = await post(
        `${this.base}/api/v1/sync`,
        {
          events: events.slice(i, i + 500),
          status: {
            appVersion: '0.1.0',
            profile: status.profile ?? 'production',
            sentAt: status.sentAt ?? Date.now(),
            queueLength: status.queueLength ?? 0,
            openPayments: 0,
          },
        },
        bearer(this.credential),
      );
      if (r.status !== 200) throw new Error(`sync refused: ${JSON.stringify(r.json)}`);
    }
  }
}
