// The Hub's second review (issue 26): the holding area no stranger can fill, and a provider order
// number several counters claim. Real Hubs over loopback HTTP (PGlite, and a throwaway real
// PostgreSQL where installed), addresses told apart by X-Forwarded-For through --trust-proxy, real
// SSE relay streams for the counters.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManager } from '../../../hub/store/managers';
import type { AttentionView } from '../../../shared/hub-dashboard-contract';
import { Manager } from '../helpers/dashboard-client';
import { hubsPerTest, sync, topup, sale, saleStatus, billsBody, deliveredTo } from '../helpers/route-fixtures';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import {
  ADMIN_TOKEN,
  bearer,
  enroll,
  get,
  post,
  posWebhook,
  sendPosWebhook,
  type TestHub,
} from '../helpers/hub-harness';

const PW = 'manager password 1';

if (pgUnavailable) console.log(`holding area on real PostgreSQL skipped: ${pgUnavailable}`);

const { newHub, stream } = hubsPerTest();

/** A bills callback as a stranger sends it: from `from` (X-Forwarded-For), padded toward the Hub's body limit. */
const forged = (hub: TestHub, reference: string, from: string) =>
  post(hub.webhookUrls.bills, billsBody(reference, { note: randomBytes(5000).toString('base64') }), {
    'x-forwarded-for': from,
  });

const count = async (hub: TestHub, sql: string) => Number((await hub.db.query<{ n: unknown }>(sql))[0]!.n);
const metric = async (hub: TestHub, re: RegExp) => {
  const text = await (await fetch(`${hub.url}/metrics`, { headers: bearer(ADMIN_TOKEN) })).text();
  return Number(re.exec(text)?.[1] ?? 0);
};
const stepsOf = async (hub: TestHub, id: string) =>
  (await get(`${hub.url}/api/v1/admin/notifications/${id}/log`, bearer(ADMIN_TOKEN))).json.steps as {
    step: string;
    counterId: string | null;
    detail: string;
  }[];

/** Sends in waves of `wave` at once (the Hub batches what arrives together), each answered 200. */
async function flood(n: number, wave: number, send: (i: number) => Promise<{ status: number }>): Promise<void> {
  for (let i = 0; i < n; i += wave) {
    const rs = await Promise.all(Array.from({ length: Math.min(wave, n - i) }, (_, j) => send(i + j)));
    expect(rs.every((r) => r.status === 200)).toBe(true);
  }
}

