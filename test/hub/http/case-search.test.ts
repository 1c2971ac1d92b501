// The complaint desk's search of the branch on a real Hub (PGlite, and real PostgreSQL when it is
// installed; HTTP on loopback): a counter asks with its credential for the synced sales of its own
// branch of an amount (card part or total) in a window — newest first, bounded, never another
// branch's, practice apart, a payment after closing said so — and the counter's hub-link client
// leaves its own sales out (the desk has them from its journal).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubClient } from '../../../core/hub-link';
import { hubCaseSearch } from '../../../core/hub-link/link-case-search';
import { openHubDb } from '../../../hub/db/open';
import { HUB_CASES_MAX, HUB_CASES_SEARCH_PATH, type HubCaseSearchAnswer } from '../../../shared/hub-cases-contract';
import { CounterJournal } from '../helpers/dashboard-client';
import { bearer, enroll, post, startTestHub, type TestHub } from '../helpers/hub-harness';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

if (pgUnavailable) console.log(`the branch's case search on real PostgreSQL skipped: ${pgUnavailable}`);

const H = 3_600_000;
type Backend = { name: string; skip: string | null; open: () => Promise<{ url: string | null; dir: string | null }> };
let cluster: PgCluster | null = null;
const backends: Backend[] = [
  { name: 'PGlite', skip: null, open: async () => ({ url: null, dir: mkdtempSync(join(tmpdir(), 'hub-cases-')) }) },
  {
    name: 'PostgreSQL',
    skip: pgUnavailable,
    open: async () => {
      cluster = await startPgCluster();
      return { url: cluster.createDatabase('cases'), dir: null };
    },
  },
];

describe.each(backends)("the branch's case search on $name", (b) => {
  let hub: TestHub;
  let where: { url: string | null; dir: string | null } | null = null;
  const cred: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const journals: Record<string, CounterJournal> = {};
  let T0 = 0;
  let n = 0;
  const ref = (code: string) => `${code}-261207-${String(++n).padStart(4, '0')}`;
  const created = (j: CounterJournal, reference: string, at: number, amountKobo: number, profile = 'production') =>
    j.ev('order.created', at, {
      reference,
      amountKobo,
      sn: 'POS-1',
      profile,
      sale: {
        filmName: 'DUNE',
        filmTitle: 'Dune: Part Two',
        showDate: '2026-12-07',
        showTime: '19:30',
        seats: 'F7',
        tickets: 1,
        priceKobo: amountKobo,
        bookingFeeKobo: 0,
      },
    });
  const search = (who: string, body: unknown) =>
    post(`${hub.url}${HUB_CASES_SEARCH_PATH}`, body, bearer(cred[who]!)) as Promise<{ status: number; json: unknown }>;

  beforeAll(async () => {
    if (b.skip) return;
    where = await b.open();
    hub = await startTestHub({ db: await openHubDb({ databaseUrl: where.url, dataDir: where.dir }) });
    T0 = Date.now() - 10 * H;
    for (const [k, name, branch] of [
      ['c1', 'Counter 1', 'B1'],
      ['c2', 'Counter 2', 'B1'],
      ['z1', 'Zed 1', 'B2'],
    ] as const) {
      const e = await enroll(hub, name, branch);
      cred[k] = e.credential;
      ids[k] = e.counterId;
      journals[k] = new CounterJournal(hub.url, e.credential);
    }
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    await hub?.db.close().catch(() => undefined);
    if (where?.dir) rmSync(where.dir, { recursive: true, force: true });
    cluster?.stop();
    cluster = null;
  });

  it.skipIf(b.skip)(
    "answers its own branch's sales of the amount in the window, newest first, never another branch's",
    async () => {
      const c1 = journals.c1!;
      const c2 = journals.c2!;
      const z1 = journals.z1!;
      const mine = ref('COU1');
      const theirs = ref('COU2');
      const late = ref('COU2');
      const early = ref('COU2');
      await c1.sync([created(c1, mine, T0 + 2 * H, 400_000)]);
      await c2.sync([
        created(c2, theirs, T0 + 1 * H, 400_000),
        created(c2, late, T0 + 3 * H, 400_000),
        c2.ev('order.status', T0 + 3 * H + 60_000, { reference: late, status: 'expired' }),
        c2.ev('order.late', T0 + 3 * H + 120_000, {
          reference: late,
          kind: 'paid-after-closing',
          closedAs: 'expired',
          providerStatus: 'SUCCESS',
          amountKobo: 400_000,
          source: 'sweep',
        }),
        created(c2, early, T0 - 5 * H, 400_000),
        created(c2, ref('COU2'), T0 + 2 * H, 350_000),
        created(c2, ref('COU2'), T0 + 2 * H, 400_000, 'demo'),
      ]);
      await z1.sync([created(z1, ref('ZED1'), T0 + 2 * H, 400_000)]);

      const r = await search('c1', { amountKobo: 400_000, from: T0, to: T0 + 4 * H });
      expect(r.status).toBe(200);
      const sales = (r.json as HubCaseSearchAnswer).sales;
      expect(sales.map((s) => s.reference)).toEqual([late, mine, theirs]);
      expect(sales[0]).toMatchObject({
        counterId: ids.c2,
        counterName: 'Counter 2',
        state: 'paid-after-closing',
        amountKobo: 400_000,
        totalKobo: 400_000,
        filmTitle: 'Dune: Part Two',
        seats: 'F7',
      });
      // Practice sales answer only a practice search.
      const practice = (await search('c1', { amountKobo: 400_000, from: T0, to: T0 + 4 * H, practice: true }))
        .json as HubCaseSearchAnswer;
      expect(practice.sales).toHaveLength(1);
      // Branch B2's counter sees only its own branch.
      const other = (await search('z1', { amountKobo: 400_000, from: T0, to: T0 + 4 * H })).json as HubCaseSearchAnswer;
      expect(other.sales.map((s) => s.counterName)).toEqual(['Zed 1']);

      // The counter's client: its own sales left out (its journal has them).
      const ask = hubCaseSearch({
        connection: () => ({ url: hub.url, counterId: ids.c1!, credential: cred.c1!, branch: 'B1' }),
        client: createHubClient(),
        practice: () => false,
      })!;
      expect((await ask({ amountKobo: 400_000, from: T0, to: T0 + 4 * H })).map((s) => s.reference)).toEqual([
        late,
        theirs,
      ]);
      expect(hubCaseSearch({ connection: () => null, client: createHubClient(), practice: () => false })).toBeNull();
    },
  );

  it.skipIf(b.skip)('is bounded, and refused without a counter credential or with a window past 30 days', async () => {
    const c1 = journals.c1!;
    const at = T0 - 8 * H;
    await c1.sync(Array.from({ length: HUB_CASES_MAX + 5 }, (_, i) => created(c1, ref('COU1'), at + i, 777_700)));
    const r = (await search('c1', { amountKobo: 777_700, from: at, to: at + H })).json as HubCaseSearchAnswer;
    expect(r.sales).toHaveLength(HUB_CASES_MAX);
    expect(r.sales[0]!.createdAt).toBe(at + HUB_CASES_MAX + 4);
    expect((await search('c1', { amountKobo: 777_700, from: 0, to: 31 * 24 * H })).status).toBe(400);
    expect((await search('c1', { amountKobo: 0, from: at, to: at + H })).status).toBe(400);
    expect((await post(`${hub.url}${HUB_CASES_SEARCH_PATH}`, { amountKobo: 1, from: 0, to: 1 }, {})).status).toBe(401);
  });
});
