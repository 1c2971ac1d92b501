// Open streams share one reader per Hub instance (issue 21, a chain's load): however many relay or
// live streams are open, a heartbeat costs a constant number of queries, and one change is read once
// for all the streams it concerns. Counted through a HubDb that records every statement, never timed.
// Real Hubs on PGlite over loopback HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { createManager } from '../../../hub/store/managers';
import { DASH_CHANNEL } from '../../../hub/store/projections';
import { RELAY_CHANNEL } from '../../../hub/store/notifications';
import { countingDb, type CountingDb } from '../helpers/counting-db';
import { CounterJournal, Manager, type LiveReader } from '../helpers/dashboard-client';
import { bearer, enroll, post, posWebhook, sendPosWebhook, startTestHub, type TestHub } from '../helpers/hub-harness';
import { RelayClient } from '../helpers/sse-client';

const PW = 'manager password 1';
/** Statements that read the relay's deliveries (the old per-stream read and the shared ones alike). */
const DELIVERY_READS = /\bfrom deliveries\b/;
/** Statements that read the orders one synced batch changed. */
const CHANGE_READS = /change_id between/;
const SESSION_READS = /\bfrom manager_sessions\b/;
/** The relay's NOTIFY to the other Hub instances (notifyCounters). */
const RELAY_NOTIFY = /set_config\('synchronous_commit', 'off', true\), pg_notify/;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function hubOn(db: HubDb, heartbeatMs = 100): Promise<TestHub> {
  const hub = await startTestHub({ db, heartbeatMs });
  cleanup.push(() => hub.stop());
  return hub;
}

async function memoryDb(): Promise<{ raw: HubDb; db: CountingDb }> {
  const raw = await openHubDb({ databaseUrl: null, dataDir: null });
  cleanup.push(() => raw.close());
  return { raw, db: countingDb(raw) };
}

async function relayStream(hub: TestHub, credential: string): Promise<RelayClient> {
  const s = new RelayClient(hub.url, credential);
  await s.connect();
  cleanup.push(() => s.disconnect());
  return s;
}

const heartbeatsOf = (r: LiveReader) => r.events.filter((e) => e.event === 'heartbeat').length;

/** The counter syncs the orders it created: it owns their provider order numbers (the Hub relays only to an order's owner). */
async function own(hub: TestHub, credential: string, orderNos: string[]): Promise<void> {
  const events = orderNos.map((o, i) => ({
    seq: i + 1,
    kind: 'order.created',
    at: Date.now(),
    payload: { reference: `REF-${o}`, orderNo: o, amountKobo: 1000, sn: 'SN' },
  }));
  const r = await post(
    `${hub.url}/api/v1/sync`,
    { events, status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 } },
    bearer(credential),
  );
  expect(r.status).toBe(200);
}

