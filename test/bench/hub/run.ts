// `npm run bench:hub`: the Hub's throughput and relay latency on this machine, on a throwaway real
// PostgreSQL cluster where one is installed (else PGlite, and it says so). A table with each
// target and PASS/FAIL. Not a test: exits 0 unless --strict and a target fails.
// Usage: tsx test/bench/hub/run.ts [--json FILE] [--quick] [--strict] [--dashboard [--dashboard-orders N]]
// --dashboard adds the manager's dashboard at 1,000,000 orders across 60 counters (seeding takes minutes).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoConfig, startSandbox } from '../../../sandbox';
import type { SyncEvent } from '../../../shared/hub-contract';
import { sandboxProviderConfig } from '../../helpers/sandbox-provider-config';
import { bearer, enroll, posWebhook, post, type TestMerchant } from '../../hub/helpers/hub-harness';
import { spawnHub } from '../../hub/helpers/hub-process';
import { pgUnavailable, startPgCluster, type PgCluster } from '../../hub/helpers/pg-cluster';
import { RelayClient } from '../../hub/helpers/sse-client';
import { chainBench, type ChainFigures } from './chain-bench';
import { DETECTION_COUNTER_RATE, relayDetection } from './relay-detection';
import { credFloodBench, type CredFloodFigures } from './cred-flood-bench';
import { dashboardBench, type DashboardFigures } from './dashboard-bench';
import { junkBillsBench, type JunkBillsFigures } from './junk-bills-bench';
import { dashboardSeatMap } from '../../hub/helpers/seat-show';
import { seatRaceBench, type SeatRaceFigures } from './seat-race-bench';
import { chainChecks, FLOOR_K, floorChecks, measureHubFloors, type HubFloors } from './floors';
import { percentile, round } from '../bench-stats';

interface HubFigures {
  database: string;
  webhookIngestPerSec: number;
  relayP95Ms: number;
  relayP50Ms: number;
  syncEventsPerSec: number;
  /** Sandbox -> Hub -> counter with the relay healthy: status queries per order, over its whole life. */
  pollQueriesPerOrderWithRelay: number;
  /** The customer's tap on the sandbox terminal -> the counter's journal says Paid. */
  detectionP95MsWithRelay: number;
  detectionP50MsWithRelay: number;
  detectionOrders: number;
  /** The detection counter's Hub calls per sale (syncs, its claim, relay acks), and those refused 429 for its rate. */
  hubCallsPerSale: number;
  detectionRefused: number;
  /** The dashboard (--dashboard, real PostgreSQL only): worst p95 of Today, Needs attention, Orders search at 1M orders / 60 counters. */
  dashboardP95MsAt1M: number | null;
  /** A CSV export of at least 100,000 rows, streamed (ms), with the Hub's peak RSS while streaming. */
  export100kMs: number | null;
  dashboard: DashboardFigures | null;
  /** Measured in the same run (floors.ts): the targets of ingest, relay and detection are ratios to them. */
  floors: HubFloors;
}

/** A chain's load (chain-bench.ts): relay streams held open, relay p95 and Hub RSS with 500 open, a counter's sync under an anonymous flood. */
type HubOutput = HubFigures & ChainFigures & JunkBillsFigures & CredFloodFigures & { seats: SeatRaceFigures };

interface BenchHub {
  url: string;
  merchant: TestMerchant;
  webhookUrls: { pos: string };
}

function args(argv: string[]) {
  const o = { json: null as string | null, quick: false, strict: false, dashboard: false, dashboardOrders: 1_000_000 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') o.json = argv[++i] ?? null;
    else if (argv[i] === '--dashboard') o.dashboard = true;
    else if (argv[i] === '--dashboard-orders') o.dashboardOrders = Number(argv[++i]);
    else if (argv[i] === '--quick') o.quick = true;
    else if (argv[i] === '--strict') o.strict = true;
    else
      throw new Error(
        `unknown option ${argv[i]} (options: --json FILE --quick --strict --dashboard --dashboard-orders N)`,
      );
  }
  return o;
}

async function pool<T>(items: T[], concurrency: number, fn: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < items.length) await fn(items[i++]!);
    }),
  );
}

/** Not timed: a Hub that has just started has cold code and unprepared statements on its pool's connections; a running one has neither. */
const INGEST_WARMUP = 300;

