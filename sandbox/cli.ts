// `npm run sandbox -- [--config FILE] [--port N] [--host H] [--out DIR] [--quiet]`: runs the
// provider sandbox. Without --config it writes a fresh demo configuration and keys to DIR.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleLogger, silentLogger } from '../shared/logger';
import { SandboxConfigError, loadConfigFile } from './config';
import { generateDemoConfig, type DemoMerchantValues } from './demo-config';
import { startSandbox, type Sandbox } from './index';

const USAGE = `Usage: npm run sandbox -- [--config FILE] [--port N] [--host HOST] [--out DIR] [--quiet]
  --config FILE  run from a JSON configuration (see sandbox/config.ts)
  --port N       listen on port N (0 = any free port); default: the config's port (7070)
  --host HOST    listen address; default 127.0.0.1
  --out DIR      without --config: where the demo configuration and keys are written (default ./.sandbox)
  --quiet        do not log each request`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function writeDemo(outDir: string): {
  configFile: string;
  merchant: DemoMerchantValues;
  privateKeyFile: string;
  providerKeyFile: string;
} {
  const { config, merchant } = generateDemoConfig();
  mkdirSync(outDir, { recursive: true });
  const configFile = resolve(outDir, 'sandbox-config.json');
  const privateKeyFile = resolve(outDir, 'merchant-private-key.pem');
  const providerKeyFile = resolve(outDir, 'provider-public-key.pem');
  writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  writeFileSync(privateKeyFile, merchant.merchantPrivateKeyPem, { mode: 0o600 });
  writeFileSync(providerKeyFile, merchant.providerPublicKeyPem);
  writeFileSync(
    resolve(outDir, 'merchant-values.json'),
    JSON.stringify(
      { ...merchant, merchantPrivateKeyPem: privateKeyFile, providerPublicKeyPem: providerKeyFile },
      null,
      2,
    ) + '\n',
    { mode: 0o600 },
  );
  return { configFile, merchant, privateKeyFile, providerKeyFile };
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        out: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (e) {
    fail(`${(e as Error).message}\n${USAGE}`);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let port: number | undefined;
  if (args.port !== undefined) {
    port = Number(args.port);
    if (!/^\d+$/.test(args.port) || port > 65535) fail(`--port must be a number from 0 to 65535 (got "${args.port}")`);
  }
  const logger = args.quiet ? silentLogger : consoleLogger('sandbox');

  let sandbox: Sandbox;
  let demo: ReturnType<typeof writeDemo> | null = null;
  try {
    if (args.config) {
      sandbox = await startSandbox(loadConfigFile(resolve(args.config)), { port, host: args.host, logger });
    } else {
      demo = writeDemo(resolve(args.out ?? '.sandbox'));
      sandbox = await startSandbox(loadConfigFile(demo.configFile), { port, host: args.host, logger });
    }
  } catch (e) {
    if (e instanceof SandboxConfigError) fail(e.message);
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      fail(`Port ${port ?? 'from the config'} is already in use; pick another with --port N (0 = any free port).`);
    throw e;
  }

  const lines = [
    `CounterPay provider sandbox listening on ${sandbox.url}`,
    `  bills base URL:    ${sandbox.billsBaseUrl}`,
    `  POS base URL:      ${sandbox.posBaseUrl}`,
  ];
  if (demo) {
    const m = demo.merchant;
    lines.push(
      '',
      'Merchant-side values (demo keys, never real ones):',
      `  bills merchantId:  ${m.billsMerchantId}`,
      `  bills public key:  ${m.billsPublicKey}`,
      `  bills secret key:  ${m.billsSecretKey}`,
      `  headMerchantId:    ${m.headMerchantId}`,
      `  merchantId:        ${m.merchantId}`,
      `  clientAuthKey:     ${m.clientAuthKey}`,
      `  merchant private key (PEM): ${demo.privateKeyFile}`,
      `  provider public key (PEM):  ${demo.providerKeyFile}`,
      `  terminal sn:       ${m.terminalSn} (manual: POST ${sandbox.url}/_sandbox/terminals/${m.terminalSn}/present {"outcome":"SUCCESS"})`,
      `  auto terminal sn:  ${m.autoTerminalSn} (approves each order by itself)`,
      '',
      `Configuration written to ${demo.configFile}; run it again with: npm run sandbox -- --config ${demo.configFile}`,
    );
  } else {
    for (const m of sandbox.config.bills.merchants) lines.push(`  bills merchantId:  ${m.merchantId}`);
    for (const m of sandbox.config.pos.merchants)
      lines.push(`  POS headMerchantId ${m.headMerchantId}, branches ${m.merchantIds.join(', ')}`);
    for (const t of sandbox.config.pos.terminals)
      lines.push(
        `  terminal sn:       ${t.sn} (branch ${t.merchantId}${t.autoOutcome ? `, auto ${t.autoOutcome}` : ''})`,
      );
  }
  lines.push(`Control API: ${sandbox.url}/_sandbox/ (terminals, orders, faults, reset). Ctrl+C stops.`);
  process.stdout.write(lines.join('\n') + '\n');

  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
