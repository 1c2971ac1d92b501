// The Hub chaos run: several counters (child processes: checkout + journal outbox + sync pusher +
// relay consumer, no webhook receiver of their own), one real Hub process and the provider sandbox,
// whose POS webhooks go to the Hub. Sales over the counters, with SIGKILLs of the Hub (restarted on
// the same port and database), cuts between a counter and the Hub, SIGKILLs of counters, and the
// sandbox's duplicate, late and stale notifications and seeded faults. Then every sale must be
// final, once, and agree with the provider; every counter's journal must equal the Hub's copy; and
// every notification the Hub accepted must have reached the counter that owns its order.
// Choices (sales, kills, cuts, faults) follow the seed; timings do not.
// Beside the sales, the counters race for a small screen's seats through the Hub (seat-race.ts).
// Last line: "counters=<n> sales=<n> relayed=<n> relayLost=<n> syncGaps=<n> syncDuplicates=<n> … seatsDoubleSold=<n>";
// exit 1 unless relayLost, syncGaps, syncDuplicates and seatsDoubleSold are 0, every journal equals the Hub's copy and the sale verdict is clean.
// Usage: tsx test/chaos/hub-chaos.ts [--counters N] [--sales N] [--seed S] [--hub-kills K] [--cuts K]
//        [--counter-kills K] [--expire SEC] [--terminals T] [--gap-ms MS] [--fault-scale F] [--pglite] [--keep]
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HubConnection } from '../../core/hub-link';
import { readJournal } from '../../hub/store/journal';
import { num, type HubDb } from '../../hub/db/adapter';
import { RELAY_CHANNEL } from '../../hub/store/notifications';
import { isFinalState, type OrderState } from '../../shared/orders';
import { OrderJournalReads } from '../../core/orders';
import type { HubCounterArgs, HubReport } from '../helpers/chaos-protocol';
import { createRng } from '../helpers/chaos-random';
import { AppProcess, HUB_COUNTER_CHILD, type SellResult } from './app-process';
import { startChaosHub, type ChaosHub } from './chaos-hub';
import { chaosTuning, randomSale, startChaosSandbox } from './chaos-setup';
import type { JournalRow } from './chaos-verdict';
import {
  hubChaosLine,
  hubChaosVerdict,
  type CounterFacts,
  type HubChaosVerdict,
  type JournalEvent,
} from './hub-chaos-verdict';
import { OutageProxy } from './outage-proxy';
import { SeatRace, type SeatRaceResult } from './seat-race';
import { TerminalSimulator } from './terminal-simulator';

export interface HubChaosOptions {
  counters: number;
  sales: number;
  seed: number;
  /** SIGKILLs of the Hub process (each followed by a restart on the same port and database). */
  hubKills: number;
  /** Cuts between one counter and the Hub (its proxy refuses and drops connections for 1 to 8 s). */
  cuts: number;
  /** SIGKILLs of a counter process (restarted on its journal). */
  counterKills: number;
  /** orderExpireSeconds of every sale. */
  expireSeconds: number;
  terminals: number;
  /** Mean pause between two sales (over all counters). */
  gapMs: number;
  /** Multiplies the rate of the sandbox's disruptive faults (1 = the standard chaos mix). */
  faultScale: number;
  /** Use a PGlite data folder even where PostgreSQL is installed. */
  pglite: boolean;
  keep: boolean;
}

export const DEFAULT_HUB_CHAOS_OPTIONS: HubChaosOptions = {
  counters: 4,
  sales: 200,
  seed: 1,
  hubKills: 3,
  cuts: 8,
  counterKills: 4,
  expireSeconds: 30,
  terminals: 12,
  gapMs: 200,
  faultScale: 1,
  pglite: false,
  keep: false,
};

/** The Hub's heartbeat on the relay stream (the Hub's default). */
const HEARTBEAT_MS = 1_000;

