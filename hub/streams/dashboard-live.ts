// The dashboard's live feed: one LISTEN per Hub instance on the projections' channel and one reader
// for every manager's stream. A committed batch's NOTIFY is read once — the orders it changed, all
// branches — and each stream is sent those within its scope as SSE `event: order` with the change
// number as `id:` (resume with Last-Event-ID). A payload of '*' (the listening connection was
// re-opened) makes the reader re-read once from the oldest stream's position what they may have
// missed. One timer checks every stream's session in one query and sends the heartbeats. So N open
// streams cost a constant number of queries per change and per heartbeat; only a stream's own
// catch-up when it opens reads for it alone.
import type { ServerResponse } from 'node:http';
import type { OrderRow } from '../../shared/hub-dashboard-contract';
import type { HubDb } from '../db/adapter';
import { changedOrders, lastChangeId, ordersChangedSince } from '../store/dashboard-orders';
import { DASH_CHANNEL } from '../store/projections';
import { inScope, type Scope } from '../store/scope';

interface LiveStream {
  /** The session's key: one session holds at most maxStreamsPerSession streams; the stream ends when the session does (logout, expiry). */
  session: string;
  /** The manager's id: one manager holds at most maxStreamsPerManager streams, whatever their sessions. */
  manager: string;
  scope: Scope;
  branch?: string;
  res: ServerResponse;
  /** The highest change number sent (or, on a first connection, the newest when it opened). */
  last: number;
  /** False until its first read (the newest change, or its catch-up after Last-Event-ID) is done: changes read before are not its. */
  ready: boolean;
  closed: boolean;
}

type ChangedOrder = OrderRow & { changeId: number };

const ALL: Scope = { kind: 'all' };
const PAGE = 500;

export class LiveFeed {
  private readonly streams = new Set<LiveStream>();
  private readonly bySession = new Map<string, Set<LiveStream>>();
  private readonly byManager = new Map<string, Set<LiveStream>>();
  private unlisten: (() => Promise<void>) | null = null;
  /** Every read of the feed, one after another, in the order the changes were told. */
  private chain: Promise<void> = Promise.resolve();
  private ticker: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(
    private readonly o: {
      db: HubDb;
      heartbeatMs: number;
      now: () => number;
      onError: (e: unknown) => void;
      /** Of these sessions' keys, those still alive (one query for them all). */
      aliveSessions: (keys: string[]) => Promise<Set<string>>;
      /** Streams one session may hold open (default 4): a new one past it closes the oldest. */
      maxStreamsPerSession?: number;
      /** Streams one manager may hold open over all their sessions (default 8): a new one past it closes their oldest. */
      maxStreamsPerManager?: number;
    },
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.o.db.listen(DASH_CHANNEL, (payload) => this.enqueue(() => this.onPayload(payload)));
    this.ticker = setInterval(() => void this.heartbeat(), this.o.heartbeatMs);
    this.ticker.unref();
  }

  count(): number {
    return this.streams.size;
  }

