// The app under test of the chaos run, in its own process so the driver can SIGKILL it at any
// moment: checkout service + real POS client + webhook receiver on one SQLite journal file.
// On start it resumes whatever the killed one left; it answers a sale only once it is journaled.
// Usage: node --import tsx test/helpers/chaos-app.ts <args.json> (spawned by test/chaos/app-process.ts)
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { createCheckoutService } from '../../core/orders/checkout-service';
import { createPosClient } from '../../core/provider';
import { startWebhookReceiver, WEBHOOK_PATHS } from '../../core/webhook';
import { answerSell, childArgs, fileLogger, runChild, send } from './chaos-child';
import type { ChaosAppArgs, DriverMessage, OrderSnapshot } from './chaos-protocol';
import { createRng } from './chaos-random';

async function main(): Promise<void> {
  const args = childArgs<ChaosAppArgs>('chaos-app');
  const logger = fileLogger(args.logFile);
  logger.info('chaos app starting');
  const db = openJournalDb(args.dbFile);
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
    if (m.type === 'sell') answerSell(checkout, m);
    else if (m.type === 'stop') {
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

runChild('chaos app', main);
