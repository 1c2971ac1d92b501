// `npm run start:browser`: the browser shell. Prints the address (with its one-time token) to open.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DataDirError, prepareDataDir } from '../core/data-folder';
import { consoleLogger } from '../shared/logger';
import { openFileLogger } from '../core/logging';
import { bootBrowserShell } from './boot';
import { defaultBrowserDataDir } from './data-dir';

const USAGE = `CounterPay in the browser shell: the counter app served to Chromium on 127.0.0.1.

Usage: npm run start:browser [-- options]     (builds the app first)
       node --import tsx browser-shell/cli.ts [options]

Options:
  --port N            port to listen on (default 0: any free port)
  --data-dir DIR      the data folder (default $COUNTERPAY_DATA_DIR, else the user's
                      CounterPay-browser folder)
  --renderer-dir DIR  the built renderer to serve (default out/renderer)
  --restore FILE      put this journal backup in place before starting (the journal it
                      replaces is kept beside it)
  --integration-port N  port of the box-office integration API for this run (1024 to
                      65535), instead of the one chosen in Settings → Integrations
  -h, --help          this text

It prints COUNTERPAY_URL=http://127.0.0.1:PORT/#token=... : open that address. It opens
CounterPay once, in the first browser that opens it (its token becomes that browser's
session cookie); for another browser, restart CounterPay for a new address.`;

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'renderer-dir': { type: 'string' },
      restore: { type: 'string' },
      'integration-port': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535 (got ${values.port}).`);
    process.exit(2);
  }
  const integrationPort = values['integration-port'] === undefined ? undefined : Number(values['integration-port']);
  if (
    integrationPort !== undefined &&
    (!/^\d+$/.test(values['integration-port']!) || integrationPort < 1024 || integrationPort > 65535)
  ) {
    console.error(`--integration-port must be a whole number from 1024 to 65535 (got ${values['integration-port']}).`);
    process.exit(2);
  }
  const root = resolve(__dirname, '..');
  const rendererDir = resolve(values['renderer-dir'] ?? resolve(root, 'out/renderer'));
  if (!existsSync(resolve(rendererDir, 'index.html'))) {
    console.error(`The app is not built (no ${rendererDir}/index.html). Run: npm run build`);
    process.exit(1);
  }
  const dataDir = resolve(values['data-dir'] ?? defaultBrowserDataDir());
  const version = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }).version;
  // The folder is checked first (a file, /proc, read-only, …: one sentence and an exit code), so the
  // log files below never create it the unsafe way.
  prepareDataDir(dataDir);
  const logger = await openFileLogger({
    dir: join(dataDir, 'logs'),
    scope: 'browser-shell',
    echo: consoleLogger('browser-shell'),
  });
  const restoreFrom = values.restore ? resolve(values.restore) : undefined;
  const app = await bootBrowserShell({
    dataDir,
    rendererDir,
    port,
    logger,
    logFiles: logger,
    version,
    testHooks: process.env.COUNTERPAY_TEST_HOOKS === '1',
    ...(restoreFrom ? { restoreFrom } : {}),
    ...(integrationPort !== undefined ? { integrationPort } : {}),
  });
  if (restoreFrom) console.log(`The journal was restored from ${restoreFrom}; the one it replaced was kept beside it.`);
  console.log(`CounterPay is running in the browser shell. Open this address in Chromium or Chrome:`);
  console.log(`COUNTERPAY_URL=${app.shell.url}`);
  console.log(`Data folder: ${dataDir}`);
  console.log(`Logs: ${logger.dir}`);
  logger.info('browser shell started', { version, port: app.shell.port, dataDir });
  // Only watches (the process still dies as Node decides); the write is synchronous, so the
  // record is on disk before the process ends.
  process.on('uncaughtExceptionMonitor', (e, origin) =>
    logger.error('the browser shell is crashing', {
      origin,
      error: e instanceof Error ? e : String(e),
      stack: e instanceof Error ? e.stack : undefined,
    }),
  );
  const stop = async () => {
    await app.close();
    logger.info('browser shell stopped');
    logger.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  if (e instanceof DataDirError) {
    // One sentence the person at the counter (or support) can act on; the exit code says which case.
    console.error(`CounterPay could not start: ${e.message}`);
    process.exit(e.exitCode);
  }
  console.error(`CounterPay could not start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
