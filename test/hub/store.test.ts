// The Hub's store, the same SQL on both back ends: PGlite (embedded) and a throwaway real
// PostgreSQL cluster. Migrations, enrollment codes, sync idempotency and gaps, routing, acks, pruning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../hub/db/adapter';
import { migrate, schemaIsCurrent } from '../../hub/db/migrations';
import { openHubDb } from '../../hub/db/open';
import { HubFailure } from '../../hub/errors';
import { enrollCounter, issueEnrollCode, revokeCounter } from '../../hub/store/counters';
import { readJournal, storeSyncBatch } from '../../hub/store/journal';
import {
  ackDeliveries,
  createIngestBatcher,
  ingestNotification,
  ingestNotifications,
  notificationLog,
  pendingDeliveries,
  pruneOlderThan,
  type NotificationIngestInput,
} from '../../hub/store/notifications';
import type { SyncEvent } from '../../shared/hub-contract';
import { pgUnavailable, startPgCluster, type PgCluster } from './helpers/pg-cluster';

if (pgUnavailable) console.log(`store on real PostgreSQL skipped: ${pgUnavailable}`);

const ev = (seq: number, reference = `R${seq}`): SyncEvent => ({
  seq,
  kind: 'order.created',
  at: 1_700_000_000_000 + seq,
  payload: { reference, amountKobo: 150_000, sn: 'SN1' },
});

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof HubFailure ? e.code : String(e);
  }
};

