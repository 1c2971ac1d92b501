// The relay's live side in one Hub instance: the open SSE streams, keyed by counter, fed by one
// fan-out. Streams never read the database themselves: the instance that stores a notification
// wakes its own streams of those counters at once (announce, on the write path) and NOTIFYs the
// other instances, which wake theirs; a woken counter is read by the fan-out's one reader, which
// reads every woken counter (and every new stream reading its backlog) in one query per round,
// sends each delivery to the streams of its counter and marks them relayed in one statement. One
// timer per instance sends the heartbeats (spread over the interval) and runs one safety sweep (one
// query, however many streams are open) for deliveries never sent — a NOTIFY lost while the LISTEN
// connection was down delays, never loses. So N open streams cost a constant number of queries per heartbeat.
// The same channel says when a branch's programme changed: every stream of that branch's counters
// gets `event: programme` with the version (and each stream gets the current one when it opens).
import type { ServerResponse } from 'node:http';
import type { HubDb } from '../db/adapter';
import {
  countersWithUnsent,
  markRelayedMany,
  notifyCounters,
  pendingDeliveriesFor,
  RELAY_CHANNEL,
  REVOKED_PREFIX,
  type PendingDelivery,
  type PendingRequest,
} from '../store/notifications';
import { readProgrammeNotice } from '../store/programme';

export const REVOKED_EVENT = {
  code: 'HUB_COUNTER_REVOKED',
  message: 'This counter was removed from the Hub by its manager. Ask them for a new enrollment code.',
};

export interface RelayStream {
  counterId: string;
  /** The counter's branch (its programme's changes are told on this stream); null: none told. */
  branch: string | null;
  /** The counter shows practice seat maps (Demo or Sandbox): told practice seat changes only, else real ones only. */
  practice: boolean;
  /** The last programme version told on this stream. */
  programmeTold: number;
  res: ServerResponse;
  /** Reading its backlog: every unacknowledged delivery after this id (0 for a new stream: counter-routes.ts); null once read. */
  resumeAfter: number | null;
  /** Its heartbeat's slot in the interval. */
  slot: number;
  closed: boolean;
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

/** Deliveries read per request (a counter or a stream catching up) and round. */
const BATCH = 200;
/** Requests per round: a round reads at most ROUND x BATCH rows; what is left waits for the next round. */
const ROUND = 100;
/** Heartbeats are spread over the interval in this many slots. */
const SLOTS = 10;

interface Request extends PendingRequest {
  streams: RelayStream[];
}

export class RelayHub {
  private streams = new Map<string, Set<RelayStream>>();
  private unlisten: (() => Promise<void>) | null = null;
  private toAnnounce = new Set<string>();
  private announcing = false;
  /** Closed: announcements still scheduled are not sent. */
  private shut = false;
  /** Counters with deliveries to read for their caught-up streams. */
  private dirty = new Set<string>();
  private reading = false;
  private sweeping = false;
  private ticker: NodeJS.Timeout | null = null;
  private tickNo = 0;
  private opened = 0;

  constructor(private readonly o: RelayHubOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.o.db.listen(RELAY_CHANNEL, (payload) => {
      if (payload === '*') for (const id of this.streams.keys()) this.wake(id);
      else if (readProgrammeNotice(payload)) {
        const n = readProgrammeNotice(payload)!;
        this.tellProgramme(n.branch, n.version);
      } else if (payload.startsWith(REVOKED_PREFIX))
        this.closeCounter(payload.slice(REVOKED_PREFIX.length), REVOKED_EVENT);
      else for (const id of payload.split(',')) this.wake(id);
    });
    this.ticker = setInterval(() => this.tick(), Math.max(1, Math.floor(this.o.heartbeatMs / SLOTS)));
    this.ticker.unref();
  }

  /**
   * SLOTS times per heartbeat interval: the streams of this slot get their heartbeat (so 500 streams
   * are not written in one burst, nor their clients woken at once); once per interval, one sweep for
   * deliveries never sent.
   */
  private tick(): void {
    const slot = this.tickNo++ % SLOTS;
    const at = this.o.now();
    for (const set of this.streams.values()) for (const s of set) if (s.slot === slot) this.heartbeat(s, at);
    this.read(); // streams left catching up by a failed round
    if (slot !== 0 || this.sweeping || this.streams.size === 0) return;
    this.sweeping = true;
    countersWithUnsent(this.o.db, [...this.streams.keys()])
      .then(
        (ids) => {
          for (const id of ids) this.wake(id);
        },
        (e: unknown) => this.o.onError(e),
      )
      .finally(() => (this.sweeping = false));
  }

  connectedCount(): number {
    return this.streams.size;
  }

  isConnected(counterId: string): boolean {
    return this.streams.has(counterId);
  }

