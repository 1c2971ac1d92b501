// The top-up service against the real sandbox over loopback: a fresh SQLite file per test, the
// real bills client, fast tuning, a counting proxy in front of the sandbox (what was sent, what
// came back), and waits that resolve on the service's own events.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../../shared/clock';
import { openJournalDb } from '../../../core/schema';
import { type Db } from '../../../core/db';
import { memoryLogger } from '../../../shared/logger';
import { createBillsClient } from '../../../core/provider/bills-client';
import type { ProviderConfig } from '../../../core/provider/types';
import { memoryStore } from '../../../core/settings/kv-store';
import { createTopupService, type TopupService, type TopupTuning } from '../../../core/topups/topup-service';
import {
  generateDemoConfig,
  startSandbox,
  type DemoMerchantValues,
  type Sandbox,
  type SandboxConfig,
} from '../../../sandbox';
import { defaultConventions } from '../../../shared/settings';
import { closeAfterEach } from '../../helpers/close-after-each';

export const FAST: Partial<TopupTuning> = {
  firstCheckMs: 30,
  maxCheckMs: 150,
  unknownGraceMs: 60,
  sweepWindowMs: 20,
  retryMinMs: 20,
  retryMaxMs: 150,
  requestsPerSecond: 2000,
  burst: 200,
  validateRatePerSecond: 500,
};

export interface SeenRequest {
  path: string;
  body: string;
  /** HTTP status, or null when the connection ended without an answer. */
  status: number | null;
  answer: string;
}

/** A loopback proxy that records every request to the provider and its answer. */
export async function startCountingProxy(
  target: () => string,
): Promise<{ url: string; seen: SeenRequest[]; answered: EventEmitter; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const answered = new EventEmitter();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry: SeenRequest = { path: req.url ?? '', body: body.toString('utf8'), status: null, answer: '' };
      seen.push(entry);
      answered.emit('request', entry);
      const up = request(
        `${target()}${req.url ?? ''}`,
        { method: req.method, headers: req.headers, agent: false },
        (upRes) => {
          const back: Buffer[] = [];
          upRes.on('data', (c: Buffer) => back.push(c));
          upRes.on('end', () => {
            entry.status = upRes.statusCode ?? 0;
            entry.answer = Buffer.concat(back).toString('utf8');
            answered.emit('answer', entry);
            res.writeHead(entry.status, upRes.headers);
            res.end(entry.answer);
          });
          upRes.on('error', () => res.destroy());
        },
      );
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    answered,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Where the sandbox's callbacks go when a test does not listen to them: answers 200, keeps nothing. */
export async function startCallbackSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"00000","message":"SUCCESSFUL"}'),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/bills`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export function clientConfig(
  baseUrl: string,
  m: DemoMerchantValues,
  over: Partial<ProviderConfig> = {},
): ProviderConfig {
  return {
    billsBaseUrl: `${baseUrl}/api/v3`,
    posBaseUrl: baseUrl,
    billsMerchantId: m.billsMerchantId,
    headMerchantId: m.headMerchantId,
    merchantId: m.merchantId,
    requestTimeoutMs: 3000,
    conventions: defaultConventions(),
    secrets: { billsPublicKey: m.billsPublicKey, billsSecretKey: m.billsSecretKey },
    ...over,
  };
}

export interface Rig {
  sandbox: Sandbox;
  merchant: DemoMerchantValues;
  proxy: Awaited<ReturnType<typeof startCountingProxy>>;
  db: Db;
  dbFile: string;
  service: TopupService;
  logger: ReturnType<typeof memoryLogger>;
  /** The provider config the bills client reads on every call (tests may change it). */
  config: ProviderConfig;
  /** bulk-bills requests the proxy saw, with the references each carried. */
  bulkBills(): { refs: string[]; status: number | null; answer: string }[];
  close(): Promise<void>;
}

