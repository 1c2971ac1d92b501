// Needs attention, Today and Orders for what issues 19 and 20 found missing on the Hub: paid sales
// made with no shift open (synced with no cashier) until a later Z report names them; a Hub started
// without its merchant file (one Hub-wide line, branch null, for every manager; Counters says it); a
// late payment the counter marked "refund to be arranged" is not in the takings; a paid sale the
// provider later reports otherwise is on Needs attention and on the order's row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManager } from '../../../hub/store/managers';
import type { AttentionView, OrderDetail, OrdersPage, TodayView } from '../../../shared/hub-dashboard-contract';
import { CountersViewSchema } from '../../../shared/hub-dashboard-contract';
import { lagosDate, lagosDayStart } from '../../../shared/time';
import { CounterJournal, Manager } from '../helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../helpers/hub-harness';

const PW = 'manager password 1';
const H = 3_600_000;
const MIN = 60_000;

async function managers(hub: TestHub): Promise<{ HO: Manager; M1: Manager; M2: Manager }> {
  await createManager(hub.db, { name: 'HO', password: PW, role: 'head-office', branch: null }, hub.ctx.now());
  await createManager(hub.db, { name: 'M1', password: PW, role: 'branch', branch: 'B1' }, hub.ctx.now());
  await createManager(hub.db, { name: 'M2', password: PW, role: 'branch', branch: 'B2' }, hub.ctx.now());
  const [HO, M1, M2] = [new Manager(hub.url), new Manager(hub.url), new Manager(hub.url)];
  expect((await HO.login('HO', PW)).status).toBe(200);
  expect((await M1.login('M1', PW)).status).toBe(200);
  expect((await M2.login('M2', PW)).status).toBe(200);
  return { HO, M1, M2 };
}
const linesOf = async (m: Manager, kind: string, q = '') =>
  ((await m.get(`/attention${q}`)).json as unknown as AttentionView).lines.filter((l) => l.kind === kind);

