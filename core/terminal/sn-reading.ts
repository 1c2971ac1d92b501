// Reading the serial number on an open connection: the query sent until an sn is read, what the
// link says when nothing readable comes back, and each line classified (sn, other, garbage).
import type { Logger } from '../../shared/logger';
import { classifySnLine } from './sn-parser';
import { describeNoAnswer, describeUnreadable, describeUnrecognised, sampleOf } from './port-messages';
import type { Connection, LinkState } from './link-state';

/** Queries sent without an answer before the link says so. */
const UNANSWERED_QUERIES_BEFORE_ERROR = 3;
/** Non-text bytes before a connection without an sn is reported as a baud rate mismatch. */
const GARBAGE_BYTES_BEFORE_ERROR = 8;
/** A terminal that repeats its sn does not need a change event for each line. */
const LAST_SEEN_RESOLUTION_MS = 1000;

const garbageBytes = (c: Connection) => c.reader?.nonTextBytes ?? 0;

export interface SnReadingDeps {
  log: Logger;
  /** Re-sends the query this often while connected without an sn. */
  queryMs: number;
  now: () => number;
}

export function createSnReading(ls: LinkState, { log, queryMs, now }: SnReadingDeps) {
  function startQuerying(c: Connection): void {
    if (c.queryTimer) clearInterval(c.queryTimer);
    c.queriesSent = 0;
    sendQuery(c);
    c.queryTimer = setInterval(() => onQueryTick(c), queryMs);
  }

  function sendQuery(c: Connection): void {
    c.queriesSent += 1;
    if (!ls.settings.query || !c.port.isOpen) return;
    c.port.write(Buffer.from(ls.settings.query, 'latin1'), (err) => {
      if (err && ls.isCurrent(c)) log.warn('terminal: writing the query failed', { path: c.path, error: err.message });
    });
  }

  function onQueryTick(c: Connection): void {
    if (!ls.isCurrent(c) || c.sn !== null) return;
    if (c.queriesSent >= UNANSWERED_QUERIES_BEFORE_ERROR) {
      const message =
        garbageBytes(c) >= GARBAGE_BYTES_BEFORE_ERROR
          ? describeUnreadable(c.path, c.baudRate)
          : c.lastOtherLine !== null
            ? describeUnrecognised(c.path, c.lastOtherLine)
            : describeNoAnswer(c.path, c.baudRate, ls.settings.query);
      ls.set({ lastError: message });
    }
    sendQuery(c);
  }

  function onBytes(c: Connection): void {
    if (ls.isCurrent(c) && c.sn === null && garbageBytes(c) >= GARBAGE_BYTES_BEFORE_ERROR) {
      ls.set({ lastError: describeUnreadable(c.path, c.baudRate) });
    }
  }

  function onLine(c: Connection, line: string): void {
    if (!ls.isCurrent(c)) return;
    let verdict: ReturnType<typeof classifySnLine>;
    try {
      verdict = classifySnLine(line, ls.settings.pattern);
    } catch (e) {
      ls.set({ lastError: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (verdict.kind === 'sn') {
      const first = c.sn !== verdict.sn;
      c.sn = verdict.sn;
      if (c.queryTimer) clearInterval(c.queryTimer);
      c.queryTimer = null;
      if (first) log.info('terminal: serial number read', { path: c.path, sn: verdict.sn });
      const t = now();
      const state = ls.get();
      if (
        !first &&
        state.sn === verdict.sn &&
        state.lastSeenAt !== null &&
        t - state.lastSeenAt < LAST_SEEN_RESOLUTION_MS
      )
        return;
      ls.set({ sn: verdict.sn, lastError: null, lastSeenAt: t });
      return;
    }
    if (verdict.kind === 'other') c.lastOtherLine = sampleOf(line);
    if (verdict.kind !== 'empty' && c.loggedLines < 5) {
      c.loggedLines += 1;
      log.info(`terminal: ignored a ${verdict.kind} line`, { path: c.path, line: sampleOf(line) });
    }
  }

  return { startQuerying, onLine, onBytes };
}
export type SnReading = ReturnType<typeof createSnReading>;