export interface RigOptions {
  sandbox?: (c: SandboxConfig) => void;
  tuning?: Partial<TopupTuning>;
  callBackUrl?: string | (() => string);
  dbFile?: string;
  config?: Partial<ProviderConfig>;
  counterName?: string;
}

/** A rig per call, each closed after the test that started it. */
export function rigsClosedAfterEach(): (opts?: RigOptions) => Promise<Rig> {
  const keep = closeAfterEach((r: Rig) => r.close());
  return async (opts = {}) => keep(await startRig(opts));
}

export async function startRig(opts: RigOptions = {}): Promise<Rig> {
  const { config: sbConfig, merchant } = generateDemoConfig();
  sbConfig.bills.settleAfterMs = 40;
  opts.sandbox?.(sbConfig);
  const sandbox = await startSandbox(sbConfig, { port: 0 });
  const proxy = await startCountingProxy(() => sandbox.url);
  const sink = await startCallbackSink();
  const dbFile = opts.dbFile ?? join(mkdtempSync(join(tmpdir(), 'topups-it-')), 'counterpay.db');
  const db = openJournalDb(dbFile);
  const logger = memoryLogger();
  const rig = { config: clientConfig(proxy.url, merchant, opts.config) } as Rig;
  const bills = createBillsClient(() => rig.config, { logger });
  const service = createTopupService({
    db,
    store: memoryStore(),
    bills,
    logger,
    clock: systemClock,
    identity: () => ({
      profile: 'demo',
      billsMerchantId: rig.config.billsMerchantId,
      counterName: opts.counterName ?? 'Counter 1',
    }),
    callBackUrl: () => (typeof opts.callBackUrl === 'function' ? opts.callBackUrl() : opts.callBackUrl) ?? sink.url,
    tuning: { ...FAST, ...opts.tuning },
  });
  service.start();
  return Object.assign(rig, {
    sandbox,
    merchant,
    proxy,
    db,
    dbFile,
    service,
    logger,
    bulkBills: () =>
      proxy.seen
        .filter((s) => s.path.endsWith('/bills/bulk-bills'))
        .map((s) => ({
          refs: (JSON.parse(s.body) as { bulkData: { reference: string }[] }).bulkData.map((i) => i.reference),
          status: s.status,
          answer: s.answer,
        })),
    async close() {
      await service.stop();
      await proxy.close();
      await sandbox.close();
      await sink.close();
      db.close();
    },
  });
}

/** Resolves once `test()` holds, checked now and after every change the service reports. */
export function until(
  service: TopupService,
  test: () => boolean,
  what = 'the condition',
  timeoutMs = 20_000,
): Promise<void> {
  if (test()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!test()) return;
      done();
      resolve();
    };
    const offA = service.onItems(check);
    const offB = service.onBatch(check);
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const done = () => {
      offA();
      offB();
      clearTimeout(timer);
    };
  });
}

export const isFinal = (s: string) => ['success', 'fail', 'not_sent', 'cancelled'].includes(s);

/** Waits until a single top-up is final and returns it. */
export async function final(service: TopupService, id: number) {
  await until(service, () => isFinal(service.get(id).state), `top-up ${id} to be final`);
  return service.get(id);
}

/** Resolves once the proxy has passed back an answer that passes `test` (or one already did). */
export function proxyAnswer(rig: Rig, test: (s: SeenRequest) => boolean, timeoutMs = 10_000): Promise<SeenRequest> {
  const already = rig.proxy.seen.find((s) => s.status !== null && test(s));
  if (already) return Promise.resolve(already);
  return new Promise((resolve, reject) => {
    const on = (s: SeenRequest) => {
      if (!test(s)) return;
      rig.proxy.answered.off('answer', on);
      clearTimeout(timer);
      resolve(s);
    };
    const timer = setTimeout(() => {
      rig.proxy.answered.off('answer', on);
      reject(new Error('no such answer passed the proxy'));
    }, timeoutMs);
    rig.proxy.answered.on('answer', on);
  });
}