function holdingSuite(name: string, databaseUrl: () => string | undefined) {
  describe(name, () => {
    const SHARE = 24 * 1024;
    const hubWithProxy = () =>
      newHub({
        databaseUrl: databaseUrl(),
        trustProxy: ['127.0.0.1'],
        rateLimits: { perBillsAddress: 1_000_000 },
        hold: { maxHeld: 40, maxHeldBytesPerSource: SHARE },
      });

    it('junk bills callbacks from strangers do not displace the real one, which still reaches its owner; what is dropped is not kept', async () => {
      const hub = await hubWithProxy();
      const a = await enroll(hub, 'Counter 1', 'BR-A'); // code COU1
      const b = await enroll(hub, 'Counter 2', 'BR-B'); // code COU2
      // 300 for references nobody could own (no code, or a code no live counter has), from 5 addresses.
      await flood(300, 25, (i) =>
        forged(hub, i % 2 ? `JUNK-${i}` : `ZZ9-T251125-${String(i).padStart(4, '0')}`, `10.0.0.${i % 5}`),
      );
      // 400 for references in live counters' codes (guessable), from 10 addresses: more than the area holds.
      await flood(400, 25, (i) => forged(hub, `COU${1 + (i % 2)}-T251125-${String(5000 + i)}`, `10.0.1.${i % 10}`));
      // The provider's real callback for A's top-up arrives just before A's sync.
      const real = billsBody('COU1-T251125-0001');
      expect((await post(hub.webhookUrls.bills, real, { 'x-forwarded-for': '10.9.9.9' })).json.code).toBe('00000');
      const sa = await stream(hub, a.credential);
      const sb = await stream(hub, b.credential);
      expect((await sync(hub, a.credential, [topup(1, 'COU1-T251125-0001')])).status).toBe(200);
      // Released in A's sync itself: delivered before the sync answers.
      expect(await deliveredTo(hub)).toEqual([['COU1-T251125-0001', a.counterId]]);
      await sa.until(() => sa.notifications.length === 1);
      expect(sa.notifications[0]).toMatchObject({ kind: 'bills', body: real });
      expect((await stepsOf(hub, sa.notifications[0]!.notificationId)).map((s) => s.step)).toEqual([
        'received',
        'verified',
        'held',
        'routed',
        'relayed',
      ]);
      // B (the other live code) got none of the junk: held junk is sent to nobody.
      expect((await sync(hub, b.credential, [topup(1, 'COU2-T251125-0001')])).status).toBe(200);
      expect(sb.notifications).toEqual([]);

      // Not kept: no row of a reference no live counter could own; of the rest, only what is held.
      expect(
        await count(
          hub,
          "select count(*) as n from notifications where order_no like 'JUNK-%' or order_no like 'ZZ9-%'",
        ),
      ).toBe(0);
      expect(
        await count(
          hub,
          "select count(*) as n from notifications where kind = 'bills' and id not in (select notification_id from quarantine) and id not in (select notification_id from deliveries)",
        ),
      ).toBe(0);
      expect(await count(hub, "select count(*) as n from quarantine where kind = 'bills'")).toBeLessThanOrEqual(40);
      // Each address within its share.
      const bySource = await hub.db.query<{ source: string; bytes: unknown }>(
        "select source, sum(bytes) as bytes from quarantine where kind = 'bills' group by source",
      );
      expect(bySource.length).toBeGreaterThan(0);
      for (const s of bySource) expect(Number(s.bytes)).toBeLessThanOrEqual(SHARE);
      expect(bySource.map((s) => s.source).every((s) => s.startsWith('10.0.1.'))).toBe(true);
      expect(await metric(hub, /hub_notifications_dropped_total\{kind="bills",reason="not-ours"\} (\d+)/)).toBe(300);
      expect(
        await metric(hub, /hub_notifications_dropped_total\{kind="bills",reason="source-full"\} (\d+)/),
      ).toBeGreaterThan(0);
    });

    it("past the area's size each address keeps its oldest in turn: a flooding address loses its own, never a quiet address's", async () => {
      const hub = await newHub({
        databaseUrl: databaseUrl(),
        trustProxy: ['127.0.0.1'],
        rateLimits: { perBillsAddress: 1_000_000 },
        hold: { maxHeld: 10, maxHeldBytesPerSource: 1024 * 1024 },
      });
      const a = await enroll(hub, 'Counter 1', 'BR-A');
      const real = billsBody('COU1-T251125-0042');
      expect((await post(hub.webhookUrls.bills, real, { 'x-forwarded-for': '10.9.9.9' })).status).toBe(200);
      // One address floods after it: far more than the whole area.
      await flood(60, 20, (i) => forged(hub, `COU1-T251125-${6000 + i}`, '10.0.2.1'));
      expect(await count(hub, "select count(*) as n from quarantine where kind = 'bills'")).toBe(10);
      expect(await count(hub, "select count(*) as n from quarantine where source = '10.9.9.9'")).toBe(1);
      expect(await count(hub, "select count(*) as n from notifications where kind = 'bills'")).toBe(10);
      expect((await sync(hub, a.credential, [topup(1, 'COU1-T251125-0042')])).status).toBe(200);
      expect(await deliveredTo(hub)).toEqual([['COU1-T251125-0042', a.counterId]]);
      expect(await metric(hub, /hub_notifications_dropped_total\{kind="bills",reason="full"\} (\d+)/)).toBe(51);
    });
  });
}

holdingSuite('holding area on PGlite', () => undefined);

describe.skipIf(!!pgUnavailable)('real PostgreSQL', () => {
  let cluster: PgCluster;
  let n = 0;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());
  holdingSuite('holding area on real PostgreSQL', () => cluster.createDatabase(`holding${++n}`));
});

