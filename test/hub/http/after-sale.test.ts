// After the sale on a real Hub (HTTP on loopback), on PGlite and on a real PostgreSQL: a manager's
// approval code redeemed once by a counter of its branch (used, expired, other branch, guessing
// throttled; each audited); a cancel synced from a counter's journal frees its sold seats on every
// counter's map (the show's streams told) and records its refunds owed; a counter cannot cancel
// another counter's sale; a card refund owed ages on Refunds and Needs attention until it is
// recorded returned; complaint cases flagged at 48 h and overdue at 72 h. Ages are read with the
// Hub's injectable clock (hub.clock.offsetMs), never by waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubSeatMap, SeatHoldResponse } from '../../../shared/hub-seats-contract';
import type { AttentionView, TodayView } from '../../../shared/hub-dashboard-contract';
import type { CasesView, IssuedApprovalCode, RefundsView } from '../../../shared/hub-refunds-contract';
import { showKey } from '../../../shared/programme';
import { openHubDb } from '../../../hub/db/open';
import { createManager } from '../../../hub/store/managers';
import { CounterJournal, Manager } from '../helpers/dashboard-client';
import { bearer, enroll, get, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { programmeWithSeatMap, SEAT_SHOW, soldInJournal } from '../helpers/seat-show';
import { RelayClient } from '../helpers/sse-client';

if (pgUnavailable) console.log(`after the sale on real PostgreSQL skipped: ${pgUnavailable}`);

const KEY = showKey(SEAT_SHOW);
const PW = 'manager password 1';
const H = 3_600_000;
type Backend = { name: string; skip: string | null; url: () => Promise<string | null> };
let cluster: PgCluster | null = null;
const backends: Backend[] = [
  { name: 'PGlite', skip: null, url: async () => null },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    url: async () => {
      cluster = await startPgCluster();
      return cluster.createDatabase('aftersale');
    },
  },
];