async function ingest(hub: BenchHub, n: number): Promise<number> {
  // Signing is the provider's work: done before the clock starts.
  const hooks = Array.from({ length: INGEST_WARMUP + n }, (_, i) =>
    posWebhook(hub.merchant, { tranId: `ING-${i}`, branch: 'BR-BENCH' }),
  );
  const send = async (w: (typeof hooks)[number]) => {
    const r = await fetch(hub.webhookUrls.pos, { method: 'POST', headers: w.headers, body: w.body });
    const j = (await r.json()) as { code: string };
    if (j.code !== '00000') throw new Error(`webhook refused: ${JSON.stringify(j)}`);
  };
  await pool(hooks.slice(0, INGEST_WARMUP), 32, send);
  const t0 = performance.now();
  await pool(hooks.slice(INGEST_WARMUP), 32, send);
  return n / ((performance.now() - t0) / 1000);
}

async function relayLatency(hub: BenchHub, stream: RelayClient, n: number): Promise<number[]> {
  const hooks = Array.from({ length: n }, (_, i) =>
    posWebhook(hub.merchant, { tranId: `LAT-${i}`, branch: 'BR-BENCH' }),
  );
  const out: number[] = [];
  for (const w of hooks) {
    const have = stream.notifications.length;
    const t0 = performance.now();
    await fetch(hub.webhookUrls.pos, { method: 'POST', headers: w.headers, body: w.body }).then((r) => r.text());
    await stream.until(() => stream.notifications.some((x, i) => i >= have && x.body === w.body));
    out.push(performance.now() - t0);
  }
  return out;
}

/** The counter syncs these orders first: a notification goes only to the counter that owns its order. Answers the next seq. */
async function ownOrders(hub: BenchHub, credential: string, orderNos: string[]): Promise<number> {
  for (let i = 0; i < orderNos.length; i += 500) {
    const events = orderNos.slice(i, i + 500).map((o, k) => ({
      seq: i + k + 1,
      kind: 'order.created',
      at: Date.now(),
      payload: { reference: `O-${o}`, orderNo: o, amountKobo: 250_000, sn: 'SN-1' },
    }));
    const r = await post(
      `${hub.url}/api/v1/sync`,
      { events, status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 } },
      bearer(credential),
    );
    if (r.status !== 200) throw new Error(`sync refused: ${JSON.stringify(r.json)}`);
  }
  return orderNos.length + 1;
}

