// The chaos run: many sales through random provider faults, provider outages, duplicate, late and
// stale webhooks, and SIGKILLs of the app process; then every sale must be final, once, and agree
// with the provider. Choices (sales, taps, kills, faults) follow the seed; timings do not.
// The provider also takes some payments after the app closed the order (the lateSuccess fault):
// each must end on the order and in the shift totals (by webhook, or by the app's sweep).
// Then the box-office part (integration-chaos.ts): charges through the integration API, retried
// at random through counter kills and provider faults.
// Half the sales are baskets (test/helpers/chaos-basket.ts: ticket types, concessions and combos with
// counted stock, card, cash or split): the drawer's cash and the stock taken must equal the driver's model.
// Cancels and exchanges after the sale (chaos-cancels.ts): the driver cancels seats of paid sales, or
// exchanges them for seats of another show (a higher price paid in cash), with the admin PIN, some
// while the app is killed, and sells some freed seats again; the journal's refunds owed, seats,
// exchanges and outbox events must match (undo-verdict.ts).
// Last line: "sales=<n> providerOrders=<n> duplicates=<n> lost=<n> notFinal=<n> drawerMismatch=<n>
// stockMismatch=<n> lateFound=<n> lateMissed=<n> cancels=<n> exchanges=<n> refundLost=<n>
// seatAfterCancelSold=<n> cancelPartial=<n> integrationDuplicates=<n> integrationLost=<n>"; exit 1
// unless all but sales, providerOrders, lateFound, cancels and exchanges are 0.
// Usage: tsx test/chaos/chaos.ts [--sales N] [--seed S] [--kills K] [--expire SEC] [--terminals T] [--gap-ms MS]
//        [--outages N] [--fault-scale F] [--keep] [--integration-only]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFinalState, type OrderState } from '../../shared/orders';
import { OrderJournalReads } from '../../core/orders';
import type { OrderSnapshot } from '../helpers/chaos-protocol';
import { createRng } from '../helpers/chaos-random';
import { AppProcess } from './app-process';
import { OutageProxy } from './outage-proxy';
import { chaosTuning, DEFAULT_CHAOS_OPTIONS, randomSale, startChaosSandbox, type ChaosOptions } from './chaos-setup';
import {
  basketVerdict,
  chaosLine,
  chaosVerdict,
  type BasketModel,
  type ChaosVerdict,
  type JournalRow,
} from './chaos-verdict';
import { CHAOS_STOCK, modelCash, modelTaken, randomBasket } from '../helpers/chaos-basket';
import type { BasketSaleInput } from '../../shared/basket-sale';
import type { SaleInput } from '../../shared/orders';
import { splitSeats } from '../../shared/seat-list';
import { TerminalSimulator } from './terminal-simulator';
import { runIntegrationChaos } from './integration-chaos';
import { ChaosCancels } from './chaos-cancels';
import { readUndoJournal } from './undo-journal';
import { undoLine, undoVerdict, type UndoVerdict } from './undo-verdict';