export interface HubChaosReport extends HubChaosVerdict {
  /** The seat race beside the sales (seat-race.ts). */
  seats: SeatRaceResult;
  database: string;
  /** The run's temp dir (journals, logs, the Hub's data folder): kept when the run fails or with --keep. */
  dir: string;
}

interface Counter {
  index: number;
  name: string;
  app: AppProcess<HubCounterArgs>;
  proxy: OutageProxy;
  connectionFile: string;
  dbFile: string;
  view: Map<string, OrderState>;
  acked: Set<string>;
  /** Sales this counter has recorded as paid after closing. */
  late: Set<string>;
  /** Provider order numbers this counter has in webhook_events (as it reported them). */
  recorded: Set<string>;
  hub: HubReport | null;
  /** One cut at a time per counter. */
  cutting: Promise<void>;
  /** Resolves the driver's wait for the counter's `quiesced`. */
  quiesced: () => void;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Seeded moments (sale indices) for `k` events among `sales` sales. */
function moments(rng: ReturnType<typeof createRng>, k: number, sales: number): number[] {
  return Array.from({ length: k }, () => rng.int(1, Math.max(1, sales - 1))).sort((a, b) => a - b);
}

export async function runHubChaos(
  o: HubChaosOptions,
  print: (line: string) => void = () => {},
): Promise<HubChaosReport> {
  if (o.counters < 1 || o.counters > 9) throw new Error('--counters must be 1 to 9');
  const started = Date.now();
  const rng = createRng(o.seed);
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-hub-chaos-'));
  const cs = await startChaosSandbox({
    sales: o.sales,
    seed: o.seed,
    kills: 0,
    expireSeconds: o.expireSeconds,
    terminals: o.terminals,
    gapMs: o.gapMs,
    outages: 0,
    faultScale: o.faultScale,
    keep: o.keep,
  });
  const { sandbox, merchant } = cs;
  const tuning = chaosTuning(o.expireSeconds);
  const graceMs = tuning.poll?.graceMs ?? 0;
  let hub: ChaosHub | null = null;
  const counters: Counter[] = [];
  let watchDb: HubDb | null = null;
  let sim: TerminalSimulator | null = null;
  let verdict: HubChaosVerdict | null = null;

  const faults = new Map<string, number>();
  sandbox.events.on('fault', (f) => faults.set(f.kind, (faults.get(f.kind) ?? 0) + 1));
  // Provider order numbers of which the Hub holds a notification (it answered success, or the run read its table).
  const hubAccepted = new Set<string>();
  let webhookAttempts = 0;
  let webhookRefusedOrFailed = 0;
  let checkDone = () => {};
  /** Sales the provider paid after closing them (the sandbox says so). */
  const paidLate = new Set<string>();
  sandbox.events.on('pos-order-late', (p, was) => {
    if (p.status === 'SUCCESS' && was !== 'SUCCESS') paidLate.add(p.outOrderNo);
    checkDone();
  });
  sandbox.events.on('webhook-attempt', (a) => {
    webhookAttempts += 1;
    if (a.kind === 'pos' && a.ok) hubAccepted.add(a.orderNo);
    else webhookRefusedOrFailed += 1;
    checkDone();
  });

  try {
    hub = await startChaosHub({ dir, merchant, heartbeatMs: HEARTBEAT_MS, forcePglite: o.pglite });
    const theHub = hub;
    print(`hub: ${hub.database}, listening on ${hub.url}`);
    sandbox.setWebhookUrl(merchant.headMerchantId, `${hub.url}/provider/pos-webhook`);

    // With real PostgreSQL the run also reads the Hub's notifications as they are stored (LISTEN on
    // the relay channel), so it also waits for one the provider never got an answer for.
    let recount: () => void = () => {};
    if (hub.databaseUrl) {
      const db = await hub.openDb();
      watchDb = db;
      let reading = false;
      let again = false;
      recount = () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        db.query<{ o: string }>(
          "select distinct order_no as o from notifications where kind = 'pos' and order_no is not null",
        )
          .then(
            (rows) => rows.forEach((r) => hubAccepted.add(r.o)),
            () => {},
          )
          .finally(() => {
            reading = false;
            if (again) {
              again = false;
              recount();
            } else checkDone();
          });
      };
      await db.listen(RELAY_CHANNEL, () => recount());
    }

    // ---- the counters, each enrolled with a real code and behind its own cut-able proxy ----
    for (let i = 0; i < o.counters; i++) {
      const name = `Counter ${i + 1}`;
      const proxy = await OutageProxy.start({ host: '127.0.0.1', port: hub.port });
      const connectionFile = join(dir, `counter-${i + 1}-hub.json`);
      const dbFile = join(dir, `counter-${i + 1}.sqlite`);
      const args: HubCounterArgs = {
        dbFile,
        logFile: join(dir, `counter-${i + 1}.log`),
        provider: cs.provider,
        tuning,
        seed: o.seed * 1000 + i * 100,
        settings: {
          counterName: name,
          headMerchantId: merchant.headMerchantId,
          merchantId: merchant.merchantId,
          orderExpireSeconds: o.expireSeconds,
        },
        hub: {
          url: `http://127.0.0.1:${proxy.port}`,
          counterName: name,
          branch: merchant.merchantId,
          enrollCode: await hub.issueCode(),
          connectionFile,
        },
      };
      const c: Counter = {
        index: i,
        name,
        proxy,
        connectionFile,
        dbFile,
        view: new Map(),
        acked: new Set(),
        late: new Set(),
        recorded: new Set(),
        hub: null,
        cutting: Promise.resolve(),
        quiesced: () => {},
        app: undefined as unknown as AppProcess<HubCounterArgs>,
      };
      c.app = new AppProcess<HubCounterArgs>(
        args,
        dir,
        {
          order: (s) => {
            c.view.set(s.outOrderNo, s.state);
            if (s.late === 'paid-after-closing') c.late.add(s.outOrderNo);
            checkDone();
          },
          ready: (_url, orders, m) => {
            for (const s of orders) {
              c.view.set(s.outOrderNo, s.state);
              if (s.late === 'paid-after-closing') c.late.add(s.outOrderNo);
            }
            for (const n of m.recordedOrderNos ?? []) c.recorded.add(n);
            c.hub = m.hub ?? null;
            checkDone();
          },
          other: (m) => {
            if (m.type === 'hub')
              c.hub = {
                queueLength: m.queueLength,
                outboxSeq: m.outboxSeq,
                syncState: m.syncState,
                relayHealthy: m.relayHealthy,
              };
            else if (m.type === 'relay' && m.recorded) c.recorded.add(m.orderNo);
            else if (m.type === 'quiesced') c.quiesced();
            checkDone();
          },
        },
        { path: HUB_COUNTER_CHILD, name: `counter-${i + 1}` },
      );
      counters.push(c);
    }
    await Promise.all(counters.map((c) => c.app.start()));
    print(
      `${o.counters} counters enrolled: ${counters.map((c) => `${c.name}=${(JSON.parse(readFileSync(c.connectionFile, 'utf8')) as HubConnection).counterId}`).join(' ')}`,
    );

    // The counters race for a small screen's seats through the Hub beside the sales (one try per sale).
    const seatRace = new SeatRace(
      counters.map((c) => ({ name: c.name, proxyPort: c.proxy.port })),
      rng.fork('seats'),
    );
    await seatRace.setUp(hub, merchant.merchantId);
    sim = new TerminalSimulator(sandbox, {
      rng: rng.fork('terminals'),
      maxTapMs: Math.max(1_000, o.expireSeconds * 1000 * 0.25),
      lateWebhookMs: 6_000,
      onActivity: () => checkDone(),
    });
    sandbox.events.on('pos-order-settled', () => checkDone());

    // ---- the sales, with Hub kills, cuts and counter kills at seeded moments ----
    const saleRng = rng.fork('sales');
    const hubRng = rng.fork('hub-kills');
    const cutRng = rng.fork('cuts');
    const killRng = rng.fork('counter-kills');
    // A quarter of each kind comes after the last sale, while orders are still being followed and synced.
    const late = (k: number) => Math.floor(k / 4);
    const hubKillAt = moments(hubRng, o.hubKills - late(o.hubKills), o.sales);
    const cutAt = moments(cutRng, o.cuts - late(o.cuts), o.sales);
    const killAt = moments(killRng, o.counterKills - late(o.counterKills), o.sales);
    const background = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      background.add(p);
      void p.finally(() => background.delete(p));
    };
    let hubChain: Promise<void> = Promise.resolve();
    let hubKills = 0;
    const killHub = () => {
      hubChain = hubChain.then(async () => {
        await theHub.kill();
        hubKills += 1;
        print(`hub kill ${hubKills}`);
        await theHub.start();
        recount();
        checkDone();
      });
      track(hubChain);
    };
    let cuts = 0;
    const cut = () => {
      const c = counters[cutRng.int(0, counters.length - 1)]!;
      const lasts = cutRng.int(1_000, 8_000);
      c.cutting = c.cutting.then(async () => {
        await c.proxy.down();
        cuts += 1;
        print(`cut ${c.name} from the Hub for ${lasts} ms`);
        await pause(lasts);
        await c.proxy.up();
        checkDone();
      });
      track(c.cutting);
    };
    let counterKills = 0;
    let refused = 0;
    let unanswered = 0;
    const tally = (c: Counter, r: SellResult) => {
      if (r.kind === 'acked') c.acked.add(r.outOrderNo);
      else if (r.kind === 'refused') refused += 1;
      else unanswered += 1;
    };
    const killCounter = async (c: Counter, why: string) => {
      await c.app.kill();
      counterKills += 1;
      print(`kill ${c.name} (${why})`);
      await c.app.start();
    };

