// The relay's live side in one Hub instance: the open SSE streams, keyed by counter. Any instance
// that stores a notification NOTIFYs the counters' ids; every instance wakes its own streams of
// those counters, which read their pending deliveries from the database and send them. Heartbeats
// also re-read, so a NOTIFY lost while the LISTEN connection was down delays, never loses.
// The same channel says when a branch's programme changed: every stream of that branch's counters
// gets `event: programme` with the version (and each stream gets the current one when it opens).
import type { ServerResponse } from 'node:http';
import type { HubDb } from '../db/adapter';
import { markRelayed, notifyCounters, pendingDeliveries, RELAY_CHANNEL, REVOKED_PREFIX, type PendingDelivery } from '../store/notifications';
import { readProgrammeNotice } from '../store/programme';

export const REVOKED_EVENT = { code: 'HUB_COUNTER_REVOKED', message: 'This counter was removed from the Hub by its manager. Ask them for a new enrollment code.' };

export interface RelayStream {
  counterId: string;
  /** The counter's branch (its programme's changes are told on this stream); null: none told. */
  branch: string | null;
  /** The last programme version told on this stream. */
  programmeTold: number;
  res: ServerResponse;
  resumeAfter: number | null;
  pumping: boolean;
  again: boolean;
  closed: boolean;
  heartbeat: NodeJS.Timeout;
}

export interface RelayHubOptions {
  db: HubDb;
  heartbeatMs: number;
  now: () => number;
  onRelayed: (d: PendingDelivery, lagMs: number) => void;
  onError: (e: unknown) => void;
  /** The branch's current programme version (0: none), told to a stream when it opens. */
  programmeVersion?: (branch: string) => Promise<number>;
  /** The Hub holds the merchant keys (verifies webhooks and so passes them on): told in every heartbeat. */
  canVerify?: boolean;
  /** Streams one counter may hold open here (default 3): a new one past it closes the oldest. */
  maxStreamsPerCounter?: number;
}

const BATCH = 200;

export class RelayHub {
  private streams = new Map<string, Set<RelayStream>>();
  private unlisten: (() => Promise<void>) | null = null;
  private toAnnounce = new Set<string>();
  private announcing = false;

  constructor(private readonly o: RelayHubOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.o.db.listen(RELAY_CHANNEL, (payload) => {
      if (payload === '*') for (const id of this.streams.keys()) this.wake(id);
      else if (readProgrammeNotice(payload)) {
        const n = readProgrammeNotice(payload)!;
        this.tellProgramme(n.branch, n.version);
      } else if (payload.startsWith(REVOKED_PREFIX)) this.closeCounter(payload.slice(REVOKED_PREFIX.length), REVOKED_EVENT);
      else for (const id of payload.split(',')) this.wake(id);
    });
  }

  connectedCount(): number {
    return this.streams.size;
  }

  isConnected(counterId: string): boolean {
    return this.streams.has(counterId);
  }

  /** lastEventId null (a first connection): every unacknowledged delivery is sent. */
  open(counterId: string, res: ServerResponse, lastEventId: number | null, branch: string | null = null): RelayStream {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(`retry: 1000\n\n`);
    const s: RelayStream = {
      counterId, branch, programmeTold: 0, res, resumeAfter: lastEventId ?? 0, pumping: false, again: false, closed: false,
      heartbeat: setInterval(() => {
        this.heartbeat(s);
        this.pump(s);
      }, this.o.heartbeatMs),
    };
    let set = this.streams.get(counterId);
    if (!set) this.streams.set(counterId, (set = new Set()));
    // Each stream polls the database: a counter (or a stolen credential) opening hundreds would slow
    // every other counter. The oldest goes, with the reason as an SSE comment (clients ignore it).
    const max = this.o.maxStreamsPerCounter ?? 3;
    for (const old of [...set].slice(0, Math.max(0, set.size - max + 1))) {
      if (!old.closed) old.res.write(': closed: this counter opened a newer relay stream (at most ' + max + ' at once)\n\n');
      old.res.end();
      this.drop(old);
    }
    set = this.streams.get(counterId) ?? new Set();
    this.streams.set(counterId, set);
    set.add(s);
    res.on('close', () => this.drop(s));
    this.heartbeat(s);
    this.pump(s);
    // Read after the stream is listed, so a change committed meanwhile is told by its NOTIFY or by this read.
    if (branch !== null && this.o.programmeVersion) {
      this.o.programmeVersion(branch).then((v) => this.tellStream(s, v), (e: unknown) => this.o.onError(e));
    }
    return s;
  }