export interface ChaosReport extends ChaosVerdict {
  /** The cancels' verdict (undo-verdict.ts). */
  undo: UndoVerdict;
  /** The run's temp dir (journal, app log): kept when the run fails or with --keep. */
  dir: string;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runChaos(o: ChaosOptions, print: (line: string) => void = () => {}): Promise<ChaosReport> {
  const started = Date.now();
  const rng = createRng(o.seed);
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-chaos-'));
  const dbFile = join(dir, 'journal.sqlite');
  const cs = await startChaosSandbox(o);
  const { sandbox } = cs;
  // The app reaches the provider through a proxy that the run can take down.
  const proxy = await OutageProxy.start({ host: '127.0.0.1', port: sandbox.port });
  const viaProxy = `http://127.0.0.1:${proxy.port}`;
  const tuning = chaosTuning(o.expireSeconds);
  const graceMs = tuning.poll?.graceMs ?? 0;

  const faults = new Map<string, number>();
  sandbox.events.on('fault', (f) => faults.set(f.kind, (faults.get(f.kind) ?? 0) + 1));
  let webhookAttempts = 0;
  sandbox.events.on('webhook-attempt', () => (webhookAttempts += 1));

  // What the app has told us of its journal (events, and a full snapshot at each start).
  const appView = new Map<string, OrderState>();
  /** Sales the provider paid after closing them (the sandbox says so), and those the app has recorded as such. */
  const paidLate = new Set<string>();
  const appLate = new Set<string>();
  sandbox.events.on('pos-order-late', (o, was) => {
    if (o.status === 'SUCCESS' && was !== 'SUCCESS') paidLate.add(o.outOrderNo);
    checkDone();
  });
  const acked = new Set<string>();
  /** The driver's model of each acknowledged basket: its cash in the drawer and the items it takes when paid. */
  const models = new Map<string, BasketModel>();
  let checkDone = () => {};
  const app = new AppProcess(
    {
      dbFile,
      logFile: join(dir, 'app.log'),
      provider: { ...cs.provider, posBaseUrl: viaProxy, billsBaseUrl: `${viaProxy}/api/v3` },
      tuning,
      seed: o.seed,
      settings: {
        counterName: 'Chaos 1',
        headMerchantId: cs.merchant.headMerchantId,
        merchantId: cs.merchant.merchantId,
        orderExpireSeconds: o.expireSeconds,
      },
    },
    dir,
    {
      order: (s: OrderSnapshot) => {
        appView.set(s.outOrderNo, s.state);
        if (s.late === 'paid-after-closing') appLate.add(s.outOrderNo);
        checkDone();
      },
      ready: (_url, orders) => {
        for (const s of orders) {
          appView.set(s.outOrderNo, s.state);
          if (s.late === 'paid-after-closing') appLate.add(s.outOrderNo);
        }
      },
    },
  );
  const sim = new TerminalSimulator(sandbox, {
    rng: rng.fork('terminals'),
    maxTapMs: Math.max(1_000, o.expireSeconds * 1000 * 0.25),
    lateWebhookMs: 6_000,
    onActivity: () => checkDone(),
  });
  sandbox.events.on('pos-order-settled', () => checkDone());

  const startApp = async () => {
    const url = await app.start();
    sandbox.setWebhookUrl(cs.merchant.headMerchantId, url);
  };

  let verdict: ChaosVerdict | null = null;
  let undo: UndoVerdict | null = null;
  const cancels = new ChaosCancels(rng.fork('cancels'), cs.terminals);
  const cancelRng = rng.fork('cancel-moments');
  try {
    await startApp();
    // ---- the sales, with kills at seeded moments ----
    const saleRng = rng.fork('sales');
    const killRng = rng.fork('kills');
    // A quarter of the kills come after the last sale, while orders are still being followed.
    const settleKills = Math.floor(o.kills / 4);
    const killAt = new Set<number>();
    while (killAt.size < Math.min(o.kills - settleKills, Math.max(0, o.sales - 1)))
      killAt.add(killRng.int(1, o.sales - 1));
    let refused = 0;
    let unanswered = 0;
    const tally = (r: Awaited<ReturnType<AppProcess['sell']>>, sale: SaleInput | BasketSaleInput) => {
      if (r.kind === 'acked') {
        acked.add(r.outOrderNo);
        cancels.noteSale(r.id, r.outOrderNo, sale);
        if ('tender' in sale) models.set(r.outOrderNo, { cashKobo: modelCash(sale), taken: modelTaken(sale) });
      } else if (r.kind === 'refused') refused += 1;
      else unanswered += 1;
    };
    // Outages at seeded moments while the sales go on.
    const outageRng = rng.fork('outages');
    const salesSpanMs = o.sales * o.gapMs;
    const outages = (async () => {
      const starts = Array.from({ length: o.outages }, () => outageRng.int(0, salesSpanMs)).sort((a, b) => a - b);
      let at = 0;
      const expireMs = o.expireSeconds * 1000;
      for (const [k, start] of starts.entries()) {
        await pause(Math.max(0, start - at));
        // The last one outlasts the useful life of the sales queued at its start: they expire unsent.
        const lasts =
          k < starts.length - 1
            ? outageRng.int(1_000, 6_000)
            : outageRng.int(expireMs - (tuning.minUsefulMs ?? 0) + 1_000, expireMs + 2_000);
        await proxy.down();
        print(`provider unreachable for ${lasts} ms`);
        await pause(lasts);
        await proxy.up();
        at = start + lasts;
      }
    })();
    for (let i = 0; i < o.sales; i++) {
      await pause(Math.min(o.gapMs * 6, -Math.log(1 - saleRng.next()) * o.gapMs));
      // Half the sales are baskets: ticket types, concessions and combos, card, cash or split.
      const one = randomSale(saleRng, cs.terminals);
      const basket = saleRng.chance(0.5);
      const sale =
        cancels.nextResell() ??
        (basket ? randomBasket(saleRng, { ...one, seats: splitSeats(one.seats) }, one.sn) : one);
      if (killAt.has(i) && cancels.canCancel(appView) && killRng.chance(0.4)) {
        // A kill while a cancel or an exchange is being approved or committed: all of it in the journal, or nothing.
        const answer = killRng.chance(0.5) ? cancels.start(app, appView) : cancels.startExchange(app, appView);
        await pause(killRng.int(0, 120));
        await app.kill();
        await answer;
        print(`kill ${app.generation} before sale ${i + 1} (mid-cancel)`);
        await startApp();
      } else if (killAt.has(i)) {
        // Half the kills land while this sale is being sent, half at a random moment in between.
        const midSale = killRng.chance(0.5);
        const answer = midSale ? app.sell(sale).then((r) => tally(r, sale)) : Promise.resolve();
        await pause(midSale ? killRng.int(0, 25) : killRng.int(0, 300));
        await app.kill();
        await answer;
        print(`kill ${app.generation} before sale ${i + 1}${midSale ? ' (mid-sale)' : ''}`);
        await startApp();
        if (midSale) continue;
      }
      tally(await app.sell(sale), sale);
      const after = cancelRng.next();
      if (after < 0.1) await cancels.start(app, appView);
      else if (after < 0.2) await cancels.startExchange(app, appView);
    }
    await outages;
    print(
      `${o.sales} sales sent in ${((Date.now() - started) / 1000).toFixed(1)} s: ${acked.size} acknowledged, ${refused} refused, ${unanswered} unanswered (killed)`,
    );
    // A few more cancels once the sales are sent (a small run has few paid sales during them).
    for (let k = 0; k < Math.max(3, Math.ceil(o.sales / 40)); k++) {
      await cancels.startExchange(app, appView);
      await cancels.start(app, appView);
    }
    print(cancels.summary());
    for (let k = 0; k < settleKills; k++) {
      await pause(killRng.int(200, Math.max(300, (o.expireSeconds * 600) / settleKills)));
      await app.kill();
      print(`kill ${app.generation} after the last sale`);
      await startApp();
    }

    // ---- wait until every sale is final (bounded) ----
    const deadlineMs = o.expireSeconds * 1000 + graceMs + 30_000;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        print(`gave up waiting after ${deadlineMs} ms`);
        resolve();
      }, deadlineMs);
      checkDone = () => {
        const appFinal = [...appView.values()].every(isFinalState);
        const providerFinal = sandbox.listPosOrders().every((p) => p.status !== 'PENDING');
        // A payment taken after closing must reach the app (its webhook or its sweep) before the count.
        const lateKnown = [...paidLate].every((out) => appLate.has(out) || !isClosedUnpaid(appView.get(out)));
        if (appFinal && providerFinal && sim.busy === 0 && lateKnown) {
          clearTimeout(timer);
          checkDone = () => {};
          resolve();
        }
      };
      checkDone();
    });
    await sim.drained();
    sim.close();
    await app.stop();

    // ---- count ----
    const db = new Database(dbFile, { readonly: true });
    const inTotals = new Set(
      new OrderJournalReads(db as never)
        .paidAfterClosing(0, Number.MAX_SAFE_INTEGER, { excludeDemo: false })
        .items.map((i) => i.ref),
    );
    const journal = (
      db
        .prepare(
          `SELECT o.out_order_no AS outOrderNo, o.state, o.order_no AS orderNo, o.pay_no AS payNo, l.kind AS late,
             o.tender, o.cash_kobo AS cashKobo, o.basket_json AS basketJson
      FROM orders o LEFT JOIN order_late l ON l.order_id = o.id ORDER BY o.id`,
        )
        .all() as JournalRow[]
    ).map((r) => ({ ...r, inTotals: inTotals.has(r.outOrderNo) }));
    const undoJournal = readUndoJournal(db, 'Chaos 1');
    db.close();
    undo = undoVerdict(undoJournal, cancels.asked, cancels.exchanges);
    const sales = chaosVerdict(journal, sandbox.listPosOrders(), acked, paidLate);
    const baskets = basketVerdict(journal, models, Object.keys(CHAOS_STOCK));
    verdict = { ...sales, ...baskets, problems: [...sales.problems, ...baskets.problems] };
    print(`baskets: ${models.size} acknowledged (cash, split, card), the rest sales of one ticket type`);
    const states = new Map<string, number>();
    for (const r of journal) states.set(r.state, (states.get(r.state) ?? 0) + 1);
    const fates = new Map<string, number>();
    for (const f of sim.fates.values()) fates.set(f, (fates.get(f) ?? 0) + 1);
    print(
      `seed=${o.seed} kills=${app.generation - 1} outages=${o.outages} expire=${o.expireSeconds}s terminals=${o.terminals} fault-scale=${o.faultScale} time=${((Date.now() - started) / 1000).toFixed(1)}s dir=${dir}`,
    );
    print(`faults injected: ${[...faults].map(([k, n]) => `${k}=${n}`).join(' ') || 'none'}`);
    print(
      `terminal: ${[...fates].map(([k, n]) => `${k}=${n}`).join(' ')}; webhook attempts=${webhookAttempts} duplicate=${sim.counts.duplicateWebhooks} late=${sim.counts.lateWebhooks} stale=${sim.counts.staleWebhooks} redelivery-errors=${sim.counts.redeliveryErrors}`,
    );
    print(
      `journal: ${[...states].map(([k, n]) => `${k}=${n}`).join(' ')}; paid without payNo (told by webhook, which carries none)=${journal.filter((r) => r.state === 'paid' && !r.payNo).length}`,
    );
    for (const p of undo.problems.slice(0, 20)) print(`PROBLEM ${p}`);
    for (const p of verdict.problems.slice(0, 40)) print(`PROBLEM ${p}`);
    if (verdict.problems.length > 40) print(`... and ${verdict.problems.length - 40} more problems`);
    if (app.stderr.length > 0) print(`app stderr: ${app.stderr.join('').slice(-1500)}`);
    return { ...verdict, undo, dir };
  } finally {
    sim.close();
    if (app.alive) await app.kill();
    await proxy.close();
    await sandbox.close();
    const failed =
      !verdict ||
      verdict.duplicates +
        verdict.lost +
        verdict.notFinal +
        verdict.lateMissed +
        verdict.drawerMismatch +
        verdict.stockMismatch +
        (undo ? undo.refundLost + undo.seatAfterCancelSold + undo.cancelPartial : 1) >
        0;
    if (!o.keep && !failed) rmSync(dir, { recursive: true, force: true });
  }
}