describe('relay streams share one reader', () => {
  it('20 open streams cost at most two delivery reads per heartbeat', async () => {
    const { db } = await memoryDb();
    const hub = await hubOn(db);
    const streams: RelayClient[] = [];
    for (let i = 0; i < 10; i++) {
      const c = await enroll(hub, `Fan ${i}`, 'BR-FAN');
      streams.push(await relayStream(hub, c.credential), await relayStream(hub, c.credential));
    }
    const s0 = streams[0]!;
    let h = s0.heartbeats();
    await s0.until(() => s0.heartbeats() >= h + 2);
    // Five heartbeats with nothing to send: before the shared reader, each stream read its deliveries on each (20 x 5).
    const mark = db.queries.length;
    h = s0.heartbeats();
    await s0.until(() => s0.heartbeats() >= h + 5);
    expect(db.since(mark, DELIVERY_READS)).toBeLessThanOrEqual(2 * 5);
  });

  it("a re-opened LISTEN wakes 20 streams of 10 counters: one read sends each its counter's notification, once", async () => {
    const { raw, db } = await memoryDb();
    // Two Hub instances on one database. B's heartbeat (and sweep) is far off, and it hears no relay
    // NOTIFY: what A stores waits until B's LISTEN connection is re-opened ('*').
    const a = await hubOn(raw);
    const b = await hubOn(db, 3_600_000);
    db.deaf.add(RELAY_CHANNEL);
    const streams: RelayClient[][] = [];
    for (let i = 0; i < 10; i++) {
      const c = await enroll(a, `Wide ${i}`, 'BR-WIDE');
      await own(a, c.credential, [`WIDE-${i}`]);
      streams.push([await relayStream(b, c.credential), await relayStream(b, c.credential)]);
    }
    for (let i = 0; i < 10; i++)
      expect((await sendPosWebhook(a, posWebhook(a.merchant, { tranId: `WIDE-${i}`, branch: 'BR-WIDE' }))).status).toBe(
        200,
      );
    const mark = db.queries.length;
    db.emit(RELAY_CHANNEL, '*');
    for (const pair of streams) for (const s of pair) await s.until(() => s.notifications.length >= 1);
    // Before the shared reader, each of the 20 streams read its counter's deliveries itself.
    expect(db.since(mark, DELIVERY_READS)).toBe(1);
    streams.forEach((pair, i) => {
      for (const s of pair) expect(s.notifications.map((n) => n.headers['X-Opay-Tranid'])).toEqual([`WIDE-${i}`]);
    });
  });

  it("a webhook is read for its counter's stream before the NOTIFY for other instances is sent (it is on the webhook's way)", async () => {
    const { db } = await memoryDb();
    const hub = await hubOn(db, 3_600_000);
    const c = await enroll(hub, 'Near', 'BR-NEAR');
    await own(hub, c.credential, ['NEAR-1']);
    const s = await relayStream(hub, c.credential);
    const mark = db.queries.length;
    expect((await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'NEAR-1', branch: 'BR-NEAR' }))).status).toBe(
      200,
    );
    await s.until(() => s.notifications.length === 1);
    const after = db.queries.slice(mark);
    const read = after.findIndex((q) => DELIVERY_READS.test(q));
    const notify = after.findIndex((q) => RELAY_NOTIFY.test(q));
    expect(read).toBeGreaterThanOrEqual(0);
    expect(notify).toBeGreaterThanOrEqual(0);
    // Before, the NOTIFY went first: 0.3 ms more from the tap to Paid (bench:hub, issue 28).
    expect(read).toBeLessThan(notify);
  });

  it('a NOTIFY lost on the way to another instance: its heartbeat sweep delivers the notification, once', async () => {
    const { raw, db } = await memoryDb();
    // Two Hub instances on one database; B hears no relay NOTIFY (its LISTEN connection was down).
    const a = await hubOn(raw);
    const b = await hubOn(db);
    db.deaf.add(RELAY_CHANNEL);
    const c = await enroll(a, 'Far', 'BR-FAR');
    await own(a, c.credential, ['FAR-1']);
    const s = await relayStream(b, c.credential);
    await sendPosWebhook(a, posWebhook(a.merchant, { tranId: 'FAR-1', branch: 'BR-FAR' }));
    await s.until(() => s.notifications.length === 1);
    const h = s.heartbeats();
    await s.until(() => s.heartbeats() >= h + 3);
    expect(s.notifications.map((n) => n.headers['X-Opay-Tranid'])).toEqual(['FAR-1']);
  });
});