describe('Needs attention, Today and Orders: what the Hub was missing', () => {
  let hub: TestHub;
  let T0: number;
  let a1: CounterJournal;
  let z1: CounterJournal;
  let HO: Manager;
  let M1: Manager;
  let M2: Manager;

  beforeAll(async () => {
    hub = await startTestHub({});
    T0 = lagosDayStart(lagosDate(Date.now())) + 15 * H;
    hub.clock.offsetMs = T0 - Date.now();
    ({ HO, M1, M2 } = await managers(hub));
    a1 = new CounterJournal(hub.url, (await enroll(hub, 'A1', 'B1')).credential);
    z1 = new CounterJournal(hub.url, (await enroll(hub, 'Z1', 'B2')).credential);
  });
  afterAll(async () => hub?.stop());

  it('paid sales made with no shift open: one line per counter with count and ₦, until a Z report of a later shift reaches the Hub', async () => {
    const sale = (
      j: CounterJournal,
      ref: string,
      at: number,
      kobo: number,
      cashier?: string,
      status: 'paid' | 'failed' = 'paid',
      profile = 'production',
    ) => [
      j.ev('order.created', at, {
        reference: ref,
        amountKobo: kobo,
        sn: 'SN',
        profile,
        ...(cashier === undefined ? {} : { cashier }),
      }),
      j.ev('order.status', at + 1000, { reference: ref, status }),
    ];
    await a1.sync(
      [
        ...sale(a1, 'NS-1', T0 - 3 * H, 470_000),
        ...sale(a1, 'NS-2', T0 - 2 * H, 1_370_000, ''),
        ...sale(a1, 'NS-3', T0 - 2 * H + MIN, 99_900, undefined, 'failed'), // no money: not on the line
        ...sale(a1, 'NS-DEMO', T0 - 2 * H + 2 * MIN, 50_000, undefined, 'paid', 'demo'), // practice: not on the line
        ...sale(a1, 'WS-1', T0 - 2 * H + 3 * MIN, 200_000, 'Ada'), // in a shift: not on the line
      ],
      { sentAt: hub.ctx.now() },
    );
    await z1.sync(sale(z1, 'NS-Z', T0 - H, 100_000), { sentAt: hub.ctx.now() });

    const mine = await linesOf(HO, 'no-shift-sales');
    expect(mine.map((l) => [l.counterName, l.branch, l.since])).toEqual([
      ['A1', 'B1', T0 - 3 * H],
      ['Z1', 'B2', T0 - H],
    ]);
    expect(mine[0]!.subject).toBe('2 paid sales (₦18,400.00) made on A1 with no shift open: in no Z report yet');
    expect(mine[0]!.todo).toMatch(/Sales with no shift open/);
    expect((await linesOf(M2, 'no-shift-sales')).map((l) => l.counterName)).toEqual(['Z1']);
    expect((await linesOf(HO, 'no-shift-sales', '?branch=B2')).map((l) => l.counterName)).toEqual(['Z1']);

    // A Z report of a shift opened before the sales does not name them; one opened after them does.
    const z = (j: CounterJournal, at: number, from: number, shiftId: string) =>
      j.ev('zreport', at, { shiftId, reportNo: Number(shiftId), from, to: at, totalKobo: 0, count: 0, lines: [] });
    await a1.sync([z(a1, T0 - 2 * H + 30 * MIN, T0 - 4 * H, '1')], { sentAt: hub.ctx.now() });
    expect(await linesOf(HO, 'no-shift-sales')).toHaveLength(2);
    await a1.sync([z(a1, T0 - 30 * MIN, T0 - H, '2')], { sentAt: hub.ctx.now() });
    expect((await linesOf(HO, 'no-shift-sales')).map((l) => l.counterName)).toEqual(['Z1']);
  });

  it("a paid sale the provider later reports otherwise: on Needs attention (with the other amount) for 7 days, seen on the counter or not, and on the order's row", async () => {
    await a1.sync(
      [
        a1.ev('order.created', T0 - H, {
          reference: 'RO-1',
          amountKobo: 300_000,
          sn: 'SN',
          cashier: 'Ada',
          profile: 'production',
        }),
        a1.ev('order.status', T0 - H + 1000, {
          reference: 'RO-1',
          status: 'paid',
          orderNo: 'ON-RO-1',
          payNo: 'PAY-RO-1',
        }),
        a1.ev('order.created', T0 - H, {
          reference: 'RO-2',
          amountKobo: 500_000,
          sn: 'SN',
          cashier: 'Ada',
          profile: 'production',
        }),
        a1.ev('order.status', T0 - H + 1000, { reference: 'RO-2', status: 'paid' }),
      ],
      { sentAt: hub.ctx.now() },
    );
    const before = (await HO.get('/today')).json as unknown as TodayView;
    await a1.sync(
      [
        a1.ev('order.late', T0 - 50 * MIN, {
          reference: 'RO-1',
          orderNo: 'ON-RO-1',
          kind: 'reported-otherwise',
          closedAs: 'paid',
          providerStatus: 'FAIL',
          amountKobo: 300_000,
          payNo: 'PAY-RO-1',
          source: 'webhook',
        }),
        a1.ev('order.late', T0 - 40 * MIN, {
          reference: 'RO-2',
          kind: 'reported-otherwise',
          closedAs: 'paid',
          providerStatus: 'SUCCESS',
          amountKobo: 450_000,
          source: 'query',
        }),
      ],
      { sentAt: hub.ctx.now() },
    );

    const lines = await linesOf(HO, 'reported-otherwise');
    expect(lines.map((l) => [l.counterName, l.branch, l.since])).toEqual([
      ['A1', 'B1', T0 - 50 * MIN],
      ['A1', 'B1', T0 - 40 * MIN],
    ]);
    expect(lines[0]!.subject).toBe(
      'A paid sale is now reported FAIL by the provider: A1, sale RO-1 (Ada), payment PAY-RO-1',
    );
    expect(lines[1]!.subject).toBe(
      'A paid sale is now reported SUCCESS for ₦4,500.00, not the ₦5,000.00 sold by the provider: A1, sale RO-2 (Ada)',
    );
    expect(lines[0]!.todo).toBe(
      "Check the payment in the provider's dashboard: if the money did not arrive, the tickets went unpaid. It stays in the takings until you know, and on this list for 7 days.",
    );
    expect(lines[0]!.orderId).not.toBeNull();
    expect(await linesOf(M2, 'reported-otherwise')).toEqual([]);
    expect(await linesOf(HO, 'paid-after-closing')).toEqual([]);

    const page = (await HO.get('/orders?number=RO-1')).json as unknown as OrdersPage;
    expect(page.orders.map((o) => [o.reference, o.state, o.paidAfterClosingKobo, o.late])).toEqual([
      [
        'RO-1',
        'paid',
        null,
        {
          kind: 'reported-otherwise',
          providerStatus: 'FAIL',
          amountKobo: 300_000,
          at: T0 - 50 * MIN,
          payNo: 'PAY-RO-1',
          handled: null,
        },
      ],
    ]);
    const detail = (await HO.get(`/orders/${lines[0]!.orderId}`)).json as unknown as OrderDetail;
    expect(detail.order.late).toMatchObject({ kind: 'reported-otherwise', providerStatus: 'FAIL' });
    // Shown and checked, never counted out of the takings by itself (docs/late-payments.md).
    expect(((await HO.get('/today')).json as unknown as TodayView).totals.paidKobo).toBe(before.totals.paidKobo);

    // The cashier's "Seen: manager to check it" (how: refund) hands it to the manager: the line stays, saying so; nothing leaves the takings.
    await a1.sync([a1.ev('order.late.handled', T0 - 30 * MIN, { reference: 'RO-1', how: 'refund', by: 'Ada' })], {
      sentAt: hub.ctx.now(),
    });
    const seen = await linesOf(HO, 'reported-otherwise');
    expect(seen.map((l) => l.todo.endsWith(' Seen on the counter by Ada.'))).toEqual([true, false]);
    expect(((await HO.get('/today')).json as unknown as TodayView).totals).toMatchObject({
      paidKobo: before.totals.paidKobo,
      refundDueKobo: 0,
    });
    const after = (await HO.get('/orders?number=RO-1')).json as unknown as OrdersPage;
    expect(after.orders[0]!.late!.handled).toEqual({ how: 'refund', by: 'Ada', at: T0 - 30 * MIN });
    // A report more than a week old is off the list.
    const old = T0 - 7 * 24 * H - MIN;
    await a1.sync(
      [
        a1.ev('order.created', old - H, {
          reference: 'RO-OLD',
          amountKobo: 100_000,
          sn: 'SN',
          cashier: 'Ada',
          profile: 'production',
        }),
        a1.ev('order.status', old - H + 1000, { reference: 'RO-OLD', status: 'paid' }),
        a1.ev('order.late', old, {
          reference: 'RO-OLD',
          kind: 'reported-otherwise',
          closedAs: 'paid',
          providerStatus: 'FAIL',
          amountKobo: 100_000,
          source: 'sweep',
        }),
      ],
      { sentAt: hub.ctx.now() },
    );
    expect(await linesOf(HO, 'reported-otherwise')).toHaveLength(2);
  });

  it('a late payment marked "refund to be arranged" leaves the takings (money kept) and shows as to refund; "tickets given" stays in', async () => {
    const day = lagosDate(T0);
    const tally = async () => ((await HO.get(`/today?day=${day}&branch=B2`)).json as unknown as TodayView).totals;
    const late = (ref: string, at: number, kobo: number) => [
      z1.ev('order.created', at, { reference: ref, amountKobo: kobo, sn: 'SN', cashier: 'Chi', profile: 'production' }),
      z1.ev('order.status', at + 1000, { reference: ref, status: 'waiting', orderNo: `ON-${ref}` }),
      z1.ev('order.status', at + 300_000, { reference: ref, status: 'expired' }),
      z1.ev('order.late', at + 400_000, {
        reference: ref,
        orderNo: `ON-${ref}`,
        kind: 'paid-after-closing',
        closedAs: 'expired',
        providerStatus: 'SUCCESS',
        amountKobo: kobo,
        payNo: `PAY-${ref}`,
        source: 'relay',
      }),
    ];
    const start = await tally();
    await z1.sync([...late('LR-1', T0 - 2 * H, 400_000), ...late('LR-2', T0 - 2 * H, 250_000)], {
      sentAt: hub.ctx.now(),
    });
    expect(await tally()).toMatchObject({
      paidKobo: start.paidKobo + 650_000,
      paidCount: start.paidCount + 2,
      paidAfterClosingKobo: 650_000,
      paidAfterClosingCount: 2,
      refundDueKobo: 0,
      refundDueCount: 0,
    });

    await z1.sync(
      [
        z1.ev('order.late.handled', T0 - H, { reference: 'LR-1', how: 'refund', by: 'Chi', note: 'customer left' }),
        z1.ev('order.late.handled', T0 - H, { reference: 'LR-2', how: 'tickets-given', by: 'Chi' }),
      ],
      { sentAt: hub.ctx.now() },
    );
    const t = await tally();
    expect(t).toMatchObject({
      paidKobo: start.paidKobo + 250_000,
      paidCount: start.paidCount + 1,
      paidAfterClosingKobo: 250_000,
      paidAfterClosingCount: 1,
      refundDueKobo: 400_000,
      refundDueCount: 1,
    });
    // The same in every group: the branch, the counter, the cashier.
    const branch = ((await HO.get(`/today?day=${day}`)).json as unknown as TodayView).branches.find(
      (b) => b.branch === 'B2',
    )!;
    expect(branch).toMatchObject({ paidKobo: t.paidKobo, refundDueKobo: 400_000 });
    expect(branch.counters[0]!.cashiers.find((c) => c.cashier === 'Chi')).toMatchObject({
      refundDueKobo: 400_000,
      paidAfterClosingKobo: 250_000,
    });
    const row = ((await HO.get('/orders?number=LR-1')).json as unknown as OrdersPage).orders[0]!;
    expect(row.late).toMatchObject({ kind: 'paid-after-closing', handled: { how: 'refund', by: 'Chi' } });
  });

  it('a handled late outcome gives its order a new change number: the live feed shows the row again', async () => {
    const feed = await HO.live();
    await z1.sync(
      [
        z1.ev('order.created', T0 - 20 * MIN, {
          reference: 'LV-1',
          amountKobo: 100_000,
          sn: 'SN',
          cashier: 'Chi',
          profile: 'production',
        }),
        z1.ev('order.status', T0 - 19 * MIN, { reference: 'LV-1', status: 'expired' }),
      ],
      { sentAt: hub.ctx.now() },
    );
    const rowsOf = () =>
      feed.orders().map((x) => x.data as unknown as { reference: string; late: { kind: string } | null });
    await feed.until(() => rowsOf().some((o) => o.reference === 'LV-1'));
    await z1.sync(
      [
        z1.ev('order.late', T0 - 10 * MIN, {
          reference: 'LV-1',
          kind: 'paid-after-closing',
          closedAs: 'expired',
          providerStatus: 'SUCCESS',
          amountKobo: 100_000,
          source: 'sweep',
        }),
      ],
      { sentAt: hub.ctx.now() },
    );
    await feed.until(() => rowsOf().some((o) => o.late !== null));
    expect(
      rowsOf()
        .filter((o) => o.late)
        .map((o) => [o.reference, o.late!.kind]),
    ).toEqual([['LV-1', 'paid-after-closing']]);
    feed.close();
  });

  it('a Hub with its merchant file says nothing Hub-wide, and Counters says it verifies', async () => {
    expect(await linesOf(HO, 'relay-off')).toEqual([]);
    expect(CountersViewSchema.parse((await HO.get('/counters')).json).relayVerifies).toBe(true);
    expect(M1).toBeDefined();
  });
});