  private heartbeat(s: RelayStream): void {
    this.send(s, 'heartbeat', null, { at: this.o.now(), intervalMs: this.o.heartbeatMs, canVerify: this.o.canVerify ?? false });
  }

  /** Tells every stream of the branch's counters that its programme is at `version`. */
  tellProgramme(branch: string, version: number): void {
    for (const set of this.streams.values()) for (const s of set) if (s.branch === branch) this.tellStream(s, version);
  }

  private tellStream(s: RelayStream, version: number): void {
    if (version <= s.programmeTold) return;
    s.programmeTold = version;
    this.send(s, 'programme', null, { version });
  }

  /** Closes every stream of a counter (it was revoked). */
  closeCounter(counterId: string, event: { code: string; message: string }): void {
    for (const s of this.streams.get(counterId) ?? []) {
      this.send(s, 'revoked', null, event);
      s.res.end();
      this.drop(s);
    }
  }

  /**
   * This instance just committed deliveries for these counters: its own streams are woken at once,
   * and the other instances are told by NOTIFY, one per burst (ids gathered while the previous one
   * is in flight). Never awaited by the provider's answer: the deliveries are already stored.
   */
  announce(counterIds: string[]): void {
    for (const id of counterIds) {
      this.wake(id);
      this.toAnnounce.add(id);
    }
    if (!this.announcing && this.toAnnounce.size > 0) void this.sendAnnouncements();
  }

  private async sendAnnouncements(): Promise<void> {
    this.announcing = true;
    try {
      while (this.toAnnounce.size > 0) {
        const ids = [...this.toAnnounce];
        this.toAnnounce.clear();
        await notifyCounters(this.o.db, ids);
      }
    } catch (e) {
      this.toAnnounce.clear(); // the heartbeats' re-reads deliver them
      this.o.onError(e);
    } finally {
      this.announcing = false;
    }
  }

  wake(counterId: string): void {
    for (const s of this.streams.get(counterId) ?? []) this.pump(s);
  }

  private drop(s: RelayStream): void {
    if (s.closed) return;
    s.closed = true;
    clearInterval(s.heartbeat);
    const set = this.streams.get(s.counterId);
    set?.delete(s);
    if (set && !set.size) this.streams.delete(s.counterId);
  }

  private send(s: RelayStream, event: string, id: string | null, data: unknown): void {
    if (s.closed) return;
    s.res.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private pump(s: RelayStream): void {
    if (s.closed) return;
    if (s.pumping) {
      s.again = true;
      return;
    }
    s.pumping = true;
    void (async () => {
      try {
        for (;;) {
          s.again = false;
          const rows = await pendingDeliveries(this.o.db, s.counterId, s.resumeAfter, BATCH);
          if (s.closed) return;
          // Once the backlog after Last-Event-ID is read, only never-sent deliveries are new to this stream.
          s.resumeAfter = rows.length === BATCH && s.resumeAfter !== null ? Number(rows[rows.length - 1]!.eventId) : null;
          const now = this.o.now();
          for (const d of rows) {
            this.send(s, 'notification', d.eventId, { ...d });
            this.o.onRelayed(d, now - d.receivedAt);
          }
          await markRelayed(this.o.db, s.counterId, rows, now);
          if (rows.length < BATCH && !s.again) return;
        }
      } catch (e) {
        this.o.onError(e);
      } finally {
        s.pumping = false;
      }
    })();
  }

  async close(): Promise<void> {
    for (const set of [...this.streams.values()]) for (const s of [...set]) {
      s.res.end();
      this.drop(s);
    }
    await this.unlisten?.();
  }
}