function isClosedUnpaid(s: OrderState | undefined): boolean {
  return s === 'failed' || s === 'cancelled' || s === 'expired';
}

const NUMBER_FLAGS: Record<string, keyof ChaosOptions> = {
  '--sales': 'sales',
  '--seed': 'seed',
  '--kills': 'kills',
  '--expire': 'expireSeconds',
  '--terminals': 'terminals',
  '--gap-ms': 'gapMs',
  '--fault-scale': 'faultScale',
  '--outages': 'outages',
};

function parseArgs(argv: string[]): ChaosOptions {
  const o: ChaosOptions = { ...DEFAULT_CHAOS_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const key = NUMBER_FLAGS[a];
    if (a === '--keep') {
      o.keep = true;
    } else if (key) {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < 0 || (key !== 'faultScale' && !Number.isInteger(n)))
        throw new Error(`${a} needs a number`);
      Object.assign(o, { [key]: n });
    } else {
      throw new Error(`unknown option ${a} (options: ${Object.keys(NUMBER_FLAGS).join(' ')} --keep)`);
    }
  }
  return o;
}

if (require.main === module) {
  (async () => {
    const argv = process.argv.slice(2);
    const integrationOnly = argv.includes('--integration-only');
    const o = parseArgs(argv.filter((a) => a !== '--integration-only'));
    const box = (() => ({
      ...o,
      charges: Math.max(10, Math.min(40, Math.round(o.sales / 5))),
      integrationKills: Math.max(1, Math.ceil(o.kills / 2)),
    }))();
    if (integrationOnly) {
      // The box-office part alone (the sales part needs the chaos app process).
      const r = await runIntegrationChaos(box, (line) => console.log(line));
      console.log(
        `references=${r.references} integrationDuplicates=${r.integrationDuplicates} integrationLost=${r.integrationLost}`,
      );
      process.exitCode = r.integrationDuplicates + r.integrationLost === 0 ? 0 : 1;
      return;
    }
    const report = await runChaos(o, (line) => console.log(line));
    const b = await runIntegrationChaos(box, (line) => console.log(line));
    console.log(
      `${chaosLine(report)} ${undoLine(report.undo)} integrationDuplicates=${b.integrationDuplicates} integrationLost=${b.integrationLost}`,
    );
    process.exitCode =
      report.duplicates +
        report.lost +
        report.notFinal +
        report.lateMissed +
        report.drawerMismatch +
        report.stockMismatch +
        report.undo.refundLost +
        report.undo.seatAfterCancelSold +
        report.undo.cancelPartial +
        b.integrationDuplicates +
        b.integrationLost ===
      0
        ? 0
        : 1;
  })().catch((err: unknown) => {
    console.error(`chaos run could not complete: ${err instanceof Error ? err.stack : String(err)}`);
    process.exitCode = 2;
  });
}
