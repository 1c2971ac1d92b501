// A counter process killed (-9) in the middle of a batch, with a request on the wire: the next
// start resumes from the journal, asks the provider about everything whose fate is unknown, and
// ends with every good row sent exactly once and final.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { openJournalDb } from '../../../core/schema';
import { memoryLogger } from '../../../shared/logger';
import { createBillsClient } from '../../../core/provider/bills-client';
import { memoryStore } from '../../../core/settings/kv-store';
import { TopupJournal } from '../../../core/topups/topup-journal';
import { createTopupService, type TopupService } from '../../../core/topups/topup-service';
import { generateDemoConfig, startSandbox } from '../../../sandbox';
import { bigFile } from './files';
import { clientConfig, FAST, startCallbackSink, startCountingProxy, until, type SeenRequest } from './harness';

const ROOT = resolve(__dirname, '../../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('a batch whose process is killed mid-request', () => {
  it('resumes on the next start and inquires before resubmitting anything whose fate is unknown', async () => {
    const { config, merchant } = generateDemoConfig();
    config.bills.settleAfterMs = 30;
    // Every bulk-bills answer takes a while, so the kill lands while one is on the wire.
    config.faults = [{ path: '/api/v3/bills/bulk-bills', kind: 'latency', latencyMs: 150 }];
    const sandbox = await startSandbox(config, { port: 0 });
    cleanups.push(() => sandbox.close());
    const proxy = await startCountingProxy(() => sandbox.url);
    cleanups.push(() => proxy.close());
    const sink = await startCallbackSink();
    cleanups.push(() => sink.close());

    const dir = mkdtempSync(join(tmpdir(), 'topups-kill-'));
    const dbFile = join(dir, 'counterpay.db');
    const file = bigFile();
    writeFileSync(join(dir, 'batch.csv'), file.csv);
    const cfg = clientConfig(proxy.url, merchant);

    // ---- the first process: sends part of the batch, then dies with a request on the wire ----
    // Node itself (not the tsx wrapper, which would outlive a -9 in its own child).
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/topups-child.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        TOPUPS_CHILD: JSON.stringify({
          dbFile,
          config: cfg,
          csvFile: join(dir, 'batch.csv'),
          chunkSize: 25,
          tuning: { ...FAST, maxInFlight: 1 },
          callBackUrl: sink.url,
        }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });

    const tenthSend = await new Promise<SeenRequest>((ok, fail) => {
      let sends = 0;
      const on = (s: SeenRequest) => {
        if (!s.path.endsWith('/bulk-bills') || ++sends < 10) return;
        proxy.answered.off('request', on);
        ok(s);
      };
      proxy.answered.on('request', on);
      void exited.then((code) => fail(new Error(`the child exited (${code}) before its 10th send:\n${out}`)));
    });
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    expect(out).not.toContain('DONE');

    // What the journal says at the moment of death: some items on the wire, most not sent yet.
    const peek = openJournalDb(dbFile);
    const journal = new TopupJournal(peek, () => Date.now());
    const batchId = journal.listBatches(1)[0]!.id;
    const atDeath = journal.totals(batchId).counts;
    expect(atDeath.sending).toBe(25);
    expect(atDeath.queued).toBeGreaterThan(500);
    const onTheWire = new Set(
      journal
        .allOfBatch(batchId)
        .filter((i) => i.state === 'sending')
        .map((i) => i.reference),
    );
    peek.close();
    // The provider processes the orphaned request after all (commit after the client died).
    const lastAnswer = await new Promise<SeenRequest>((ok) => {
      if (tenthSend.status !== null) ok(tenthSend);
      const on = (s: SeenRequest) => s === tenthSend && (proxy.answered.off('answer', on), ok(s));
      proxy.answered.on('answer', on);
    });
    expect(lastAnswer.status).toBe(200);
    const sentBefore = proxy.seen.length;

    // ---- the next start: same journal, same provider ----
    sandbox.setFaults([
      { path: '/api/v3/bills/bulk-bills', kind: 'commitThenDrop', rate: 0.2, seed: 3 },
      { path: '/api/v3/bills/bulk-bills', kind: 'http503', rate: 0.1, seed: 4 },
    ]);
    const db = openJournalDb(dbFile);
    const logger = memoryLogger();
    const service: TopupService = createTopupService({
      db,
      store: memoryStore(),
      bills: createBillsClient(cfg, { logger }),
      logger,
      clock: systemClock,
      identity: () => ({ profile: 'demo', billsMerchantId: cfg.billsMerchantId, counterName: 'Counter 1' }),
      callBackUrl: () => sink.url,
      tuning: FAST,
    });
    cleanups.push(async () => {
      await service.stop();
      db.close();
    });
    service.start();
    expect(
      service.journal
        .allOfBatch(batchId)
        .filter((i) => onTheWire.has(i.reference))
        .every((i) => i.state === 'unknown'),
    ).toBe(true);
    await until(service, () => service.batchView(batchId).state === 'done', 'the resumed batch to finish', 50_000);

    // The items that were on the wire were asked about, and never sent again.
    const after = proxy.seen.slice(sentBefore);
    const refsIn = (s: SeenRequest): string[] =>
      s.path.endsWith('/bulk-bills')
        ? (JSON.parse(s.body) as { bulkData: { reference: string }[] }).bulkData.map((x) => x.reference)
        : (JSON.parse(s.body) as { bulkStatusRequest: { reference: string }[] }).bulkStatusRequest.map(
            (x) => x.reference,
          );
    expect(
      after
        .filter((s) => s.path.endsWith('/bulk-bills'))
        .flatMap(refsIn)
        .filter((r) => onTheWire.has(r)),
    ).toEqual([]);
    expect(after.filter((s) => s.path.endsWith('/bulk-status')).flatMap(refsIn)).toEqual(
      expect.arrayContaining([...onTheWire]),
    );

    // Every good row sent exactly once, final, and matching the provider.
    const processed = new Map<string, number>();
    for (const s of proxy.seen.filter((x) => x.path.endsWith('/bulk-bills'))) {
      expect(s.answer).not.toMatch(/already used/);
      if (s.status === 200 || s.status === null) {
        for (const i of (JSON.parse(s.body) as { bulkData: { reference: string }[] }).bulkData)
          processed.set(i.reference, (processed.get(i.reference) ?? 0) + 1);
      }
    }
    const items = service.journal.allOfBatch(batchId);
    const records = new Map(sandbox.listTopups().map((t) => [t.reference, t]));
    expect(items).toHaveLength(1000 - file.badLines.length);
    expect(records.size).toBe(items.length);
    for (const it of items) {
      expect(processed.get(it.reference), it.reference).toBe(1);
      const t = records.get(it.reference)!;
      expect(it.state).toBe(t.status === 'SUCCESS' ? 'success' : 'fail');
      expect([it.amountKobo, it.customerId]).toEqual([t.amountKobo, t.customerId]);
    }
    expect(items.filter((i) => i.state === 'fail').map((i) => i.line)).toEqual(file.failLines);
  }, 90_000);
});