describe('dashboard live streams share one reader', () => {
  async function setup() {
    const { db } = await memoryDb();
    const hub = await hubOn(db);
    const now = hub.ctx.now();
    await createManager(hub.db, { name: 'Head', password: PW, role: 'head-office', branch: null }, now);
    await createManager(hub.db, { name: 'Lagos', password: PW, role: 'branch', branch: 'BR-L' }, now);
    await createManager(hub.db, { name: 'Abuja', password: PW, role: 'branch', branch: 'BR-A' }, now);
    const open = async (name: string, n: number) => {
      const m = new Manager(hub.url);
      expect((await m.login(name, PW)).status).toBe(200);
      const out: LiveReader[] = [];
      for (let i = 0; i < n; i++) {
        const r = await m.live();
        cleanup.push(async () => r.close());
        out.push(r);
      }
      return out;
    };
    // 7 streams over 3 sessions: head office (every branch), Lagos, Abuja.
    const head = await open('Head', 4);
    const lagos = await open('Lagos', 2);
    const abuja = await open('Abuja', 1);
    const journal = async (branch: string) => {
      const c = await enroll(hub, `Till ${branch}`, branch);
      return new CounterJournal(hub.url, c.credential);
    };
    const sell = (j: CounterJournal, reference: string) =>
      j.sync([
        j.ev('order.created', hub.ctx.now(), {
          reference,
          amountKobo: 1000,
          sn: 'SN',
          cashier: 'Ada',
          profile: 'production',
        }),
      ]);
    return { hub, db, head, lagos, abuja, journal, sell };
  }

  it('a synced order is read once for 7 streams, each sent it only within its scope; a heartbeat checks every session in one query', async () => {
    const { db, head, lagos, abuja, journal, sell } = await setup();
    const tillL = await journal('BR-L');
    const tillA = await journal('BR-A');

    let mark = db.queries.length;
    await sell(tillL, 'R-L-1');
    for (const r of [...head, ...lagos]) await r.until(() => r.orders().some((e) => e.data.reference === 'R-L-1'));
    // Before the shared reader, each of the 7 streams read the batch's orders itself.
    expect(db.since(mark, CHANGE_READS)).toBe(1);

    await sell(tillA, 'R-A-1');
    for (const r of [...head, abuja[0]!]) await r.until(() => r.orders().some((e) => e.data.reference === 'R-A-1'));
    expect(abuja[0]!.orders().map((e) => e.data.reference)).toEqual(['R-A-1']);
    for (const r of lagos) expect(r.orders().map((e) => e.data.reference)).toEqual(['R-L-1']);
    for (const r of head) expect(r.orders().map((e) => e.data.reference)).toEqual(['R-L-1', 'R-A-1']);

    // Five heartbeats: before, each stream checked its session on each (7 x 5).
    mark = db.queries.length;
    const h = heartbeatsOf(abuja[0]!);
    await abuja[0]!.until(() => heartbeatsOf(abuja[0]!) >= h + 5);
    expect(db.since(mark, SESSION_READS)).toBeLessThanOrEqual(2 * 5);
  });

  it('a stream opened while the heartbeat reads the sessions is not closed for being missing from that read', async () => {
    const { hub, db } = await setup();
    const gate = db.hold(/id_hash = any/);
    await gate.hit;
    const late = new Manager(hub.url);
    expect((await late.login('Lagos', PW)).status).toBe(200);
    const r = await late.live();
    cleanup.push(async () => r.close());
    gate.release();
    // Its own session is read on the next heartbeat: it stays open and gets the heartbeat.
    await r.until(() => heartbeatsOf(r) >= 2);
    expect(r.events.some((e) => e.event === 'closed')).toBe(false);
  });

  it("after a lost NOTIFY, the re-opened LISTEN ('*') re-reads once for every stream, each sent what it missed once", async () => {
    const { db, head, lagos, abuja, journal, sell } = await setup();
    const tillL = await journal('BR-L');
    await sell(tillL, 'R-L-1');
    for (const r of [...head, ...lagos]) await r.until(() => r.orders().length === 1);
    db.deaf.add(DASH_CHANNEL);
    await sell(tillL, 'R-L-2');
    db.deaf.delete(DASH_CHANNEL);
    const mark = db.queries.length;
    db.emit(DASH_CHANNEL, '*');
    for (const r of [...head, ...lagos]) await r.until(() => r.orders().length === 2);
    expect(db.since(mark, /change_id >/)).toBe(1);
    // A later change still arrives once, after what was missed.
    await sell(tillL, 'R-L-3');
    for (const r of [...head, ...lagos]) {
      await r.until(() => r.orders().length === 3);
      expect(r.orders().map((e) => e.data.reference)).toEqual(['R-L-1', 'R-L-2', 'R-L-3']);
    }
    expect(abuja[0]!.orders()).toEqual([]);
  });
});
