// The top-ups module in the composed core, through the contract's dispatcher as either shell
// calls it: arguments checked, events on the hub, callbacks from the core's own webhook receiver.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confStore } from '../../../browser-shell/boot';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { fileVault } from '../../../core/settings/secret-vault';
import { parseCsv } from '../../../shared/csv-parse';
import { generateDemoConfig, startSandbox, type Sandbox } from '../../../sandbox';
import type { BatchImport, BatchView, CsvFile, ProvidersView, TopupView } from '../../../shared/topups';
import { startCountingProxy } from './harness';

const ctx = { trusted: true, sender: 'test' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function boot(
  settleAfterMs: number,
): Promise<{ core: Core; sandbox: Sandbox; proxy: Awaited<ReturnType<typeof startCountingProxy>> }> {
  const { config, merchant: m } = generateDemoConfig();
  config.bills.settleAfterMs = settleAfterMs;
  const sandbox = await startSandbox(config, { port: 0 });
  cleanups.push(() => sandbox.close());
  const proxy = await startCountingProxy(() => sandbox.url);
  cleanups.push(() => proxy.close());
  const dir = mkdtempSync(join(tmpdir(), 'topups-core-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    embeddedSandbox: false,
  });
  cleanups.push(() => core.stop());
  core.settings.writeInternal(
    'demo',
    { billsBaseUrl: `${proxy.url}/api/v3`, billsMerchantId: m.billsMerchantId, counterName: 'Lekki VIP 12' },
    { billsPublicKey: m.billsPublicKey, billsSecretKey: m.billsSecretKey },
  );
  return { core, sandbox, proxy };
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { error: r.error });
  return r.value as T;
}

function nextEvent<T>(core: Core, name: string, test: (p: T) => boolean): Promise<T> {
  return new Promise((ok) => {
    const off = core.events.subscribe((n, payload) => {
      if (n === name && test(payload as T)) {
        off();
        ok(payload as T);
      }
    });
  });
}

describe('top-ups through the contract', () => {
  it('a single airtime top-up: checked, sent, followed on the hub', async () => {
    const { core } = await boot(0);
    const done = nextEvent<TopupView>(core, 'topups.changed', (v) => v.state === 'success');
    const v = await call<TopupView>(core, 'topups.submit', {
      serviceType: 'airtime',
      provider: 'ETI',
      customerId: '0909 000 1111',
      amount: '750',
    });
    expect(v.reference).toMatch(/^LV12-T\d{6}-0001$/);
    expect(await done).toMatchObject({
      id: v.id,
      customerId: '+2349090001111',
      amountKobo: 75_000,
      providerStatus: 'SUCCESS',
    });
    expect((await call<TopupView[]>(core, 'topups.recent', {})).map((t) => t.id)).toEqual([v.id]);
  });

  it('refuses what the renderer should never send, per field or as bad arguments', async () => {
    const { core } = await boot(0);
    const r = await core.dispatch(
      'topups.submit',
      { serviceType: 'airtime', provider: 'MTN', customerId: '12', amount: '-1' },
      ctx,
    );
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION',
        details: { fields: { customerId: expect.any(String), amount: expect.any(String) } },
      },
    });
    const big = await core.dispatch('topups.batchImport', { csv: 'x'.repeat(900_001) }, ctx);
    expect(big).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGUMENTS', details: { fields: { csv: expect.stringMatching(/too large/) } } },
    });
    expect(await core.dispatch('topups.batchStart', { id: 1, chunkSize: 0 }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGUMENTS' },
    });
    expect(await core.dispatch('topups.get', { id: 99 }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('the template imports as a batch that runs to the end, with progress events and a results file', async () => {
    const { core } = await boot(0);
    const providers = nextEvent<ProvidersView>(core, 'topups.providersChanged', () => true);
    expect((await call<ProvidersView>(core, 'topups.providers', { refresh: true })).providers).toHaveLength(3);
    await providers;
    const tpl = await call<CsvFile>(core, 'topups.batchTemplate', {});
    expect(tpl.fileName).toBe('topups-template.csv');
    const imported = await call<BatchImport>(core, 'topups.batchImport', { csv: tpl.csv, fileName: tpl.fileName });
    expect(imported).toMatchObject({
      totalRows: 3,
      errorCount: 0,
      batch: { state: 'draft', items: 3, bettingRows: 1 },
    });
    const id = imported.batch!.id;
    const finished = nextEvent<BatchView>(core, 'topups.batchChanged', (b) => b.id === id && b.state === 'done');
    const results = nextEvent<{ batchId: number; items: TopupView[] }>(
      core,
      'topups.batchItems',
      (e) => e.batchId === id,
    );
    await call<BatchView>(core, 'topups.batchStart', { id, chunkSize: 50 });
    expect(await finished).toMatchObject({ finished: 3, counts: { success: 3 }, successKobo: 350_000 });
    expect((await results).items.length).toBeGreaterThan(0);
    const page = await call<{ total: number; items: TopupView[] }>(core, 'topups.batchItems', {
      id,
      filter: 'success',
      limit: 2,
    });
    expect([page.total, page.items.map((i) => i.line)]).toEqual([3, [2, 3]]);
    const out = await call<CsvFile>(core, 'topups.batchExport', { id });
    expect(parseCsv(out.csv).records.map((r) => r.fields[3])).toEqual(['status', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect((await call<BatchView[]>(core, 'topups.batchList', {})).map((b) => b.id)).toEqual([id]);
  });

  it('with the webhook receiver on, the provider’s callback settles a top-up before any status check', async () => {
    const { core, sandbox, proxy } = await boot(300);
    // The core restarts its receiver on a settings change, then publishes the status.
    const applied = nextEvent(core, 'status.changed', () => true);
    core.settings.writeInternal('demo', {
      webhook: { enabled: true, host: '127.0.0.1', port: 0, callbackBaseUrl: '' },
    });
    await applied;
    expect(core.webhookUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const done = nextEvent<TopupView>(core, 'topups.changed', (v) => v.state === 'success');
    const delivered = new Promise<void>((ok) => sandbox.events.once('webhook-delivered', () => ok()));
    const v = await call<TopupView>(core, 'topups.submit', {
      serviceType: 'airtime',
      provider: 'MTN',
      customerId: '08031234567',
      amount: '100',
    });
    await Promise.all([done, delivered]);
    const [t] = sandbox.listTopups();
    expect(t?.callBackUrl).toBe(`${core.webhookUrl()}/webhook/bills`);
    expect(t?.callback).toMatchObject({ delivered: true, httpCode: '200' });
    expect(proxy.seen.filter((s) => s.path.endsWith('/bulk-status'))).toEqual([]);
    expect((await call<TopupView>(core, 'topups.get', { id: v.id })).state).toBe('success');
  });
});