    for (let i = 0; i < o.sales; i++) {
      await pause(Math.min(o.gapMs * 6, -Math.log(1 - saleRng.next()) * o.gapMs));
      hubKillAt.filter((m) => m === i).forEach(() => killHub());
      cutAt.filter((m) => m === i).forEach(() => cut());
      seatRace.step();
      const c = counters[saleRng.int(0, counters.length - 1)]!;
      const sale = randomSale(saleRng, cs.terminals);
      const kills = killAt.filter((m) => m === i).length;
      if (kills > 0) {
        // Half the kills land while this sale is being sent, half at a random moment in between.
        const midSale = killRng.chance(0.5);
        const answer = midSale ? c.app.sell(sale).then((r) => tally(c, r)) : Promise.resolve();
        await pause(midSale ? killRng.int(0, 25) : killRng.int(0, 300));
        await killCounter(c, `before sale ${i + 1}${midSale ? ', mid-sale' : ''}`);
        await answer;
        if (midSale) continue;
      }
      tally(c, await c.app.sell(sale));
    }
    const acked = counters.reduce((n, c) => n + c.acked.size, 0);
    print(
      `${o.sales} sales sent in ${((Date.now() - started) / 1000).toFixed(1)} s: ${acked} acknowledged, ${refused} refused, ${unanswered} unanswered (killed)`,
    );
    // The late quarter: while orders are still open and the journals still syncing.
    const settle = late(o.hubKills) + late(o.cuts) + late(o.counterKills);
    const lateRng = rng.fork('late');
    for (let k = 0; k < settle; k++) {
      await pause(lateRng.int(200, Math.max(300, (o.expireSeconds * 600) / settle)));
      if (k < late(o.hubKills)) killHub();
      else if (k < late(o.hubKills) + late(o.cuts)) cut();
      else await killCounter(counters[lateRng.int(0, counters.length - 1)]!, 'after the last sale');
    }
    while (background.size > 0) await Promise.allSettled([...background]);
    await seatRace.drain();