describe.each(backends)('after the sale on $name', (b) => {
  let hub: TestHub;
  const cred: Record<string, string> = {};
  const journals: Record<string, CounterJournal> = {};
  const streams: RelayClient[] = [];
  let M1: Manager;
  let HO: Manager;
  let n = 0;
  const ref = (who: 'c1' | 'c2') => `${{ c1: 'COU1', c2: 'COU2' }[who]}-261207-${String(++n).padStart(4, '0')}`;

  beforeAll(async () => {
    if (b.skip) return;
    const db = await openHubDb({ databaseUrl: await b.url(), dataDir: null });
    hub = await startTestHub({ db, seatSweepMs: 3_600_000 });
    for (const [name, role, branch] of [
      ['HO', 'head-office', null],
      ['M1', 'branch', 'B1'],
    ] as const)
      await createManager(hub.db, { name, password: PW, role, branch }, hub.ctx.now());
    for (const [k, name, branch] of [
      ['c1', 'Counter 1', 'B1'],
      ['c2', 'Counter 2', 'B1'],
      ['c3', 'Counter 3', 'B1'],
      ['z1', 'Zed 1', 'B2'],
    ] as const) {
      cred[k] = (await enroll(hub, name, branch)).credential;
      journals[k] = new CounterJournal(hub.url, cred[k]!);
    }
    await programmeWithSeatMap(hub.db, 'B1');
    M1 = new Manager(hub.url);
    HO = new Manager(hub.url);
    expect((await M1.login('M1', PW)).status).toBe(200);
    expect((await HO.login('HO', PW)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) await s.disconnect();
    await hub?.stop();
    await hub?.db.close().catch(() => undefined);
    cluster?.stop();
    cluster = null;
  });

  const issue = async (m: Manager = M1, body: unknown = {}) => {
    const r = await m.post('/approval-codes', body);
    expect(r.status, r.text).toBe(200);
    return r.json as unknown as IssuedApprovalCode;
  };
  const redeem = (who: string, code: string, what = 'cancel COU1-261207-0001 seat A1') =>
    post(`${hub.url}/api/v1/approvals/redeem`, { code, what }, bearer(cred[who]!));
  const audit = async (action: string) =>
    (
      await hub.db.query<{ actor_name: string; target: string; detail: string }>(
        'select actor_name, target, detail from manager_audit where action = $1 order by id',
        [action],
      )
    ).map((r) => `${r.actor_name}|${r.detail}`);
  const map = async (who: string) => {
    const r = await get(`${hub.url}/api/v1/seats/map?showKey=${encodeURIComponent(KEY)}`, bearer(cred[who]!));
    expect(r.status).toBe(200);
    return (r.json as unknown as HubSeatMap).taken.map((t) => `${t.seat}:${t.state}`).sort();
  };
  const hold = async (who: string, orderKey: string, seats: string[]) => {
    const r = await post(
      `${hub.url}/api/v1/seats/hold`,
      { orderKey, show: SEAT_SHOW, seats, practice: false, holdMs: 120_000 },
      bearer(cred[who]!),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return (r.json as unknown as SeatHoldResponse).kind;
  };
  const cancel = (
    j: CounterJournal,
    reference: string,
    seats: string[],
    refunds: { refundNo: string; tender: 'cash' | 'card'; amountKobo: number }[],
    at = hub.ctx.now(),
  ) =>
    j.ev('order.cancelled', at, {
      reference,
      kind: 'cancel',
      seats,
      refunds,
      reason: 'customer-request',
      approvedBy: 'M1',
      approvedHow: 'code',
    });
  /** Moves the Hub's clock on, and signs the managers in again (a session idles out over days). */
  const later = async (ms: number) => {
    hub.clock.offsetMs += ms;
    expect((await M1.login('M1', PW)).status).toBe(200);
    expect((await HO.login('HO', PW)).status).toBe(200);
  };

  it.skipIf(!!b.skip)(
    'an approval code is shown once as ABCD-2345, redeemed once by a counter of its branch, the second use refused; all audited',
    async () => {
      const c = await issue();
      expect(c.code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
      expect(c.expiresAt - c.issuedAt).toBe(15 * 60_000);
      expect(c).toMatchObject({ branch: 'B1', issuedBy: 'M1' });
      // Only its hash is kept.
      const stored = await hub.db.query<{ code_hash: string }>('select code_hash from approval_codes');
      expect(JSON.stringify(stored)).not.toContain(c.code.replace('-', ''));
      // Typed without the dash, in lower case: the same code.
      const r = await redeem('c1', c.code.replace('-', '').toLowerCase());
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.json).toEqual({ by: 'M1' });
      const again = await redeem('c2', c.code);
      expect(again.status).toBe(403);
      expect(again.json).toMatchObject({ code: 'HUB_APPROVAL_REFUSED', details: { reason: 'used' } });
      expect(String(again.json.message)).toContain('already used');
      expect(await audit('approval.code-issued')).toEqual(['M1|valid 15 minutes']);
      expect(await audit('approval.redeemed')).toEqual(['Counter 1|issued by M1, for cancel COU1-261207-0001 seat A1']);
      expect(await audit('approval.refused')).toEqual(['Counter 2|used, for cancel COU1-261207-0001 seat A1']);
    },
  );

  it.skipIf(!!b.skip)('an approval code expires after 15 minutes (the Hub clock)', async () => {
    const c = await issue();
    hub.clock.offsetMs += 15 * 60_000;
    try {
      const r = await redeem('c1', c.code);
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ details: { reason: 'expired' } });
    } finally {
      hub.clock.offsetMs -= 15 * 60_000;
    }
    // Back within its 15 minutes the same code is good: a try after it lapsed took nothing.
    expect((await redeem('c1', c.code)).json).toEqual({ by: 'M1' });
  });

  it.skipIf(!!b.skip)(
    "a code is for one branch: another branch's counter is refused; a branch manager issues only for their own",
    async () => {
      const c = await issue();
      const r = await redeem('z1', c.code);
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ details: { reason: 'other-branch' } });
      expect((await M1.post('/approval-codes', { branch: 'B2' })).status).toBe(403);
      expect((await HO.post('/approval-codes', {})).status).toBe(400);
      expect((await issue(HO, { branch: 'B2' })).branch).toBe('B2');
      // The code refused at Zed 1 is still good at its own branch.
      expect((await redeem('c2', c.code)).json).toEqual({ by: 'M1' });
    },
  );

  it.skipIf(!!b.skip)(
    'guessing is throttled: after 3 unknown codes the counter waits, even with a right code, until the wait is over',
    async () => {
      for (const g of ['AAAA-2222', 'BBBB-3333', 'CCCC-4444']) {
        const r = await redeem('c3', g);
        expect(r.status).toBe(403);
        expect(r.json).toMatchObject({ details: { reason: 'unknown' } });
      }
      const right = await issue();
      const r = await redeem('c3', right.code);
      expect(r.status).toBe(429);
      expect(r.json).toMatchObject({ code: 'HUB_RATE_LIMITED' });
      const wait = Number((r.json.details as { retryAfterMs: number }).retryAfterMs);
      expect(wait).toBeGreaterThan(0);
      // Another counter is not held up by it.
      expect((await redeem('c2', (await issue()).code)).status).toBe(200);
      hub.clock.offsetMs += wait;
      try {
        expect((await redeem('c3', right.code)).json).toEqual({ by: 'M1' });
      } finally {
        hub.clock.offsetMs -= wait;
      }
      expect((await audit('approval.refused')).filter((a) => a.startsWith('Counter 3|unknown'))).toHaveLength(3);
    },
  );

  it.skipIf(!!b.skip)(
    "a cancel synced frees its sold seats on every counter's map (the show's streams told); its other seats stay sold",
    async () => {
      const s2 = new RelayClient(hub.url, cred.c2!);
      streams.push(s2);
      await s2.connect();
      const sale = ref('c1');
      expect(await hold('c1', sale, ['A1', 'A2'])).toBe('held');
      await journals.c1!.sync(soldInJournal(journals.c1!, sale, ['A1', 'A2'], 'paid'));
      // A sale made while the Hub was unreachable (no hold): its seats are taken through the order.
      const offline = ref('c1');
      await journals.c1!.sync(soldInJournal(journals.c1!, offline, ['A5'], 'paid'));
      expect((await map('c2')).filter((s) => /^A\d/.test(s))).toEqual(['A1:sold', 'A2:sold', 'A5:sold']);
      const told = s2.events.filter((e) => e.event === 'seats').length;
      await journals.c1!.sync([
        cancel(journals.c1!, sale, ['A1'], [{ refundNo: 'R0001', tender: 'card', amountKobo: 450_000 }]),
        cancel(journals.c1!, offline, ['A5'], [{ refundNo: 'R0002', tender: 'cash', amountKobo: 450_000 }]),
      ]);
      await s2.until(() => s2.events.filter((e) => e.event === 'seats' && e.data.includes(KEY)).length > told);
      expect((await map('c2')).filter((s) => /^A\d/.test(s))).toEqual(['A2:sold']);
      // The freed seats may be sold again; the one still sold may not.
      expect(await hold('c2', ref('c2'), ['A1', 'A5'])).toBe('held');
      expect(
        (
          await post(
            `${hub.url}/api/v1/seats/hold`,
            { orderKey: ref('c2'), show: SEAT_SHOW, seats: ['A2'], practice: false, holdMs: 120_000 },
            bearer(cred.c2!),
          )
        ).json,
      ).toMatchObject({ kind: 'taken' });
      // A repeated paid status of the cancelled sale does not sell its cancelled seat again.
      await journals.c1!.sync([journals.c1!.ev('order.status', hub.ctx.now(), { reference: sale, status: 'paid' })]);
      expect((await map('c3')).filter((s) => s.startsWith('A1:'))).toEqual(['A1:held']);
      // The order's history on the dashboard says what was cancelled and who approved it.
      const id = (await hub.db.query<{ id: unknown }>('select id from dash_orders where reference = $1', [sale]))[0]!
        .id;
      const d = await M1.get(`/orders/${String(id)}`);
      expect(d.text).toContain('cancelled seats A1; refunds owed R0001 card 450000 kobo');
    },
  );

  it.skipIf(!!b.skip)(
    "a counter cannot cancel another counter's sale: its seats stay sold, nothing is owed",
    async () => {
      const sale = ref('c1');
      // A reference that carries no counter's code (a batch file's own): only its counter's journal may cancel it.
      const plain = 'FILE-7781';
      await journals.c1!.sync(soldInJournal(journals.c1!, sale, ['B7'], 'paid'));
      await journals.c1!.sync(soldInJournal(journals.c1!, plain, ['B8'], 'paid'));
      expect(await map('c3')).toEqual(expect.arrayContaining(['B7:sold', 'B8:sold']));
      await journals.c2!.sync([
        cancel(journals.c2!, sale, ['B7'], [{ refundNo: 'R0009', tender: 'card', amountKobo: 450_000 }]),
        cancel(journals.c2!, plain, ['B8'], [{ refundNo: 'R0010', tender: 'card', amountKobo: 450_000 }]),
        journals.c2!.ev('refund.returned', hub.ctx.now(), {
          refundNo: 'R0001',
          reference: sale,
          how: 'bank-transfer',
          returnReference: 'TRF-1',
          by: 'Ada',
        }),
      ]);
      expect(await map('c3')).toEqual(expect.arrayContaining(['B7:sold', 'B8:sold']));
      const refunds = (await M1.get('/refunds')).json as unknown as RefundsView;
      expect([...refunds.owed, ...refunds.returned].map((r) => r.refundNo)).not.toContain('R0009');
      expect([...refunds.owed, ...refunds.returned].map((r) => r.refundNo)).not.toContain('R0010');
      // Refused as any other claim of another counter's reference: kept for Needs attention.
      const att = (await M1.get('/attention')).json as unknown as AttentionView;
      expect(att.lines.some((l) => l.kind === 'claim-refused' && l.subject.includes(sale))).toBe(true);
    },
  );

  it.skipIf(!!b.skip)(
    'a card refund owed ages on Refunds and Needs attention until recorded returned; cash is paid at once; Today has the figures',
    async () => {
      const owed = () => M1.get('/refunds').then((r) => r.json as unknown as RefundsView);
      let v = await owed();
      expect(v.owed.map((r) => [r.refundNo, r.tender, r.amountKobo])).toEqual([['R0001', 'card', 450_000]]);
      expect(v.returned.map((r) => [r.refundNo, r.returned?.how])).toEqual([['R0002', 'cash']]);
      expect(v.paidByTender).toEqual({ cash: { count: 1, amountKobo: 450_000 }, card: { count: 0, amountKobo: 0 } });
      const t0 = (await owed()).owed[0]!.ageMs;
      await later(5 * H);
      v = await owed();
      expect(v.owed[0]!.ageMs).toBeGreaterThanOrEqual(t0 + 5 * H);
      expect(v.owedByBranch).toEqual([expect.objectContaining({ branch: 'B1', count: 1, amountKobo: 450_000 })]);
      const att = (await M1.get('/attention')).json as unknown as AttentionView;
      const line = att.lines.find((l) => l.kind === 'card-refund-owed');
      expect(line?.subject).toMatch(/Card refund R0001 of .*4,500\.00 owed for 5 h/);
      let today = (await M1.get('/today')).json as unknown as TodayView;
      expect(today.afterSale).toMatchObject({ owedCount: 1, owedKobo: 450_000 });
      const sale = v.owed[0]!.reference;
      await journals.c1!.sync([
        journals.c1!.ev('refund.returned', hub.ctx.now(), {
          refundNo: 'R0001',
          reference: sale,
          how: 'provider-reversal',
          returnReference: 'REV-77',
          by: 'Ada',
        }),
      ]);
      v = await owed();
      expect(v.owed).toEqual([]);
      expect(v.returned[0]).toMatchObject({
        refundNo: 'R0001',
        returned: { how: 'provider-reversal', reference: 'REV-77', by: 'Ada' },
      });
      expect(v.paidByTender.card).toEqual({ count: 1, amountKobo: 450_000 });
      expect(((await M1.get('/attention')).json as unknown as AttentionView).lines.map((l) => l.kind)).not.toContain(
        'card-refund-owed',
      );
      today = (await M1.get('/today')).json as unknown as TodayView;
      expect(today.afterSale).toMatchObject({ owedCount: 0, owedKobo: 0, paidCardCount: 1, paidCardKobo: 450_000 });
      // Another branch's manager sees none of it.
      expect(((await HO.get('/refunds?branch=B2')).json as unknown as RefundsView).returned).toEqual([]);
    },
  );

  it.skipIf(!!b.skip)(
    'complaint cases: open at first, flagged at 48 h, overdue at 72 h, gone once resolved',
    async () => {
      const opened = hub.ctx.now();
      await journals.c1!.sync([
        journals.c1!.ev('case.opened', opened, {
          caseNo: 'COU1-C0001',
          openedBy: 'Ada',
          amountKobo: 900_000,
          last4: '4242',
          truth: 'not-paid',
        }),
      ]);
      // A case opened on a counter in Demo is practice: in no view.
      await journals.c3!.sync([journals.c3!.ev('case.opened', opened, { caseNo: 'COU3-C0001', openedBy: 'Trainee' })], {
        profile: 'demo',
      });
      const cases = () => M1.get('/cases').then((r) => r.json as unknown as CasesView);
      const kinds = async () =>
        ((await M1.get('/attention')).json as unknown as AttentionView).lines
          .map((l) => l.kind)
          .filter((k) => k.startsWith('case-'));
      expect((await cases()).open.map((c) => [c.caseNo, c.age])).toEqual([['COU1-C0001', 'fresh']]);
      expect(await kinds()).toEqual([]);
      const step = async (to: number) => later(opened + to - hub.ctx.now());
      await step(47 * H);
      expect((await cases()).open[0]!.age).toBe('fresh');
      await step(48 * H);
      expect((await cases()).open[0]!.age).toBe('flagged');
      expect(await kinds()).toEqual(['case-flagged']);
      await step(72 * H);
      const v = await cases();
      expect(v.open[0]!.age).toBe('overdue');
      expect(v.openByBranch).toEqual([{ branch: 'B1', open: 1, flagged: 0, overdue: 1, oldestAt: opened }]);
      expect(await kinds()).toEqual(['case-overdue']);
      expect(((await M1.get('/today')).json as unknown as TodayView).afterSale).toMatchObject({
        openCases: 1,
        overdueCases: 1,
      });
      await journals.c1!.sync([
        journals.c1!.ev('case.resolved', hub.ctx.now(), { caseNo: 'COU1-C0001', resolution: 'not-debited', by: 'Ada' }),
      ]);
      const after = await cases();
      expect(after.open).toEqual([]);
      expect(after.resolved[0]).toMatchObject({ caseNo: 'COU1-C0001', resolution: 'not-debited', resolvedBy: 'Ada' });
      expect(await kinds()).toEqual([]);
    },
  );
});