describe("a held notification goes to its order's owner, not to whichever counter syncs", () => {
  it("a held POS webhook is released to the counter that claims its order number; another counter's sync, related or not, never takes it", async () => {
    const hub = await newHub();
    const a = await enroll(hub, 'Counter 1', 'BR-A');
    const b = await enroll(hub, 'Counter 2', 'BR-A');
    const sa = await stream(hub, a.credential);
    const sb = await stream(hub, b.credential);
    await sync(hub, a.credential, [sale(1, 'COU1-251125-0001')]);
    // The webhook beats the sync that names its provider order number: held.
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-HELD-1', branch: 'BR-A' }));
    expect(await count(hub, 'select count(*) as n from quarantine')).toBe(1);
    // B syncs sales of its own: nothing of A's is released to it.
    expect(
      (
        await sync(hub, b.credential, [
          sale(1, 'COU2-251125-0001', 'PO-B-1'),
          saleStatus(2, 'COU2-251125-0001', 'PO-B-1'),
        ])
      ).status,
    ).toBe(200);
    expect(await deliveredTo(hub)).toEqual([]);
    // A names the provider order number: released to A.
    expect((await sync(hub, a.credential, [saleStatus(2, 'COU1-251125-0001', 'PO-HELD-1')])).status).toBe(200);
    await sa.until(() => sa.notifications.length === 1);
    expect(sa.notifications[0]!.headers['X-Opay-Tranid']).toBe('PO-HELD-1');
    expect(await deliveredTo(hub)).toEqual([['PO-HELD-1', a.counterId]]);

    // A's claim committed while the webhook was stored (neither saw the other: it stays held); then
    // B's sync claims the same order number for a sale of its own. A, its first claimant, gets it.
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-HELD-2', branch: 'BR-A' }));
    await hub.db.query('insert into order_owners (order_key, counter_id, registered_at) values ($1, $2, $3)', [
      'PO-HELD-2',
      a.counterId,
      Date.now(),
    ]);
    expect((await sync(hub, b.credential, [sale(3, 'COU2-251125-0002', 'PO-HELD-2')])).status).toBe(200);
    expect((await deliveredTo(hub)).filter(([o]) => o === 'PO-HELD-2').map(([, c]) => c)).toContain(a.counterId);
    await sa.until(() => sa.notifications.length === 2);
    expect(sa.notifications[1]!.headers['X-Opay-Tranid']).toBe('PO-HELD-2');
    expect(sb.notifications.map((n) => n.headers['X-Opay-Tranid'])).not.toContain('PO-HELD-1');
  });
});