    // ---- wait until every sale is final, every outbox held and every relayed notification recorded (bounded) ----
    const deadlineMs = o.expireSeconds * 1000 + graceMs + 60_000;
    const simNow = sim;
    const waiting = (): string[] => {
      const why: string[] = [];
      const open = counters.reduce((n, c) => n + [...c.view.values()].filter((s) => !isFinalState(s)).length, 0);
      if (open) why.push(`${open} sales not final on their counter`);
      const pending = sandbox.listPosOrders().filter((p) => p.status === 'PENDING').length;
      if (pending) why.push(`${pending} provider orders pending`);
      if (simNow.busy) why.push(`${simNow.busy} notifications or taps still scheduled`);
      if (!theHub.alive) why.push('the Hub is restarting');
      for (const c of counters) {
        if (!c.app.alive) why.push(`${c.name} is not running`);
        else if (!c.hub || c.hub.queueLength > 0) why.push(`${c.name}: ${c.hub?.queueLength ?? '?'} events to sync`);
      }
      const outToCounter = new Map<string, Counter>();
      for (const c of counters) for (const out of c.view.keys()) outToCounter.set(out, c);
      const lateUnknown = [...paidLate].filter((out) => {
        const c = outToCounter.get(out);
        const s = c?.view.get(out);
        return c !== undefined && (s === 'failed' || s === 'cancelled' || s === 'expired') && !c.late.has(out);
      });
      if (lateUnknown.length)
        why.push(`${lateUnknown.length} payments after closing not yet recorded by their counter`);
      const byOrderNo = new Map(sandbox.listPosOrders().map((p) => [p.orderNo, p.outOrderNo]));
      const unrelayed = [...hubAccepted].filter((n) => {
        const owner = outToCounter.get(byOrderNo.get(n) ?? '');
        return owner !== undefined && !owner.recorded.has(n);
      });
      if (unrelayed.length)
        why.push(`${unrelayed.length} orders with a notification on the Hub not yet recorded by their counter`);
      return why;
    };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        print(`gave up waiting after ${deadlineMs} ms: ${waiting().join('; ')}`);
        checkDone = () => {};
        resolve();
      }, deadlineMs);
      checkDone = () => {
        if (waiting().length === 0) {
          clearTimeout(timer);
          checkDone = () => {};
          resolve();
        }
      };
      recount();
      checkDone();
    });
    await sim.drained();
    sim.close();

    // ---- quiesce: each checkout stops (a paid order's payment number can still arrive after it is
    // final, as one more event), then every outbox must drain to the Hub (bounded) ----
    await Promise.all(
      counters.map(
        (c) =>
          new Promise<void>((done) => {
            c.quiesced = done;
            c.app.post({ type: 'quiesce' });
          }),
      ),
    );
    await new Promise<void>((resolve) => {
      const drained = () => counters.filter((c) => !c.hub || c.hub.queueLength > 0);
      const timer = setTimeout(() => {
        print(
          `gave up waiting for the outboxes after 60000 ms: ${drained()
            .map((c) => `${c.name} ${c.hub?.queueLength ?? '?'} to sync`)
            .join(', ')}`,
        );
        checkDone = () => {};
        resolve();
      }, 60_000);
      checkDone = () => {
        if (drained().length === 0 && theHub.alive) {
          clearTimeout(timer);
          checkDone = () => {};
          resolve();
        }
      };
      checkDone();
    });

    // ---- read both sides: counters stopped cleanly, then the Hub (PGlite can be opened only then) ----
    await Promise.all(counters.map((c) => c.app.stop()));
    const facts: CounterFacts[] = counters.map((c) => {
      const db = new Database(c.dbFile, { readonly: true });
      try {
        const outbox = (
          db.prepare('SELECT seq, kind, at, payload_json AS p FROM hub_outbox ORDER BY seq').all() as {
            seq: number;
            kind: string;
            at: number;
            p: string;
          }[]
        ).map((r): JournalEvent => ({ seq: r.seq, kind: r.kind, at: r.at, payload: JSON.parse(r.p) as unknown }));
        const inTotals = new Set(
          new OrderJournalReads(db as never)
            .paidAfterClosing(0, Number.MAX_SAFE_INTEGER, { excludeDemo: false })
            .items.map((i) => i.ref),
        );
        const orders = (
          db
            .prepare(
              `SELECT o.out_order_no AS outOrderNo, o.state, o.order_no AS orderNo, o.pay_no AS payNo, l.kind AS late
          FROM orders o LEFT JOIN order_late l ON l.order_id = o.id ORDER BY o.id`,
            )
            .all() as JournalRow[]
        ).map((r) => ({ ...r, inTotals: inTotals.has(r.outOrderNo) }));
        const recorded = new Set(
          (
            db.prepare("SELECT DISTINCT order_no AS o FROM webhook_events WHERE kind = 'pos'").all() as { o: string }[]
          ).map((r) => r.o),
        );
        const conn = JSON.parse(readFileSync(c.connectionFile, 'utf8')) as HubConnection;
        return {
          name: c.name,
          counterId: conn.counterId,
          outbox,
          hub: [],
          orders,
          recordedOrderNos: recorded,
          acked: c.acked,
        };
      } finally {
        db.close();
      }
    });
    await watchDb?.close();
    watchDb = null;
    await hub.stop();
    const hubDb = await hub.openDb();
    let notifications: { id: string; orderNo: string | null }[];
    let ackedDeliveries: number;
    let deliveries: number;
    let seats: SeatRaceResult;
    try {
      for (const f of facts)
        f.hub = (await readJournal(hubDb, f.counterId)).map((e) => ({
          seq: e.seq,
          kind: e.kind,
          at: e.at,
          payload: e.payload,
        }));
      notifications = (
        await hubDb.query<{ id: unknown; order_no: string | null }>(
          "select id, order_no from notifications where kind = 'pos' order by id",
        )
      ).map((r) => ({ id: String(num(r.id)), orderNo: r.order_no }));
      seats = await seatRace.verdict(hubDb);
      const d = await hubDb.query<{ n: unknown; acked: unknown }>(
        'select count(*) as n, count(acked_at) as acked from deliveries',
      );
      deliveries = num(d[0]?.n ?? 0);
      ackedDeliveries = num(d[0]?.acked ?? 0);
    } finally {
      await hubDb.close();
    }
    const base = hubChaosVerdict(facts, { notifications, ackedDeliveries }, sandbox.listPosOrders(), paidLate);
    const problems = [...base.problems];
    if (seats.seatsDoubleSold) problems.push(`${seats.seatsDoubleSold} seats sold to two sales the Hub held`);
    if (seats.seatsLost)
      problems.push(`${seats.seatsLost} seats held and sold through the Hub are not sold in its database`);
    verdict = {
      ...base,
      seatsDoubleSold: seats.seatsDoubleSold,
      problems,
      passed: base.passed && seats.seatsDoubleSold === 0 && seats.seatsLost === 0,
    };

    const states = new Map<string, number>();
    for (const f of facts) for (const r of f.orders) states.set(r.state, (states.get(r.state) ?? 0) + 1);
    const fates = new Map<string, number>();
    for (const f of sim.fates.values()) fates.set(f, (fates.get(f) ?? 0) + 1);
    print(
      `seed=${o.seed} counters=${o.counters} hub-kills=${hubKills} cuts=${cuts} counter-kills=${counterKills} expire=${o.expireSeconds}s terminals=${o.terminals} fault-scale=${o.faultScale} time=${((Date.now() - started) / 1000).toFixed(1)}s dir=${dir}`,
    );
    print(`hub database: ${hub.database}; hub starts=${hub.starts}`);
    print(`faults injected: ${[...faults].map(([k, n]) => `${k}=${n}`).join(' ') || 'none'}`);
    print(
      `terminal: ${[...fates].map(([k, n]) => `${k}=${n}`).join(' ')}; webhook attempts=${webhookAttempts} (not accepted: ${webhookRefusedOrFailed}) duplicate=${sim.counts.duplicateWebhooks} late=${sim.counts.lateWebhooks} stale=${sim.counts.staleWebhooks} redelivery-errors=${sim.counts.redeliveryErrors}`,
    );
    print(
      `hub: ${notifications.length} notifications accepted, ${deliveries} deliveries (${ackedDeliveries} acknowledged)`,
    );
    for (const f of facts)
      print(
        `${f.name} (${f.counterId}): ${f.orders.length} sales, outbox ${f.outbox.length} events, Hub holds ${f.hub.length}, ${f.recordedOrderNos.size} orders notified`,
      );
    print(
      `journal: ${[...states].map(([k, n]) => `${k}=${n}`).join(' ')}; sale verdict: providerOrders=${verdict.sale.providerOrders} duplicates=${verdict.sale.duplicates} lost=${verdict.sale.lost} notFinal=${verdict.sale.notFinal} lateFound=${verdict.lateFound} lateMissed=${verdict.lateMissed}; journals equal: ${verdict.journalsEqual ? 'yes' : `no (mismatches=${verdict.syncMismatches})`}; sales missing from their outbox: ${verdict.outboxMissing}`,
    );
    print(
      `seats: ${seats.attempts} tries, ${seats.held} held, ${seats.taken} taken, ${seats.unchecked} without the Hub; seatsDoubleSold=${seats.seatsDoubleSold} seatsLost=${seats.seatsLost}`,
    );
    for (const p of verdict.problems.slice(0, 40)) print(`PROBLEM ${p}`);
    if (verdict.problems.length > 40) print(`... and ${verdict.problems.length - 40} more problems`);
    for (const c of counters)
      if (c.app.stderr.length > 0) print(`${c.name} stderr: ${c.app.stderr.join('').slice(-1500)}`);
    return { ...verdict, seats, database: hub.database, dir };
  } finally {
    sim?.close();
    for (const c of counters) {
      if (c.app.alive) await c.app.kill();
      await c.proxy.close();
    }
    await watchDb?.close().catch(() => {});
    if (hub && !verdict?.passed) {
      const err = hub.stderr().trim();
      if (err) print(`hub stderr (last lines): ${err.split('\n').slice(-10).join('\n')}`);
    }
    await hub?.close();
    await sandbox.close();
    if (!o.keep && verdict?.passed) rmSync(dir, { recursive: true, force: true });
  }
}