  async open(
    res: ServerResponse,
    session: string,
    manager: string,
    scope: Scope,
    branch: string | undefined,
    lastEventId: number | null,
  ): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const s: LiveStream = { session, manager, scope, branch, res, last: 0, ready: false, closed: false };
    // A session (or a stolen cookie) opening hundreds would hold sockets and memory and make every
    // change cost hundreds of writes; so would one manager logging in fifty times. As the relay does
    // per counter, the oldest goes — told why by an event `closed`, after a `retry:` of an hour so a
    // browser's EventSource does not come straight back.
    const maxSession = this.o.maxStreamsPerSession ?? 4;
    const maxManager = this.o.maxStreamsPerManager ?? 8;
    this.closeOldest(
      this.bySession.get(session),
      maxSession,
      `This session opened a newer live stream (at most ${maxSession} at once): reload the page to follow here again.`,
    );
    this.closeOldest(
      this.byManager.get(manager),
      maxManager,
      `This manager account opened a newer live stream elsewhere (at most ${maxManager} at once over all its logins): reload the page to follow here again.`,
    );
    const mine = this.bySession.get(session) ?? new Set<LiveStream>();
    this.bySession.set(session, mine);
    mine.add(s);
    const theirs = this.byManager.get(manager) ?? new Set<LiveStream>();
    this.byManager.set(manager, theirs);
    theirs.add(s);
    this.streams.add(s);
    res.on('close', () => this.drop(s));
    this.send(s, 'heartbeat', null, { at: this.o.now() });
    this.enqueue(async () => {
      if (lastEventId === null) s.last = await lastChangeId(this.o.db);
      else {
        await this.readSince(lastEventId, s.scope, s.branch, (rows) => rows.forEach((r) => this.sendOrder(s, r)));
        s.last = Math.max(s.last, lastEventId);
      }
      s.ready = true;
    });
  }

  /** Closes the oldest of `set` so that one more fits under `max`. */
  private closeOldest(set: Set<LiveStream> | undefined, max: number, reason: string): void {
    if (!set) return;
    for (const old of [...set].slice(0, Math.max(0, set.size - max + 1))) {
      old.res.write('retry: 3600000\n\n');
      this.send(old, 'closed', null, { reason });
      this.drop(old);
      old.res.end();
    }
  }

  private enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).catch((e) => this.o.onError(e));
  }

  private ready(): LiveStream[] {
    return [...this.streams].filter((s) => s.ready && !s.closed);
  }

  /** One read for every stream: the batch's orders (all branches), each stream sent those in its scope. */
  private async onPayload(payload: string): Promise<void> {
    const streams = this.ready();
    if (!streams.length) return;
    const [counterId, lo, hi] = payload.split('|');
    if (payload === '*' || !counterId || !lo || !hi) return this.catchUpAll(streams);
    const rows = await changedOrders(this.o.db, ALL, counterId, Number(lo), Number(hi));
    for (const s of streams) for (const r of rows) if (inScope(s.scope, s.branch, r.branch)) this.sendOrder(s, r);
  }

  /** After a lost LISTEN connection: one read from the oldest stream's position, each stream sent what is newer than its own. */
  private async catchUpAll(streams: LiveStream[]): Promise<void> {
    const from = new Map(streams.map((s) => [s, s.last]));
    await this.readSince(Math.min(...from.values()), ALL, undefined, (rows) => {
      for (const s of streams)
        for (const r of rows)
          if (r.changeId > from.get(s)! && inScope(s.scope, s.branch, r.branch)) this.sendOrder(s, r);
    });
  }

  /** Orders changed after `after`, a page at a time (a stream far behind is not read into memory at once). */
  private async readSince(
    after: number,
    scope: Scope,
    branch: string | undefined,
    page: (rows: ChangedOrder[]) => void,
  ): Promise<void> {
    for (;;) {
      const rows = await ordersChangedSince(this.o.db, scope, after, PAGE, branch);
      page(rows);
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.changeId;
    }
  }

  /** Every heartbeat: the sessions of all streams checked in one query; streams of an ended session close, the rest get a heartbeat. */
  private async heartbeat(): Promise<void> {
    if (this.checking || this.bySession.size === 0) return;
    this.checking = true;
    try {
      // Only the streams open when the sessions were read are judged (one opened meanwhile is not in the answer).
      const judged = [...this.streams];
      const alive = await this.o.aliveSessions([...new Set(judged.map((s) => s.session))]);
      const at = this.o.now();
      for (const s of judged) {
        if (s.closed) continue;
        if (alive.has(s.session)) this.send(s, 'heartbeat', null, { at });
        else {
          this.drop(s);
          s.res.end();
        }
      }
    } catch (e) {
      this.o.onError(e);
    } finally {
      this.checking = false;
    }
  }

  private sendOrder(s: LiveStream, r: ChangedOrder): void {
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
    this.streams.delete(s);
    const mine = this.bySession.get(s.session);
    mine?.delete(s);
    if (mine?.size === 0) this.bySession.delete(s.session);
    const theirs = this.byManager.get(s.manager);
    theirs?.delete(s);
    if (theirs?.size === 0) this.byManager.delete(s.manager);
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
    if (this.ticker) clearInterval(this.ticker);
    for (const s of [...this.streams]) {
      this.drop(s);
      s.res.end();
    }
    await this.unlisten?.();
  }
}
