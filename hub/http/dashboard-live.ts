// The dashboard's live feed: one LISTEN per Hub instance on the projections' channel; each manager's
// stream reads the orders a committed batch changed, within its scope, and sends them as SSE
// `event: order` with the change number as `id:` (resume with Last-Event-ID). A payload of '*'
// (the listening connection was re-opened) makes every stream re-read what it may have missed.
import type { ServerResponse } from 'node:http';
import type { OrderRow } from '../../shared/hub-dashboard-contract';
import type { HubDb } from '../db/adapter';
import { changedOrders, lastChangeId, ordersChangedSince } from '../store/dashboard';
import { DASH_CHANNEL } from '../store/projections';
import type { Scope } from '../store/scope';

interface LiveStream {
  /** The session's key: one session holds at most maxStreamsPerSession streams. */
  session: string;
  /** The session it belongs to: the stream ends when the session does (logout, expiry). */
  alive: () => Promise<boolean>;
  scope: Scope;
  branch?: string;
  res: ServerResponse;
  last: number;
  chain: Promise<void>;
  closed: boolean;
  heartbeat: NodeJS.Timeout;
}

export class LiveFeed {
  private readonly streams = new Set<LiveStream>();
  private readonly bySession = new Map<string, Set<LiveStream>>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly o: {
    db: HubDb; heartbeatMs: number; now: () => number; onError: (e: unknown) => void;
    /** Streams one session may hold open (default 4): a new one past it closes the oldest. */
    maxStreamsPerSession?: number;
  }) {}

  async start(): Promise<void> {
    this.unlisten = await this.o.db.listen(DASH_CHANNEL, (payload) => {
      for (const s of this.streams) this.enqueue(s, () => this.onPayload(s, payload));
    });
  }

  count(): number {
    return this.streams.size;
  }

  async open(res: ServerResponse, session: string, scope: Scope, branch: string | undefined, lastEventId: number | null, alive: () => Promise<boolean>): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write('retry: 2000\n\n');
    const s: LiveStream = {
      session, alive, scope, branch, res, last: 0, chain: Promise.resolve(), closed: false,
      heartbeat: setInterval(() => this.enqueue(s, async () => {
        if (!(await s.alive())) {
          this.drop(s);
          res.end();
          return;
        }
        this.send(s, 'heartbeat', null, { at: this.o.now() });
      }), this.o.heartbeatMs),
    };
    s.heartbeat.unref();
    // Each stream reads the database on every change: a session (or a stolen cookie) opening hundreds
    // would slow everyone. As the relay does per counter, the oldest goes — told why by an event
    // `closed`, after a `retry:` of an hour so a browser's EventSource does not come straight back.
    const max = this.o.maxStreamsPerSession ?? 4;
    const mine = this.bySession.get(session) ?? new Set<LiveStream>();
    for (const old of [...mine].slice(0, Math.max(0, mine.size - max + 1))) {
      old.res.write('retry: 3600000\n\n');
      this.send(old, 'closed', null, { reason: `This session opened a newer live stream (at most ${max} at once): reload the page to follow here again.` });
      this.drop(old);
      old.res.end();
    }
    this.bySession.set(session, mine);
    mine.add(s);
    this.streams.add(s);
    res.on('close', () => this.drop(s));
    this.send(s, 'heartbeat', null, { at: this.o.now() });
    this.enqueue(s, async () => {
      if (lastEventId === null) s.last = await lastChangeId(this.o.db);
      else await this.catchUp(s, lastEventId);
    });
  }

  private enqueue(s: LiveStream, fn: () => Promise<void>): void {
    s.chain = s.chain.then(() => (s.closed ? undefined : fn())).catch((e) => this.o.onError(e));
  }

  private async onPayload(s: LiveStream, payload: string): Promise<void> {
    const [counterId, lo, hi] = payload.split('|');
    if (payload === '*' || !counterId || !lo || !hi) return this.catchUp(s, s.last);
    for (const r of await changedOrders(this.o.db, s.scope, counterId, Number(lo), Number(hi), s.branch)) this.sendOrder(s, r);
  }

  private async catchUp(s: LiveStream, after: number): Promise<void> {
    for (;;) {
      const rows = await ordersChangedSince(this.o.db, s.scope, after, 500, s.branch);
      for (const r of rows) this.sendOrder(s, r);
      if (rows.length < 500) break;
      after = rows[rows.length - 1]!.changeId;
    }
    s.last = Math.max(s.last, after);
  }

  private sendOrder(s: LiveStream, r: OrderRow & { changeId: number }): void {
    const { changeId, ...order } = r;
    s.last = Math.max(s.last, changeId);
    this.send(s, 'order', String(changeId), order);
  }

  private send(s: LiveStream, event: string, id: string | null, data: unknown): void {
    if (s.closed) return;
    s.res.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private drop(s: LiveStream): void {
    if (s.closed) return;
    s.closed = true;
    clearInterval(s.heartbeat);
    this.streams.delete(s);
    const mine = this.bySession.get(s.session);
    mine?.delete(s);
    if (mine?.size === 0) this.bySession.delete(s.session);
  }

  /** Ends at once every stream of these sessions (a manager disabled, removed or given a new password). */
  endSessions(sessions: string[], reason: string): number {
    let n = 0;
    for (const key of sessions) {
      for (const s of [...(this.bySession.get(key) ?? [])]) {
        this.send(s, 'closed', null, { reason });
        this.drop(s);
        s.res.end();
        n++;
      }
    }
    return n;
  }

  async close(): Promise<void> {
    for (const s of [...this.streams]) {
      this.drop(s);
      s.res.end();
    }
    await this.unlisten?.();
  }
}