const NUMBER_FLAGS: Record<string, keyof HubChaosOptions> = {
  '--counters': 'counters',
  '--sales': 'sales',
  '--seed': 'seed',
  '--hub-kills': 'hubKills',
  '--cuts': 'cuts',
  '--counter-kills': 'counterKills',
  '--expire': 'expireSeconds',
  '--terminals': 'terminals',
  '--gap-ms': 'gapMs',
  '--fault-scale': 'faultScale',
};

export function parseHubChaosArgs(argv: string[]): HubChaosOptions {
  const o: HubChaosOptions = { ...DEFAULT_HUB_CHAOS_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const key = NUMBER_FLAGS[a];
    if (a === '--keep') o.keep = true;
    else if (a === '--pglite') o.pglite = true;
    else if (key) {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < 0 || (key !== 'faultScale' && !Number.isInteger(n)))
        throw new Error(`${a} needs a number`);
      Object.assign(o, { [key]: n });
    } else {
      throw new Error(`unknown option ${a} (options: ${Object.keys(NUMBER_FLAGS).join(' ')} --pglite --keep)`);
    }
  }
  return o;
}

if (require.main === module) {
  (async () => {
    const o = parseHubChaosArgs(process.argv.slice(2));
    const report = await runHubChaos(o, (line) => console.log(line));
    console.log(hubChaosLine(report));
    process.exitCode = report.passed ? 0 : 1;
  })().catch((err: unknown) => {
    console.error(`hub chaos run could not complete: ${err instanceof Error ? err.stack : String(err)}`);
    process.exitCode = 2;
  });
}
