// Issue 28: what a busy counter costs the Hub. What was appended while a sync was in flight went
// out the moment its answer came, one call after another: a counter selling without a pause sent
// a sync every 13 ms, each a commit on the Hub beside the customer's webhook (bench:hub: 3.3 Hub
// calls a sale, detection with the relay p50 12 against 8 ms). Now it waits out the pusher's
// debounce like any append (core/hub-link/sync-send.ts: 'soon'); a backlog past one batch still
// goes back to back. Counted here, not timed: the pusher's timers fire only by hand, its first
// sync is held in flight while events are appended; once it is answered, the pusher arms a wait
// of the debounce and makes no second call until that wait ends; then one call carries them all.
// Real parts: a Hub (PGlite) over loopback HTTP, the counter's SQLite journal and outbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { openJournalDb } from '../../../core/schema';
import {
  createHubClient,
  createOutboxSink,
  createSyncPusher,
  HubOutbox,
  type HubClient,
  type HubConnection,
} from '../../../core/hub-link';
import type { Timers } from '../../../core/lib';
import { ShiftStore } from '../../../core/records/shifts/shift-store';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';

let hub: TestHub;
let dir: string;
beforeAll(async () => {
  hub = await startTestHub();
  dir = mkdtempSync(join(tmpdir(), 'cp-sync-coalesce-'));
});
afterAll(async () => {
  await hub.stop();
  rmSync(dir, { recursive: true, force: true });
});

const DEBOUNCE_MS = 40_000;
const STATUS_MS = 90_000;

/** Timers that fire only when the test says; each armed one noted with its delay and when it was armed. */
function handTimers(onArm: () => void): Timers & { armed: { ms: number; fire: () => void; cleared: boolean }[] } {
  const armed: { ms: number; fire: () => void; cleared: boolean }[] = [];
  return {
    armed,
    setTimeout(fn, ms) {
      const t = { ms, cleared: false, fire: () => !t.cleared && ((t.cleared = true), fn()) };
      armed.push(t);
      onArm();
      return t;
    },
    clearTimeout(h) {
      (h as { cleared: boolean }).cleared = true;
    },
  };
}

describe('a busy counter syncs with the debounce, not one call after another (issue 28)', () => {
  it('what is appended during a sync waits out the debounce after its answer, then goes in one call', async () => {
    const enrollment = await enroll(hub, 'Busy Lane', 'BR-C');
    const conn: HubConnection = {
      url: hub.url,
      counterId: enrollment.counterId,
      credential: enrollment.credential,
      branch: enrollment.branch,
    };
    const db = openJournalDb(join(dir, 'busy.sqlite'));
    const outbox = new HubOutbox(db);
    const logger = memoryLogger();
    const sink = createOutboxSink(outbox, { logger });
    const shifts = new ShiftStore(db, sink);

    let changed = () => {};
    const timers = handTimers(() => changed());
    const real = createHubClient();
    const syncs: { events: number; answered: Promise<unknown> }[] = [];
    let release = () => {};
    const client: HubClient = {
      ...real,
      call(c, method, path, body, answer, o) {
        if (path !== '/sync') return real.call(c, method, path, body, answer, o);
        const events = (body as { events: unknown[] }).events.length;
        // The first sync is held in flight until the test releases it.
        const p =
          syncs.length === 0
            ? new Promise<void>((r, reject) => {
                release = r;
                o?.signal?.addEventListener('abort', () => reject(new Error('aborted by the pusher')));
              }).then(() => real.call(c, method, path, body, answer, o))
            : real.call(c, method, path, body, answer, o);
        syncs.push({ events, answered: p.catch((e: unknown) => e) });
        changed();
        return p;
      },
    };
    const until = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        changed = () => test() && resolve();
        changed();
      });
    const pusher = createSyncPusher({
      db,
      connection: () => conn,
      client,
      clock: systemClock,
      timers,
      logger,
      status: () => ({ appVersion: '0.1.0', profile: 'production', openPayments: 0 }),
      journalSink: sink,
      tuning: { debounceMs: DEBOUNCE_MS, statusEveryMs: STATUS_MS },
    });
    pusher.start();
    try {
      await until(() => syncs.length === 1);
      // While the first sync is in flight: a shift opens (an event the Hub is not waiting for).
      shifts.open('Ada', 500_000, Date.now(), 'production');
      const appended = outbox.headSeq();
      expect(appended).toBeGreaterThan(0);
      const armedBefore = timers.armed.length;

      release();
      await syncs[0]!.answered;
      // After the answer: either a second call (back to back) or a wait of the debounce.
      const afterAnswer = () => timers.armed.slice(armedBefore).filter((t) => t.ms === DEBOUNCE_MS);
      await until(() => syncs.length > 1 || afterAnswer().length > 0);
      expect(syncs.length).toBe(1);
      expect(outbox.lastSeq(conn.counterId)).toBeLessThan(appended);

      afterAnswer()[0]!.fire();
      await until(() => syncs.length === 2);
      await syncs[1]!.answered;
      expect(syncs.map((s) => s.events)).toEqual([syncs[0]!.events, appended - syncs[0]!.events]);
      expect(outbox.lastSeq(conn.counterId)).toBe(appended);
    } finally {
      await pusher.stop();
      db.close();
    }
  });
});
