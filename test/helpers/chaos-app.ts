// The app under test of the chaos run, in its own process so the driver can SIGKILL it at any
// moment: checkout service + real POS client + webhook receiver on one SQLite journal file.
// On start it resumes whatever the killed one left; it answers a sale only once it is journaled.
// Usage: node --import tsx test/helpers/chaos-app.ts <args.json> (spawned by test/chaos/app-process.ts)
import { openSync, readFileSync, writeSync } from 'node:fs';
import { systemClock } from '../../electron/core/clock';
import { openDatabase } from '../../electron/core/db/database';
import type { Logger } from '../../electron/core/log';
import { createCheckoutService } from '../../electron/core/orders/checkout-service';
import { createPosClient } from '../../electron/core/provider';
import { startWebhookReceiver, WEBHOOK_PATHS } from '../../electron/core/webhook';
import { isAppError } from '../../shared/errors';
import type { AppMessage, ChaosAppArgs, DriverMessage, OrderSnapshot } from './chaos-protocol';
import { createRng } from './chaos-random';

function send(m: AppMessage): void {
  process.send?.(m);
}

function fileLogger(file: string): Logger {
  const fd = openSync(file, 'a');
  const line = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    writeSync(fd, `${JSON.stringify({ t: Date.now(), pid: process.pid, level, msg, ...fields })}\n`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('chaos-app must be spawned with an IPC channel');
  const args = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ChaosAppArgs;
  const logger = fileLogger(args.logFile);
  logger.info('chaos app starting');
  const db = openDatabase(args.dbFile);
  const checkout = createCheckoutService({
    db,
    pos: createPosClient(args.provider, { logger }),
    clock: systemClock,
    logger,
    settings: () => args.settings,
    random: createRng(args.seed).next,
    tuning: args.tuning,
  });
  checkout.on('order', (v) => send({ type: 'order', id: v.id, outOrderNo: v.outOrderNo, state: v.state }));
  const receiver = await startWebhookReceiver({
    host: '127.0.0.1', port: 0, db, logger, clock: systemClock,
    getConfig: () => args.provider,
    onPosNotification: (n) => {
      checkout.onWebhook(n);
    },
    onBillsCallback: () => {},
  });
  checkout.resume();

  process.on('message', (m: DriverMessage) => {
    if (m.type === 'sell') {
      // sell() resolves after the journal insert: the ack never runs ahead of the journal.
      checkout.sell(m.sale).then(
        (v) => send({ type: 'ack', reqId: m.reqId, id: v.id, outOrderNo: v.outOrderNo }),
        (err: unknown) => send({ type: 'refused', reqId: m.reqId, code: isAppError(err) ? err.code : 'INTERNAL', message: err instanceof Error ? err.message : String(err) }),
      );
    } else if (m.type === 'stop') {
      void (async () => {
        await receiver.close();
        await checkout.stop();
        db.close();
        logger.info('chaos app stopped');
        send({ type: 'stopped' });
        process.disconnect();
      })();
    }
  });
  // Losing the driver means nobody will ever kill us: leave.
  process.on('disconnect', () => process.exit(0));
  const orders = (db.prepare('SELECT id, out_order_no AS outOrderNo, state FROM orders ORDER BY id').all() as OrderSnapshot[]);
  send({ type: 'ready', webhookUrl: `${receiver.url}${WEBHOOK_PATHS.pos}`, orders });
}

main().catch((err: unknown) => {
  process.stderr.write(`chaos app failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