describe("a claim on another branch's provider order number never takes its notification away, nor gets it", () => {
  const withLog = async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) },
    );
    return { hub: await newHub({ logger }), lines };
  };

  it("rogue first, then the victim, then the webhook: the victim's branch alone gets it, the log says why; Needs attention says the order is named in two branches, never claimed twice", async () => {
    const { hub, lines } = await withLog();
    const victim = await enroll(hub, 'Counter 1', 'BR-A');
    const rogue = await enroll(hub, 'Counter 7', 'BR-B');
    const sv = await stream(hub, victim.credential);
    const sr = await stream(hub, rogue.credential);
    // The rogue syncs a sale of its own naming the victim's (guessed) provider order number.
    expect((await sync(hub, rogue.credential, [sale(1, 'COU7-251125-0001', 'PO-VICTIM-1')])).status).toBe(200);
    expect(
      (
        await sync(hub, victim.credential, [
          sale(1, 'COU1-251125-0001'),
          saleStatus(2, 'COU1-251125-0001', 'PO-VICTIM-1'),
        ])
      ).status,
    ).toBe(200);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-VICTIM-1', branch: 'BR-A' }));
    expect(await deliveredTo(hub)).toEqual([['PO-VICTIM-1', victim.counterId]]);
    await sv.until(() => sv.notifications.length === 1);
    expect(sv.notifications[0]!.headers['X-Opay-Tranid']).toBe('PO-VICTIM-1');
    const routed = (await stepsOf(hub, sv.notifications[0]!.notificationId)).filter((s) => s.step === 'routed');
    expect(routed.map((r) => [r.counterId, r.detail])).toEqual([
      [
        victim.counterId,
        'owner of order PO-VICTIM-1 (claimed in another branch too: sent to branch BR-A only, the one its merchantId header names)',
      ],
    ]);
    // The sync log names every claimant, on the claim that made it shared.
    const shared = lines.filter(
      (l) =>
        l.msg ===
        'hub: order numbers claimed by more than one counter; the claimants of one branch get their notifications, the branch the provider names',
    );
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatchObject({
      counterId: victim.counterId,
      claims: [{ key: 'PO-VICTIM-1', counterIds: [victim.counterId, rogue.counterId].sort() }],
    });
    // Needs attention: no "claimed twice" (they do not share it); head office sees both counters with
    // their branches; the victim's branch manager sees the line without the other branch's counter name.
    await createManager(hub.db, { name: 'HO', password: PW, role: 'head-office', branch: null }, Date.now());
    await createManager(hub.db, { name: 'MA', password: PW, role: 'branch', branch: 'BR-A' }, Date.now());
    const [ho, ma] = [new Manager(hub.url), new Manager(hub.url)];
    expect((await ho.login('HO', PW)).status).toBe(200);
    expect((await ma.login('MA', PW)).status).toBe(200);
    const claimLines = async (m: Manager) =>
      ((await m.get('/attention')).json as unknown as AttentionView).lines.filter((l) => l.kind.startsWith('order-'));
    const hoLines = await claimLines(ho);
    expect(hoLines.map((l) => [l.kind, l.counterId, l.branch]).sort()).toEqual(
      [
        ['order-named-in-two-branches', victim.counterId, 'BR-A'],
        ['order-named-in-two-branches', rogue.counterId, 'BR-B'],
      ].sort(),
    );
    expect(hoLines.find((l) => l.counterId === victim.counterId)!.subject).toBe(
      'Provider order PO-VICTIM-1 is named by Counter 1 and by Counter 7 (BR-B): its payment notification goes to one branch only, the one the provider names',
    );
    const maLines = await claimLines(ma);
    expect(maLines).toHaveLength(1);
    expect(maLines[0]!.subject).toBe(
      'Provider order PO-VICTIM-1 is named by Counter 1 and by a counter of another branch: its payment notification goes to one branch only, the one the provider names',
    );
    expect(JSON.stringify(maLines)).not.toContain('Counter 7');
    expect(sr.notifications).toEqual([]);
  });

  it("rogue first and the webhook before the victim syncs: held for the victim's branch, never sent to the rogue; the victim's claim gets it", async () => {
    const { hub } = await withLog();
    const victim = await enroll(hub, 'Counter 1', 'BR-A');
    const rogue = await enroll(hub, 'Counter 7', 'BR-B');
    const sv = await stream(hub, victim.credential);
    expect((await sync(hub, rogue.credential, [sale(1, 'COU7-251125-0001', 'PO-VICTIM-2')])).status).toBe(200);
    const sent = await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-VICTIM-2', branch: 'BR-A' }));
    expect(sent.json.code).toBe('00000');
    expect(await deliveredTo(hub)).toEqual([]);
    expect(await count(hub, 'select count(*) as n from quarantine')).toBe(1);
    expect((await sync(hub, victim.credential, [sale(1, 'COU1-251125-0001', 'PO-VICTIM-2')])).status).toBe(200);
    expect(await deliveredTo(hub)).toEqual([['PO-VICTIM-2', victim.counterId]]);
    await sv.until(() => sv.notifications.length === 1);
    expect(sv.notifications[0]!.headers['X-Opay-Tranid']).toBe('PO-VICTIM-2');
    const steps = await stepsOf(hub, sv.notifications[0]!.notificationId);
    expect(steps.find((s) => s.step === 'held')!.detail).toContain(
      'claimed only outside the branch its merchantId header names, or in several branches',
    );
    // The rogue syncing again (or claiming again) is never caught up on it.
    expect((await sync(hub, rogue.credential, [saleStatus(2, 'COU7-251125-0001', 'PO-VICTIM-2')])).status).toBe(200);
    expect(await deliveredTo(hub)).toEqual([['PO-VICTIM-2', victim.counterId]]);
  });

  it('the victim first, the rogue later: the victim keeps getting its notifications, the rogue none', async () => {
    const { hub } = await withLog();
    const victim = await enroll(hub, 'Counter 1', 'BR-A');
    const rogue = await enroll(hub, 'Counter 7', 'BR-B');
    const sv = await stream(hub, victim.credential);
    expect((await sync(hub, victim.credential, [sale(1, 'COU1-251125-0001', 'PO-VICTIM-3')])).status).toBe(200);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-VICTIM-3', branch: 'BR-A' }));
    // The rogue names it after the webhook went to the victim: not caught up (another branch's).
    expect((await sync(hub, rogue.credential, [sale(1, 'COU7-251125-0001', 'PO-VICTIM-3')])).status).toBe(200);
    await sendPosWebhook(hub, posWebhook(hub.merchant, { tranId: 'PO-VICTIM-3', branch: 'BR-A' }));
    await sv.until(() => sv.notifications.length === 2);
    expect((await deliveredTo(hub)).map(([, c]) => c)).toEqual([victim.counterId, victim.counterId]);
  });
});
