// The Hub of the Hub chaos run: a real Hub process, as an operator runs it, on a throwaway real
// PostgreSQL cluster when one is installed (else a PGlite data folder), with the sandbox merchant's
// clientAuthKey and the sandbox's provider public key. SIGKILLed at any moment and started again on
// the same port and database; stopped cleanly at the end so the run can read its tables.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HubDb } from '../../hub/db/adapter';
import { openHubDb } from '../../hub/db/open';
import type { DemoMerchantValues } from '../../sandbox';
import { ADMIN_TOKEN, bearer, post } from '../hub/helpers/hub-harness';
import { spawnHub, type HubProcess } from '../hub/helpers/hub-process';
import { pgUnavailable, startPgCluster, type PgCluster } from '../hub/helpers/pg-cluster';

export interface ChaosHub {
  /** `http://127.0.0.1:<port>`: the same across restarts. */
  readonly url: string;
  readonly port: number;
  /** What the run says about its store: "real PostgreSQL …" or "PGlite data folder (…)". */
  readonly database: string;
  readonly databaseUrl: string | null;
  readonly alive: boolean;
  /** Starts so far (1 + restarts). */
  readonly starts: number;
  /** SIGKILL: no chance to finish anything. */
  kill(): Promise<void>;
  /** A new process on the same port and database. */
  start(): Promise<void>;
  /** SIGTERM and wait: the Hub closes its database cleanly (PGlite needs that before another process opens it). */
  stop(): Promise<void>;
  issueCode(): Promise<string>;
  /** What the first Hub process printed on stdout (its first-start setup link). */
  output(): string;
  /** Opens the Hub's database from the run (PostgreSQL: any time; PGlite: only once the Hub is stopped). */
  openDb(): Promise<HubDb>;
  /** Stops the Hub and removes the cluster. */
  close(): Promise<void>;
  stderr(): string;
}

export async function startChaosHub(o: {
  dir: string;
  merchant: DemoMerchantValues;
  heartbeatMs: number;
  forcePglite?: boolean;
}): Promise<ChaosHub> {
  let cluster: PgCluster | null = null;
  let databaseUrl: string | null = null;
  let database: string;
  const dataDir = join(o.dir, 'hub-data');
  if (!pgUnavailable && !o.forcePglite) {
    cluster = await startPgCluster();
    databaseUrl = cluster.createDatabase('hub_chaos');
    database = `real PostgreSQL (throwaway cluster, ${databaseUrl})`;
  } else {
    database = `PGlite data folder (${dataDir})${o.forcePglite ? '' : `: ${pgUnavailable}`}`;
  }
  const merchantFile = join(o.dir, 'hub-merchant.json');
  writeFileSync(
    merchantFile,
    JSON.stringify({ clientAuthKey: o.merchant.clientAuthKey, providerPublicKey: o.merchant.providerPublicKeyPem }),
    { mode: 0o600 },
  );
  const baseArgs = [
    '--merchant-config',
    merchantFile,
    '--heartbeat-ms',
    String(o.heartbeatMs),
    ...(databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir]),
  ];

  let proc: HubProcess | null = null;
  let port = 0;
  let starts = 0;
  let errText = '';
  let firstOutput: (() => string) | null = null;
  const start = async () => {
    if (proc) throw new Error('the Hub is already running');
    // The last --port wins: 0 the first time, then the port it got.
    const p = await spawnHub([...baseArgs, '--port', String(port)]);
    p.child.stderr?.on('data', (d: Buffer) => (errText = (errText + d.toString()).slice(-20_000)));
    p.child.once('exit', () => {
      if (proc === p) proc = null;
    });
    proc = p;
    firstOutput ??= () => p.output();
    port = Number(new URL(p.url).port);
    starts += 1;
  };
  await start();
  const hub: ChaosHub = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    database,
    databaseUrl,
    get alive() {
      return proc !== null;
    },
    get starts() {
      return starts;
    },
    async kill() {
      await proc?.kill();
      proc = null;
    },
    start,
    async stop() {
      const p = proc;
      if (!p) return;
      const exited = new Promise<void>((r) => (p.child.exitCode !== null ? r() : p.child.once('exit', () => r())));
      p.child.kill('SIGTERM');
      const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      proc = null;
    },
    async issueCode() {
      const r = await post(
        `${hub.url}/api/v1/admin/enroll-codes`,
        { ttlMinutes: 60, anyBranch: true },
        bearer(ADMIN_TOKEN),
      );
      if (r.status !== 200) throw new Error(`the Hub refused an enrollment code: ${JSON.stringify(r.json)}`);
      return String(r.json.code);
    },
    async openDb() {
      if (!databaseUrl && proc) throw new Error('a PGlite data folder can be opened only once the Hub has stopped');
      return openHubDb(databaseUrl ? { databaseUrl, dataDir: null, poolMax: 2 } : { dataDir });
    },
    async close() {
      await hub.stop();
      cluster?.stop();
    },
    stderr: () => errText,
    output: () => firstOutput?.() ?? '',
  };
  return hub;
}