async function sync(hub: BenchHub, credential: string, total: number, firstSeq = 1): Promise<number> {
  const events: SyncEvent[] = Array.from({ length: total }, (_, i) => ({
    seq: firstSeq + i,
    kind: 'order.created',
    at: Date.now(),
    payload: { reference: `S-${i + 1}`, orderNo: `P-${i + 1}`, amountKobo: 250_000, sn: 'SN-1' },
  }));
  const t0 = performance.now();
  for (let i = 0; i < total; i += 500) {
    const r = await post(
      `${hub.url}/api/v1/sync`,
      {
        events: events.slice(i, i + 500),
        status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: total - i, openPayments: 0 },
      },
      bearer(credential),
    );
    if (r.status !== 200) throw new Error(`sync refused: ${JSON.stringify(r.json)}`);
  }
  return total / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const o = args(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`bench:hub  ${s}\n`);
  const size = o.quick
    ? { ingest: 500, relay: 60, sync: 5000, detection: 20, chainSales: 100 }
    : { ingest: 3000, relay: 300, sync: 30_000, detection: 100, chainSales: 400 };
  let cluster: PgCluster | null = null;
  if (!pgUnavailable) cluster = await startPgCluster({ fsync: true });
  else log(`no real PostgreSQL (${pgUnavailable}): measuring on PGlite`);
  const databaseUrl = cluster ? cluster.createDatabase('bench') : null;
  const floors = await measureHubFloors({
    databaseUrl: cluster ? cluster.createDatabase('floor') : null,
    quick: o.quick,
    log,
  });
  const database = cluster ? 'PostgreSQL (throwaway local cluster on this machine, fsync on)' : 'PGlite (data folder)';
  // The sandbox plays the provider; the Hub gets its merchant's clientAuthKey and provider public
  // key. The load generator signs as the provider with the sandbox's keys.
  const demo = generateDemoConfig();
  const sandbox = await startSandbox(demo.config, { port: 0 });
  const provider = sandboxProviderConfig(sandbox, demo.merchant, { requestTimeoutMs: 15_000 });
  const merchant: TestMerchant = {
    clientAuthKey: demo.merchant.clientAuthKey,
    providerPublicPem: demo.merchant.providerPublicKeyPem,
    providerPrivatePem: demo.config.pos.providerPrivateKey,
    merchantPublicPem: demo.config.pos.merchants![0]!.merchantPublicKey,
    merchantPrivatePem: demo.merchant.merchantPrivateKeyPem,
  };
  // The Hub runs in its own process, as in production: the load generator does not share its event loop.
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  // The detection counter sells far faster than a real one: the Hub's per-counter rate is raised for
  // it (relay-detection.ts says why); the calls a sale costs are reported beside the figure.
  const where = databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir];
  const proc = await spawnHub([...where, '--counter-rate', String(DETECTION_COUNTER_RATE)], {
    HUB_CLIENT_AUTH_KEY: merchant.clientAuthKey,
    HUB_PROVIDER_PUBLIC_KEY: merchant.providerPublicPem,
  });
  const hub: BenchHub = { url: proc.url, merchant, webhookUrls: { pos: `${proc.url}/provider/pos-webhook` } };
  try {
    const c = await enroll(hub, 'Bench', 'BR-BENCH');
    const nextSeq = await ownOrders(hub, c.credential, [
      ...Array.from({ length: INGEST_WARMUP + size.ingest }, (_, i) => `ING-${i}`),
      ...Array.from({ length: size.relay }, (_, i) => `LAT-${i}`),
    ]);
    const stream = new RelayClient(hub.url, c.credential);
    await stream.connect();
    log(`ingest ${size.ingest} signed webhooks, 32 at a time, after ${INGEST_WARMUP} not timed ...`);
    const ingestPerSec = await ingest(hub, size.ingest);
    await stream.until(() => stream.notifications.length >= INGEST_WARMUP + size.ingest);
    log(`relay latency, ${size.relay} webhooks one by one ...`);
    const lat = await relayLatency(hub, stream, size.relay);
    log(`sync ${size.sync} events in batches of 500 ...`);
    const syncPerSec = await sync(hub, c.credential, size.sync, nextSeq);
    await stream.disconnect();
    log(`detection with the relay: ${size.detection} sales on the sandbox terminal, sandbox -> Hub -> counter ...`);
    sandbox.setWebhookUrl(demo.merchant.headMerchantId, hub.webhookUrls.pos);
    const det = await relayDetection(sandbox, provider, demo.merchant.terminalSn, hub.url, size.detection);
    const chain = await chainBench(
      { url: hub.url, merchant, posUrl: hub.webhookUrls.pos, pid: proc.child.pid! },
      { counters: 500, sales: size.chainSales, log },
    );
    const seats = await seatRaceBench({ url: hub.url }, { log, seatMap: (b, p, l) => dashboardSeatMap(proc, b, p, l) });
    const credFlood = await credFloodBench({
      database: cluster
        ? ['--database-url', cluster.createDatabase('credflood')]
        : ['--data-dir', join(dataDir, 'credflood')],
      log,
    });
    const junk = await junkBillsBench({
      databaseUrl: cluster ? cluster.createDatabase('junk') : null,
      seconds: o.quick ? 15 : 60,
      log,
    });
    let dash: DashboardFigures | null = null;
    if (o.dashboard && cluster) {
      dash = await dashboardBench(cluster.createDatabase('dashboard'), {
        orders: o.dashboardOrders,
        rounds: o.quick ? 5 : 15,
        log,
      });
    } else if (o.dashboard) log('the dashboard figures need a real PostgreSQL: not measured');
    const at = dash ? `at ${dash.orders.toLocaleString('en-US')} orders` : '';
    const f: HubOutput = {
      ...chain,
      ...junk,
      ...credFlood,
      seats,
      database,
      webhookIngestPerSec: round(ingestPerSec),
      relayP50Ms: round(percentile(lat, 50)),
      relayP95Ms: round(percentile(lat, 95)),
      syncEventsPerSec: round(syncPerSec),
      pollQueriesPerOrderWithRelay: round(det.queries.reduce((a, b) => a + b, 0) / det.queries.length),
      detectionP95MsWithRelay: round(percentile(det.lat, 95)),
      detectionP50MsWithRelay: round(percentile(det.lat, 50)),
      detectionOrders: det.lat.length,
      hubCallsPerSale: round(det.hubCallsPerSale),
      detectionRefused: det.refused,
      dashboardP95MsAt1M: dash?.dashboardP95MsAt1M ?? null,
      export100kMs: dash?.export100kMs ?? null,
      dashboard: dash,
      floors,
    };
    const checks: [string, string, string, boolean | null][] = [
      ...floorChecks(f, floors),
      [
        'journal sync',
        `${f.syncEventsPerSec.toLocaleString('en-US')} events/s`,
        '>= 5,000/s',
        f.syncEventsPerSec >= 5000,
      ],
      [
        'status queries per order with relay',
        `${f.pollQueriesPerOrderWithRelay} (max ${Math.max(...det.queries)})`,
        '<= 5',
        f.pollQueriesPerOrderWithRelay <= 5,
      ],
      [
        `the detection counter's Hub calls per sale (syncs, its claim, relay acks), refused for its rate`,
        `${f.hubCallsPerSale} a sale, ${f.detectionRefused} refused`,
        '<= 5 a sale, 0 refused',
        f.hubCallsPerSale <= 5 && f.detectionRefused === 0,
      ],
      [
        'relay streams held open at once (countersConnected)',
        `${f.countersConnected}`,
        '>= 500',
        f.countersConnected >= 500,
      ],
      ...chainChecks(f, floors),
      [
        `seats sold twice, 20 counters racing for 50 seats (seats.raceDoubleSold; ${f.seats.raceSold} sold in ${f.seats.raceTries} tries, hold p95 ${f.seats.raceHoldP95Ms} ms)`,
        `${f.seats.raceDoubleSold}`,
        '0',
        f.seats.raceDoubleSold === 0 && f.seats.raceSold === 50,
      ],
      [
        'Hub RSS with 500 streams open (hubRssMbAt500; memory: absolute)',
        `${f.hubRssMbAt500} MB`,
        '<= 400 MB',
        f.hubRssMbAt500 <= 400,
      ],
      [
        'counter sync p95 under 2,000 connections of wrong credentials (credFloodCounterP95Ms)',
        `${f.credFloodCounterP95Ms} ms = ${round(f.credFloodCounterP95Ms / f.credFloodQuietP95Ms, 1)} x ${f.credFloodQuietP95Ms} ms`,
        `<= ${FLOOR_K.anonFlood} x floor (same sync, no flood)`,
        f.credFloodCounterP95Ms <= FLOOR_K.anonFlood * f.credFloodQuietP95Ms,
      ],
      [
        `database growth, ${o.quick ? 15 : 60} s of junk bills callbacks from 10 addresses (junkBillsDbGrowthMb; real one ${f.junkBillsRealDelivered ? 'delivered' : 'LOST'})`,
        `${f.junkBillsDbGrowthMb} MB`,
        '<= 5 MB',
        f.junkBillsDbGrowthMb <= 5 && f.junkBillsRealDelivered,
      ],
      dash
        ? [
            `dashboard p95 ${at} (Today ${dash.todayP95Ms}, attention ${dash.attentionP95Ms}, search ${dash.searchP95Ms} ms)`,
            `${dash.dashboardP95MsAt1M} ms`,
            '<= 100 ms',
            dash.orders >= 1_000_000 ? dash.dashboardP95MsAt1M <= 100 : null,
          ]
        : ['dashboard p95 at 1M orders', 'not measured (--dashboard)', '<= 100 ms', null],
      dash
        ? [
            `CSV export ${dash.exportRows.toLocaleString('en-US')} rows streamed (Hub RSS ${dash.exportBaselineRssMb} -> peak ${dash.exportPeakRssMb} MB)`,
            `${dash.export100kMs} ms`,
            '<= 10,000 ms',
            dash.exportRows >= 100_000 ? dash.export100kMs <= 10_000 : null,
          ]
        : ['CSV export 100,000 rows', 'not measured (--dashboard)', '<= 10,000 ms', null],
    ];
    const rows = [
      ['target', 'value', 'wanted', ''],
      ...checks.map(([n, v, t, p]) => [n, v, t, p === null ? 'N/A' : p ? 'PASS' : 'FAIL']),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    process.stdout.write(
      `database: ${database}; machine: ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}; relay p50 ${f.relayP50Ms} ms; detection p50 ${f.detectionP50MsWithRelay} ms over ${f.detectionOrders} orders\n`,
    );
    process.stdout.write(
      rows
        .map((r) =>
          r
            .map((c2, i) => c2.padEnd(widths[i]!))
            .join('  ')
            .trimEnd(),
        )
        .join('\n') + '\n',
    );
    process.stdout.write(
      `floors (same run): loopback POST -> SSE p50 ${floors.sseRoundTripP50Ms} / p95 ${floors.sseRoundTripP95Ms} ms; with 500 streams open p95 ${floors.sseRoundTripP95MsAt500} ms; database ${floors.dbCommitsPerSec.toLocaleString('en-US')} commits/s at 32 clients; a counter's sync with no flood p95 ${f.anonFloodQuietP95Ms} ms. k: ${FLOOR_K.why}\n`,
    );
    process.stdout.write(
      'note: "with relay": the sandbox posts its webhook to the Hub, which relays it to a counter whose polling is only the safety net (trust earned by one sale before the measured ones: the relay delivered it); the one status query per order is the follow-up for the payment number.\n',
    );
    if (o.json) writeFileSync(o.json, JSON.stringify({ hub: f }, null, 2) + '\n');
    if (o.strict && checks.some(([, , , p]) => p === false)) process.exitCode = 1;
  } finally {
    await proc.kill();
    await sandbox.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  process.stderr.write(`bench:hub failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(2);
});
