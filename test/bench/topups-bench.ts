// Top-ups bench: a 10,000-row batch file. prepare10kMs = parse + check every row + sign every
// bulk-bills body (chunks of 100); settle10kMs = from "start" to every item final against the
// sandbox (small settleAfterMs, no callbacks: status polling does all the following), with the
// app's default pacing; requests10k = requests the app made to the provider for it.
// Run alone: npx tsx test/bench/topups-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../shared/clock';
import { canonicalJson, hmacSha512 } from '../../protocol/crypto';
import { openJournalDb } from '../../core/schema';
import { silentLogger } from '../../shared/logger';
import { createBillsClient } from '../../core/provider/bills-client';
import type { BillsClient } from '../../core/provider/types';
import { memoryStore } from '../../core/settings/kv-store';
import { checkBatchFile } from '../../core/topups/batch-rows';
import { createTopupService } from '../../core/topups/topup-service';
import { generateDemoConfig, startSandbox } from '../../sandbox';
import { defaultConventions } from '../../shared/settings';

const ROWS = 10_000;
const CHUNK = 100;

export interface TopupsBenchResult {
  prepare10kMs: number;
  settle10kMs: number;
  requests10k: number;
}

function tenThousandRows(): string {
  const lines = ['type,provider,customerId,amount,reference'];
  const bets = [
    ['BET9JA', '20001'],
    ['SPORTYBET', '8030000001'],
    ['NAIRABET', 'nb-30002'],
  ] as const;
  for (let i = 0; i < ROWS; i++) {
    if (i % 5 === 0) {
      const [p, c] = bets[i % 3]!;
      lines.push(`betting,${p},${c},${200 + (i % 300)},`);
    } else {
      lines.push(
        `airtime,${['MTN', 'AIR', 'GLO', 'ETI'][i % 4]},0803 ${String(1_000_000 + i).slice(-7, -4)} ${String(i).padStart(4, '0').slice(-4)},${100 + (i % 400)},`,
      );
    }
  }
  return lines.join('\r\n') + '\r\n';
}

function counting(inner: BillsClient, counter: { n: number }): BillsClient {
  return {
    bettingProviders: () => (counter.n++, inner.bettingProviders()),
    validate: (i) => (counter.n++, inner.validate(i)),
    bulkBills: (i) => (counter.n++, inner.bulkBills(i)),
    bulkStatus: (i) => (counter.n++, inner.bulkStatus(i)),
  };
}

export async function runTopupsBench(log: (s: string) => void = () => {}): Promise<TopupsBenchResult> {
  const { config, merchant: m } = generateDemoConfig();
  config.bills.settleAfterMs = 50;
  config.bills.maxBatchItems = CHUNK;
  const sandbox = await startSandbox(config, { port: 0 });
  const sink = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('{"code":"00000"}')));
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'topups-bench-'));
  const db = openJournalDb(join(dir, 'counterpay.db'));
  const cfg = {
    billsBaseUrl: sandbox.billsBaseUrl,
    posBaseUrl: sandbox.posBaseUrl,
    billsMerchantId: m.billsMerchantId,
    headMerchantId: m.headMerchantId,
    merchantId: m.merchantId,
    requestTimeoutMs: 15_000,
    conventions: defaultConventions(),
    secrets: { billsPublicKey: m.billsPublicKey, billsSecretKey: m.billsSecretKey },
  };
  const requests = { n: 0 };
  const service = createTopupService({
    db,
    store: memoryStore(),
    bills: counting(createBillsClient(cfg, { logger: silentLogger }), requests),
    logger: silentLogger,
    clock: systemClock,
    identity: () => ({ profile: 'demo', billsMerchantId: m.billsMerchantId, counterName: 'Bench 1' }),
    callBackUrl: () => `http://127.0.0.1:${(sink.address() as AddressInfo).port}/webhook/bills`,
  });
  try {
    service.start();
    const providers = await service.refreshProviders();
    const csv = tenThousandRows();

    // ---- prepare: parse + check + sign ----
    const t0 = performance.now();
    const checked = checkBatchFile(csv, {
      providers: { providers: providers.providers, missingReason: '' },
      referenceTaken: () => false,
    });
    if (checked.rows.length !== ROWS)
      throw new Error(`bench file: ${checked.errors.length} errors, first: ${JSON.stringify(checked.errors[0])}`);
    let signed = 0;
    for (const type of ['airtime', 'betting'] as const) {
      const rows = checked.rows.filter((r) => r.serviceType === type);
      for (let i = 0; i < rows.length; i += CHUNK) {
        const bulkData = rows.slice(i, i + CHUNK).map((r, k) => ({
          amount: String(r.amountKobo),
          country: 'NG',
          currency: 'NGN',
          customerId: r.customerId,
          provider: r.provider,
          reference: `BENCH-T000000-${i + k}`,
        }));
        const body = canonicalJson(
          { bulkData, callBackUrl: 'http://127.0.0.1:1/webhook/bills', serviceType: type },
          { recursive: true, escaping: 'plain' },
        );
        if (hmacSha512(m.billsSecretKey, body, 'hex').length === 128) signed++;
      }
    }
    const prepare10kMs = performance.now() - t0;
    log(`  prepare: ${ROWS} rows checked, ${signed} bodies signed in ${prepare10kMs.toFixed(0)} ms`);

    // ---- import into the journal, then send and follow to the end ----
    const t1 = performance.now();
    const imported = await service.importBatch(csv, 'bench.csv');
    const importMs = performance.now() - t1;
    const id = imported.batch!.id;
    log(`  import (check + journal ${imported.batch!.items} items): ${importMs.toFixed(0)} ms`);
    const before = requests.n;
    const t2 = performance.now();
    const done = new Promise<void>((ok) => {
      const off = service.onBatch((b) => {
        if (b === id && service.batchView(id).state === 'done') {
          off();
          ok();
        }
      });
    });
    service.startBatch(id, CHUNK);
    await done;
    const settle10kMs = performance.now() - t2;
    const requests10k = requests.n - before;
    const v = service.batchView(id);
    if (v.counts.success !== ROWS || sandbox.listTopups().length !== ROWS)
      throw new Error(`bench batch ended with ${JSON.stringify(v.counts)}`);
    log(`  settle: ${ROWS} items final in ${settle10kMs.toFixed(0)} ms with ${requests10k} requests`);
    return { prepare10kMs: Math.round(prepare10kMs), settle10kMs: Math.round(settle10kMs), requests10k };
  } finally {
    await service.stop();
    await sandbox.close();
    await new Promise<void>((r) => sink.close(() => r()));
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run directly (not imported by run.ts).
if (/topups-bench\.ts$/.test(process.argv[1] ?? '')) {
  runTopupsBench((s) => console.log(s))
    .then((r) => {
      console.table([
        {
          measure: 'prepare10kMs (parse + check + sign)',
          value: r.prepare10kMs,
          target: '< 1000',
          pass: r.prepare10kMs < 1000 ? 'PASS' : 'FAIL',
        },
        { measure: 'settle10kMs (start to all final)', value: r.settle10kMs, target: '-', pass: '' },
        { measure: 'requests10k', value: r.requests10k, target: '-', pass: '' },
      ]);
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