describe('a Hub started without its merchant file', () => {
  let hub: TestHub;
  afterAll(async () => hub?.stop());

  it('one Hub-wide line (branch null) for every manager, whatever the branch filter; Counters says relayVerifies false', async () => {
    hub = await startTestHub({ noMerchantFile: true });
    const { HO, M1, M2 } = await managers(hub);
    await enroll(hub, 'A1', 'B1');
    const ho = await linesOf(HO, 'relay-off');
    expect(ho).toHaveLength(1);
    expect(ho[0]).toMatchObject({ branch: null, counterId: null, counterName: null, orderId: null });
    expect(ho[0]!.subject).toMatch(/^The Hub is not passing on payment notifications/);
    expect(ho[0]!.todo).toMatch(/^Give the Hub the merchant file: restart it with --merchant-config FILE/);
    expect(ho[0]!.since).toBeLessThanOrEqual(hub.ctx.now());
    expect(await linesOf(HO, 'relay-off', '?branch=B1')).toHaveLength(1);
    for (const m of [M1, M2]) {
      const l = await linesOf(m, 'relay-off');
      expect(l.map((x) => [x.branch, x.since])).toEqual([[null, ho[0]!.since]]);
      expect(l[0]!.todo).toMatch(/^Tell head office/);
    }
    const counters = CountersViewSchema.parse((await M1.get('/counters')).json);
    expect(counters.relayVerifies).toBe(false);
    expect(counters.counters.map((c) => c.name)).toEqual(['A1']);
  });
});