function storeSuite(name: string, open: () => Promise<HubDb>) {
  describe(name, () => {
    let db: HubDb;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => db?.close());

    it('applies migrations once and reports the schema current', async () => {
      expect(await migrate(db)).toEqual([]); // already applied by open
      expect(await schemaIsCurrent(db)).toBe(true);
    });

    it('an enrollment code works once, and never after it expires', async () => {
      const now = Date.now();
      const { code } = await issueEnrollCode(db, now, 10);
      const a = await enrollCounter(db, { code, counterName: 'A', branch: 'B1', appVersion: '1' }, now);
      expect(a.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await codeOf(enrollCounter(db, { code, counterName: 'B', branch: 'B1', appVersion: '1' }, now))).toBe(
        'HUB_ENROLL_CODE_INVALID',
      );
      const late = await issueEnrollCode(db, now, 1);
      expect(
        await codeOf(
          enrollCounter(db, { code: late.code, counterName: 'C', branch: 'B1', appVersion: '1' }, now + 61_000),
        ),
      ).toBe('HUB_ENROLL_CODE_INVALID');
      // Only the hash of the credential is stored.
      const rows = await db.query<{ token_hash: string }>('select token_hash from counters where id = $1', [
        a.counterId,
      ]);
      expect(rows[0]!.token_hash).not.toContain(a.credential);
      expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('sync is idempotent, refuses gaps with the expected seq, and refuses a different event under a held seq', async () => {
      const { code } = await issueEnrollCode(db, Date.now(), 10);
      const c = await enrollCounter(db, { code, counterName: 'S', branch: 'B1', appVersion: '1' }, Date.now());
      expect(await storeSyncBatch(db, c.counterId, [ev(1), ev(2), ev(3)], Date.now())).toEqual({
        lastSeq: 3,
        stored: 3,
        refusedClaims: [],
        sharedClaims: [],
        released: [],
      });
      expect(await storeSyncBatch(db, c.counterId, [ev(1), ev(2), ev(3)], Date.now())).toEqual({
        lastSeq: 3,
        stored: 0,
        refusedClaims: [],
        sharedClaims: [],
        released: [],
      });
      expect(await storeSyncBatch(db, c.counterId, [ev(2), ev(3), ev(4)], Date.now())).toEqual({
        lastSeq: 4,
        stored: 1,
        refusedClaims: [],
        sharedClaims: [],
        released: [],
      });
      const gap = await storeSyncBatch(db, c.counterId, [ev(6)], Date.now()).catch((e: HubFailure) => e);
      expect(gap).toBeInstanceOf(HubFailure);
      expect((gap as HubFailure).code).toBe('HUB_SYNC_GAP');
      expect((gap as HubFailure).details).toMatchObject({ expectedSeq: 5 });
      expect(await codeOf(storeSyncBatch(db, c.counterId, [ev(2, 'OTHER')], Date.now()))).toBe('HUB_SYNC_CONFLICT');
      expect((await readJournal(db, c.counterId)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    });

    it('routes a notification to the owner of its order only, else holds it (never the branch); acks and prunes', async () => {
      const now = Date.now();
      const mk = async (n: string, b: string) =>
        enrollCounter(
          db,
          { code: (await issueEnrollCode(db, now, 10)).code, counterName: n, branch: b, appVersion: '1' },
          now,
        );
      const x = await mk('X', 'BR-R');
      const y = await mk('Y', 'BR-R');
      await storeSyncBatch(db, x.counterId, [ev(1, 'ORDX')], now);
      const pos = (body: string, orderKeys: string[]): NotificationIngestInput => ({
        kind: 'pos',
        headers: {},
        body,
        contentKey: body,
        orderKeys,
        branch: 'BR-R',
        verifiedDetail: 'ok',
        now,
      });
      const owned = await ingestNotification(db, pos('b1', ['ORDX']));
      expect(owned).toMatchObject({ counterIds: [x.counterId], held: false, dropped: false });
      const unknown = await ingestNotification(db, pos('b2', ['NOPE']));
      expect(unknown).toMatchObject({ counterIds: [], held: true, dropped: false });
      const again = await ingestNotification(db, pos('b1', ['ORDX']));
      expect(again).toMatchObject({ duplicate: true, notificationId: owned.notificationId, counterIds: [] });

      const pend = await pendingDeliveries(db, x.counterId, 0, 100);
      expect(pend.map((p) => p.body)).toEqual(['b1']);
      expect(await pendingDeliveries(db, y.counterId, 0, 100)).toEqual([]);
      expect(
        await ackDeliveries(
          db,
          x.counterId,
          pend.map((p) => p.eventId),
          now,
        ),
      ).toBe(1);
      expect(
        await ackDeliveries(
          db,
          y.counterId,
          pend.map((p) => p.eventId),
          now,
        ),
      ).toBe(0); // not y's deliveries
      expect(await pendingDeliveries(db, x.counterId, 0, 100)).toEqual([]);
      const log = await notificationLog(db, owned.notificationId!);
      expect(log!.steps.map((s) => s.step)).toEqual(['received', 'verified', 'routed', 'duplicate', 'acknowledged']);
      expect((await notificationLog(db, unknown.notificationId!))!.steps.map((s) => s.step)).toEqual([
        'received',
        'verified',
        'held',
      ]);

      await revokeCounter(db, y.counterId, now);
      const noKey = await ingestNotification(db, pos('b3', []));
      expect(noKey).toMatchObject({ counterIds: [], held: false, dropped: true });

      expect(await pruneOlderThan(db, now + 1)).toBeGreaterThanOrEqual(3);
      expect(await notificationLog(db, owned.notificationId!)).toBeNull();
    });

    it('a batch stores each notification routed on its own, in order; webhooks arriving together share a batch, repeats stay single', async () => {
      const now = Date.now();
      const mk = async (n: string, b: string) =>
        enrollCounter(
          db,
          { code: (await issueEnrollCode(db, now, 10)).code, counterName: n, branch: b, appVersion: '1' },
          now,
        );
      const p = await mk('P', 'BR-BATCH');
      const q = await mk('Q', 'BR-BATCH');
      await storeSyncBatch(db, q.counterId, [ev(1, 'ORDQ')], now);
      await storeSyncBatch(db, p.counterId, [ev(1, 'ORDP')], now);
      const input = (body: string, keys: string[], branch: string | null = 'BR-BATCH'): NotificationIngestInput => ({
        kind: 'pos',
        headers: { merchantId: branch ?? '' },
        body,
        contentKey: body,
        orderKeys: keys,
        branch,
        verifiedDetail: 'ok',
        now,
      });
      const rs = await ingestNotifications(db, [
        input('k1', ['ORDQ']),
        input('k2', ['NOPE']),
        input('k3', []),
        input('k1-old', ['ORDQ']),
      ]);
      expect(rs.map((r) => r.duplicate)).toEqual([false, false, false, false]);
      expect(rs[0]!.counterIds).toEqual([q.counterId]);
      expect(rs.map((r) => [r.held, r.dropped])).toEqual([
        [false, false],
        [true, false],
        [false, true],
        [false, false],
      ]);
      expect(rs[3]!.counterIds).toEqual([q.counterId]);
      expect(new Set(rs.map((r) => r.notificationId)).size).toBe(4);
      expect((await notificationLog(db, rs[0]!.notificationId!))!.steps.map((s) => [s.step, s.counterId])).toEqual([
        ['received', null],
        ['verified', null],
        ['routed', q.counterId],
      ]);
      // Q gets its order's notifications, in the order they came; P (same branch) nothing of them.
      expect((await pendingDeliveries(db, q.counterId, 0, 100)).map((d) => d.body)).toEqual(['k1', 'k1-old']);
      expect(await pendingDeliveries(db, p.counterId, 0, 100)).toEqual([]);

      // Through the batcher: 20 at once, 3 of them the same content (one stored, two duplicates of it).
      const ingest = createIngestBatcher(db, 8);
      const bodies = Array.from({ length: 17 }, (_, i) => `burst-${i}`).concat(['same', 'same', 'same']);
      const got = await Promise.all(bodies.map((b) => ingest(input(b, ['ORDP'], 'BR-BATCH'))));
      expect(got.filter((r) => !r.duplicate)).toHaveLength(18);
      const same = got.slice(17);
      expect(same.filter((r) => r.duplicate)).toHaveLength(2);
      expect(new Set(same.map((r) => r.notificationId)).size).toBe(1);
      expect((await pendingDeliveries(db, p.counterId, 0, 100)).map((d) => d.body)).toEqual(bodies.slice(0, 18));
      // A notification the database refuses fails alone; the others of its batch are stored.
      const bad = { ...input('bad', []), kind: 'nope' as NotificationIngestInput['kind'] };
      const mixed = await Promise.allSettled([
        ingest(input('ok-1', ['ORDP'])),
        ingest(bad),
        ingest(input('ok-2', ['ORDP'])),
      ]);
      expect(mixed.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((await pendingDeliveries(db, p.counterId, 0, 100)).slice(-2).map((d) => d.body)).toEqual(['ok-1', 'ok-2']);
    });
  });
}

storeSuite('store on PGlite', () => openHubDb({ dataDir: null }));

describe.skipIf(!!pgUnavailable)('real PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());
  storeSuite('store on real PostgreSQL', () =>
    openHubDb({ databaseUrl: cluster.createDatabase('store'), dataDir: null }),
  );
});
