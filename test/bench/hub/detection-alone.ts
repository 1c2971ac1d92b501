// Runs the figure "detection with the relay" alone: `npx tsx test/bench/hub/detection-alone.ts [N]`
// (N sales, default 40), on a throwaway PostgreSQL cluster (fsync on) where one is installed, else
// PGlite, with the Hub in its own process as `bench:hub` runs it. `npm run bench:hub` runs it with the rest.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoConfig, startSandbox } from '../../../sandbox';
import { sandboxProviderConfig } from '../../helpers/sandbox-provider-config';
import { spawnHub } from '../../hub/helpers/hub-process';
import { pgUnavailable, startPgCluster } from '../../hub/helpers/pg-cluster';
import { percentile, round } from '../bench-stats';
import { DETECTION_COUNTER_RATE, relayDetection } from './relay-detection';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 40);
  const cluster = pgUnavailable ? null : await startPgCluster({ fsync: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-detect-'));
  const demo = generateDemoConfig();
  const sandbox = await startSandbox(demo.config, { port: 0 });
  const provider = sandboxProviderConfig(sandbox, demo.merchant, { requestTimeoutMs: 15_000 });
  const proc = await spawnHub(
    [
      ...(cluster ? ['--database-url', cluster.createDatabase('detect')] : ['--data-dir', dataDir]),
      '--counter-rate',
      String(DETECTION_COUNTER_RATE),
    ],
    {
      HUB_CLIENT_AUTH_KEY: demo.merchant.clientAuthKey,
      HUB_PROVIDER_PUBLIC_KEY: demo.merchant.providerPublicKeyPem,
    },
  );
  try {
    sandbox.setWebhookUrl(demo.merchant.headMerchantId, `${proc.url}/provider/pos-webhook`);
    const det = await relayDetection(sandbox, provider, demo.merchant.terminalSn, proc.url, n);
    console.log(
      `detection with the relay over ${det.lat.length} sales: p50 ${round(percentile(det.lat, 50))} ms, p95 ${round(percentile(det.lat, 95))} ms; ` +
        `${det.hubCallsPerSale.toFixed(1)} Hub calls a sale, ${det.refused} refused (429); ` +
        `${cluster ? 'PostgreSQL' : 'PGlite'}; load ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await proc.kill();
    await sandbox.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