  /** lastEventId null (a first connection): every unacknowledged delivery is sent. */
  open(
    counterId: string,
    res: ServerResponse,
    lastEventId: number | null,
    branch: string | null = null,
    practice = false,
  ): RelayStream {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\n\n`);
    const s: RelayStream = {
      counterId,
      branch,
      practice,
      programmeTold: 0,
      res,
      resumeAfter: lastEventId ?? 0,
      slot: this.opened++ % SLOTS,
      closed: false,
    };
    let set = this.streams.get(counterId);
    if (!set) this.streams.set(counterId, (set = new Set()));
    // Streams cost memory and sockets, and each catches up on its own read: a counter (or a stolen
    // credential) opening hundreds would slow every other counter. The oldest goes, with the reason
    // as an SSE comment (clients ignore it).
    const max = this.o.maxStreamsPerCounter ?? 3;
    for (const old of [...set].slice(0, Math.max(0, set.size - max + 1))) {
      if (!old.closed)
        old.res.write(': closed: this counter opened a newer relay stream (at most ' + max + ' at once)\n\n');
      old.res.end();
      this.drop(old);
    }
    set = this.streams.get(counterId) ?? new Set();
    this.streams.set(counterId, set);
    set.add(s);
    res.on('close', () => this.drop(s));
    this.heartbeat(s);
    this.read();
    // Read after the stream is listed, so a change committed meanwhile is told by its NOTIFY or by this read.
    if (branch !== null && this.o.programmeVersion) {
      this.o.programmeVersion(branch).then(
        (v) => this.tellStream(s, v),
        (e: unknown) => this.o.onError(e),
      );
    }
    return s;
  }

  private heartbeat(s: RelayStream, at = this.o.now()): void {
    this.send(s, 'heartbeat', null, { at, intervalMs: this.o.heartbeatMs, canVerify: this.o.canVerify ?? false });
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

  /** `event: seats` to every stream of the branch's counters here showing practice maps, or real ones (streams/seat-signal.ts). */
  tellSeats(branch: string, practice: boolean, data: unknown): void {
    for (const set of this.streams.values())
      for (const s of set) if (s.branch === branch && s.practice === practice) this.send(s, 'seats', null, data);
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
   * is in flight). Never awaited by the provider's answer: the deliveries are already stored. The
   * NOTIFY goes out after this instance's own read has: the read is on the webhook's way to its
   * counter, the NOTIFY for other instances' streams (sent first, it put 0.3 ms on that way).
   */
  announce(counterIds: string[]): void {
    for (const id of counterIds) {
      this.wake(id);
      this.toAnnounce.add(id);
    }
    if (this.announcing || this.toAnnounce.size === 0) return;
    this.announcing = true;
    setImmediate(() => void this.sendAnnouncements());
  }

  private async sendAnnouncements(): Promise<void> {
    try {
      while (this.toAnnounce.size > 0 && !this.shut) {
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

  /** New deliveries for this counter: its caught-up streams here get them on the reader's next round. */
  wake(counterId: string): void {
    if (!this.streams.has(counterId)) return;
    this.dirty.add(counterId);
    this.read();
  }

  private drop(s: RelayStream): void {
    if (s.closed) return;
    s.closed = true;
    const set = this.streams.get(s.counterId);
    set?.delete(s);
    if (set && !set.size) this.streams.delete(s.counterId);
  }

  private send(s: RelayStream, event: string, id: string | null, data: unknown): void {
    if (s.closed) return;
    s.res.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * The one reader of this instance's streams: while streams catch up or counters are woken, one
   * query per round reads them all (a new stream reading its backlog on its own, the
   * caught-up streams of a woken counter together), sends each delivery to the streams it was read
   * for, and marks them relayed in one statement before the next round, so no stream is sent a
   * delivery twice by this instance. A failed round leaves its streams waiting: the next wake or
   * heartbeat sweep reads them again.
   */
  private read(): void {
    if (this.reading) return;
    this.reading = true;
    void (async () => {
      try {
        // Wakes of the same moment (an ingest batch's counters, a '*') are read in one round.
        await Promise.resolve();
        for (let reqs = this.nextRound(); reqs.length; reqs = this.nextRound()) {
          const rows = await pendingDeliveriesFor(this.o.db, reqs, BATCH);
          const now = this.o.now();
          const sent = new Map<string, { counterId: string; d: PendingDelivery }>();
          reqs.forEach((r, i) => {
            const ds = rows[i]!;
            const to = r.streams.filter((s) => !s.closed);
            for (const d of ds) {
              for (const s of to) this.send(s, 'notification', d.eventId, { ...d });
              if (to.length && !sent.has(d.eventId)) {
                sent.set(d.eventId, { counterId: r.counterId, d });
                this.o.onRelayed(d, now - d.receivedAt);
              }
            }
            // A full batch: more to read next round (the stream's backlog after the last id sent, or the counter's).
            const full = ds.length === BATCH;
            if (r.after !== null) for (const s of to) s.resumeAfter = full ? Number(ds[ds.length - 1]!.eventId) : null;
            else if (full) this.dirty.add(r.counterId);
          });
          await markRelayedMany(this.o.db, [...sent.values()], now);
        }
      } catch (e) {
        this.o.onError(e);
      } finally {
        this.reading = false;
      }
    })();
  }

  /** The next round's requests: streams catching up, then woken counters' caught-up streams; at most ROUND. */
  private nextRound(): Request[] {
    const reqs: Request[] = [];
    for (const set of this.streams.values()) {
      for (const s of set) {
        if (reqs.length >= ROUND) return reqs;
        if (s.resumeAfter !== null) reqs.push({ counterId: s.counterId, after: s.resumeAfter, streams: [s] });
      }
    }
    for (const id of [...this.dirty]) {
      if (reqs.length >= ROUND) break;
      this.dirty.delete(id);
      // Streams still catching up read never-sent deliveries in their own request.
      const streams = [...(this.streams.get(id) ?? [])].filter((s) => s.resumeAfter === null);
      if (streams.length) reqs.push({ counterId: id, after: null, streams });
    }
    return reqs;
  }

  async close(): Promise<void> {
    this.shut = true;
    if (this.ticker) clearInterval(this.ticker);
    for (const set of [...this.streams.values()])
      for (const s of [...set]) {
        s.res.end();
        this.drop(s);
      }
    await this.unlisten?.();
  }
}
