// A test counter's relay stream: a real SSE connection (fetch, text/event-stream), events kept in
// order, waiters resolved on conditions (never on time), Last-Event-ID kept for the next connection.
import { RELAY_STREAM_PATH, RelayNotificationSchema, type RelayNotification } from '../../../shared/hub-contract';

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export class RelayClient {
  readonly notifications: RelayNotification[] = [];
  readonly events: SseEvent[] = [];
  lastEventId: string | null = null;
  status = 0;
  private abort: AbortController | null = null;
  private waiters: (() => void)[] = [];
  ended: Promise<void> = Promise.resolve();

  constructor(
    private readonly baseUrl: string,
    private readonly credential: string,
    /** The stream's query (`?practice=true`: a counter showing practice seat maps). */
    private readonly query = '',
  ) {}

  /** Opens the stream; resolves once the Hub answered (status set). */
  async connect(): Promise<void> {
    this.abort = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${this.credential}`, accept: 'text/event-stream' };
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    const res = await fetch(this.baseUrl + RELAY_STREAM_PATH + this.query, { headers, signal: this.abort.signal });
    this.status = res.status;
    if (res.status !== 200 || !res.body) {
      this.events.push({ id: null, event: 'error', data: await res.text() });
      this.notify();
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    this.ended = (async () => {
      let buf = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            this.onBlock(buf.slice(0, i));
            buf = buf.slice(i + 2);
          }
        }
      } catch {
        // aborted or cut: the next connect resumes from lastEventId
      }
      this.events.push({ id: null, event: 'closed', data: '' });
      this.notify();
    })();
  }

  private onBlock(block: string): void {
    const e: SseEvent = { id: null, event: 'message', data: '' };
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) e.id = line.slice(4);
      else if (line.startsWith('event: ')) e.event = line.slice(7);
      else if (line.startsWith('data: ')) e.data += line.slice(6);
    }
    if (!e.data && e.event === 'message') return;
    this.events.push(e);
    if (e.event === 'notification') {
      this.notifications.push(RelayNotificationSchema.parse(JSON.parse(e.data)));
      this.lastEventId = e.id;
    }
    this.notify();
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when cond() holds (checked on every event). The test's own timeout bounds it. */
  async until(cond: () => boolean): Promise<void> {
    while (!cond()) await new Promise<void>((r) => this.waiters.push(r));
  }

  heartbeats(): number {
    return this.events.filter((e) => e.event === 'heartbeat').length;
  }

  async disconnect(): Promise<void> {
    this.abort?.abort();
    await this.ended;
  }
}
