// The app under test of the chaos run, in its own process so the driver can SIGKILL it at any
// moment: checkout service + real POS client + webhook receiver on one SQLite journal file.
// On start it resumes whatever the killed one left; it answers a sale only once it is journaled.
// It keeps its own seats (every show has a seat map: a seat of an open or paid sale is not sold
// again until cancelled), writes the Hub's outbox (no Hub: the events stay there for the verdict)
// and cancels or exchanges seats of a paid sale as the driver asks, approved with the admin PIN (CHAOS_PIN).
// Usage: node --import tsx test/helpers/chaos-app.ts <args.json> (spawned by test/chaos/app-process.ts)
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { createCheckoutService } from '../../core/orders/checkout-service';
import { createLateSweep } from '../../core/orders/late-sweep';
import { systemTimers } from '../../core/lib';
import { createPosClient } from '../../core/provider';
import { startWebhookReceiver, WEBHOOK_PATHS } from '../../core/webhook';
import { createOutboxSink, HubOutbox } from '../../core/hub-link';
import { createPinGuard } from '../../core/settings/pin-guard';
import { hashPin } from '../../core/settings/pin';
import { memoryStore } from '../../core/settings/kv-store';
import { answerCancel, answerExchange, answerSell, childArgs, fileLogger, runChild, send } from './chaos-child';
import { CHAOS_PIN, type ChaosAppArgs, type DriverMessage, type OrderSnapshot } from './chaos-protocol';
import { createRng } from './chaos-random';
import { chaosBasketSources, chaosSeatPlanner } from './chaos-basket';

async function main(): Promise<void> {
  const args = childArgs<ChaosAppArgs>('chaos-app');
  const logger = fileLogger(args.logFile);
  logger.info('chaos app starting');
  const db = openJournalDb(args.dbFile);
  const pinHash = await hashPin(CHAOS_PIN);
  const guard = createPinGuard({ store: memoryStore(), clock: systemClock, logger, hash: () => pinHash });
  const checkout = createCheckoutService({
    db,
    pos: createPosClient(args.provider, { logger }),
    clock: systemClock,
    logger,
    settings: () => args.settings,
    random: createRng(args.seed).next,
    tuning: args.tuning,
    // Baskets (test/helpers/chaos-basket.ts): ticket types for every show, a catalogue with stock left from this journal.
    basket: chaosBasketSources(db),
    journalSink: createOutboxSink(new HubOutbox(db), { logger }),
    seats: { planner: chaosSeatPlanner },
    // A shift is always open (the chaos app has no records module): a cancel is counted in shift 1.
    undo: { checkPin: (pin) => guard.check(pin), shiftAt: () => ({ id: 1 }) },
  });
  checkout.on('order', (v) =>
    send({ type: 'order', id: v.id, outOrderNo: v.outOrderNo, state: v.state, late: v.late?.kind ?? null }),
  );
  // The reconciliation sweep, its hour scaled down to seconds: what the webhook did not bring (the app was dead), it finds.
  const pos = createPosClient(args.provider, { logger });
  const sweep = createLateSweep({
    checkout,
    getPos: () => pos,
    now: () => systemClock.now(),
    timers: systemTimers,
    logger,
    tuning: { everyMs: 2_000, ratePerSec: 50 },
  });
  const receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    db,
    logger,
    clock: systemClock,
    getConfig: () => args.provider,
    onPosNotification: (n) => {
      checkout.onWebhook(n);
    },
    onBillsCallback: () => {},
  });
  checkout.resume();
  sweep.start();

  process.on('message', (m: DriverMessage) => {
    if (m.type === 'sell') answerSell(checkout, m);
    else if (m.type === 'cancel') answerCancel(checkout, m);
    else if (m.type === 'exchange') answerExchange(checkout, m);
    else if (m.type === 'stop') {
      void (async () => {
        await receiver.close();
        await sweep.stop();
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
  const orders = db
    .prepare(
      'SELECT o.id, o.out_order_no AS outOrderNo, o.state, l.kind AS late FROM orders o LEFT JOIN order_late l ON l.order_id = o.id ORDER BY o.id',
    )
    .all() as OrderSnapshot[];
  send({ type: 'ready', webhookUrl: `${receiver.url}${WEBHOOK_PATHS.pos}`, orders });
}

runChild('chaos app', main);
