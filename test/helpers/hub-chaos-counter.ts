// One counter of the Hub chaos run, in its own process so the driver can SIGKILL it at any moment:
// checkout + real POS client + the journal outbox and its sync pusher + the relay consumer, on one
// SQLite file. There is NO webhook receiver: the provider's notifications reach this counter only
// through the Hub's relay stream (and polling). On the first start it enrolls with the code the
// driver got from the Hub's admin API and keeps its credential in a file next to the journal.
// Usage: node --import tsx test/helpers/hub-chaos-counter.ts <args.json> (spawned by test/chaos/app-process.ts)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { systemClock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import {
  createHubClient,
  createRelayConsumer,
  createSyncPusher,
  HubOutbox,
  type HubConnection,
} from '../../core/hub-link';
import { createCheckoutService } from '../../core/orders/checkout-service';
import { relayHealthFeed } from '../../core/orders/relay-follower';
import { createLateSweep } from '../../core/orders/late-sweep';
import { systemTimers } from '../../core/lib';
import { createPosClient } from '../../core/provider';
import { createWebhookIngest } from '../../core/webhook';
import { EnrollResponseSchema, type RelayNotification } from '../../shared/hub-contract';
import { FINAL_STATES } from '../../shared/orders';
import { answerSell, childArgs, fileLogger, runChild, send } from './chaos-child';
import type { DriverMessage, HubCounterArgs, HubReport, OrderSnapshot } from './chaos-protocol';
import { createRng } from './chaos-random';

const APP_VERSION = '0.1.0';

async function main(): Promise<void> {
  const args = childArgs<HubCounterArgs>('hub-chaos-counter');
  const logger = fileLogger(args.logFile);
  logger.info('hub chaos counter starting');
  const db = openJournalDb(args.dbFile);
  const client = createHubClient({ defaultTimeoutMs: 3_000 });

  // Enrolled once, with a real code; the credential survives kills in a file the driver never reads.
  let conn: HubConnection;
  if (existsSync(args.hub.connectionFile)) {
    conn = JSON.parse(readFileSync(args.hub.connectionFile, 'utf8')) as HubConnection;
  } else {
    const r = await client.callAnonymous(
      args.hub.url,
      'POST',
      '/enroll',
      {
        code: args.hub.enrollCode,
        counterName: args.hub.counterName,
        branch: args.hub.branch,
        appVersion: APP_VERSION,
      },
      EnrollResponseSchema,
    );
    conn = { url: args.hub.url, counterId: r.counterId, credential: r.credential, branch: r.branch };
    writeFileSync(args.hub.connectionFile, JSON.stringify(conn), { mode: 0o600 });
    logger.info('enrolled on the Hub', { counterId: r.counterId });
  }

  const openPayments = db.prepare(
    `SELECT count(*) AS n FROM orders WHERE state NOT IN (${FINAL_STATES.map(() => '?').join(',')})`,
  );
  const outboxSeq = db.prepare('SELECT coalesce(max(seq), 0) AS s FROM hub_outbox');
  const pusher = createSyncPusher({
    db,
    connection: () => conn,
    client,
    clock: systemClock,
    logger,
    status: () => ({
      appVersion: APP_VERSION,
      profile: 'sandbox',
      openPayments: (openPayments.get(...FINAL_STATES) as { n: number }).n,
    }),
    onChange: () => report(),
    onRefused: (e) => logger.error('the Hub refused this counter', { code: e.code }),
  });
  const relayHealth = relayHealthFeed();
  const checkout = createCheckoutService({
    relayHealth,
    db,
    // Every journal event goes to the outbox in its own transaction, and kicks the pusher.
    journalSink: pusher.sink,
    pos: createPosClient(args.provider, { logger }),
    clock: systemClock,
    logger,
    settings: () => ({ ...args.settings, profile: 'sandbox' }),
    random: createRng(args.seed).next,
    tuning: args.tuning,
  });
  // The webhook module's one ingest, as the app's webhook control runs it for the relay: verified
  // with this counter's keys, recorded de-duplicated, handed to the checkout; others' orders ignored.
  const ingest = createWebhookIngest({
    db,
    logger,
    clock: systemClock,
    getConfig: () => args.provider,
    onPosNotification: (n) => checkout.onWebhook(n),
    onBillsCallback: () => {},
    ownsPosOrder: (n) => checkout.ownsOrder(n),
  });
  const tranIdHeader = args.provider.conventions.webhookTranIdHeader;
  const recorded = db.prepare("SELECT 1 FROM webhook_events WHERE kind = 'pos' AND order_no = ? LIMIT 1");
  const relay = createRelayConsumer({
    db,
    connection: () => conn,
    client,
    clock: systemClock,
    logger,
    ingest: (n: RelayNotification) => {
      const tranId = tranIdOf(n, tranIdHeader);
      const r = ingest({ kind: n.kind, body: n.body, via: 'relay', eventId: n.eventId, ...(tranId ? { tranId } : {}) });
      if (r.outcome === 'refused')
        logger.warn('relayed notification refused', { eventId: n.eventId, code: r.code, reason: r.reason });
      if (n.kind === 'pos' && tranId)
        send({ type: 'relay', orderNo: tranId, recorded: recorded.get(tranId) !== undefined });
    },
    onRefused: (e) => logger.error('the Hub refused this counter', { code: e.code }),
  });

  // Read from the outbox itself: the pusher's own count follows appends only after its debounce.
  const outbox = new HubOutbox(db);
  const hubReport = (): HubReport => ({
    queueLength: outbox.countAfter(outbox.lastSeq(conn.counterId)),
    outboxSeq: (outboxSeq.get() as { s: number }).s,
    syncState: pusher.state(),
    relayHealthy: relay.healthy(),
  });
  let lastReport = '';
  function report(): void {
    const r = hubReport();
    const key = JSON.stringify(r);
    if (key === lastReport) return;
    lastReport = key;
    send({ type: 'hub', ...r });
  }
  relay.onChange(() => report());
  // While the relay is healthy, polling is the safety net (as in the app).
  relayHealth.set(relay);
  checkout.on('order', (v) => {
    send({ type: 'order', id: v.id, outOrderNo: v.outOrderNo, state: v.state, late: v.late?.kind ?? null });
    pusher.kick();
    report();
  });
  let checkoutStopped: Promise<void> | null = null;
  // The reconciliation sweep, its hour scaled down to seconds (what no notification brought, it finds).
  const sweepPos = createPosClient(args.provider, { logger });
  const sweep = createLateSweep({
    checkout,
    getPos: () => sweepPos,
    now: () => systemClock.now(),
    timers: systemTimers,
    logger,
    tuning: { everyMs: 2_000, ratePerSec: 50 },
  });
  const stopCheckout = () => (checkoutStopped ??= sweep.stop().then(() => checkout.stop()));
  checkout.resume();
  sweep.start();
  pusher.start();
  relay.start();

  process.on('message', (m: DriverMessage) => {
    if (m.type === 'sell') {
      // The outbox row is written with the journal insert, so the ack never runs ahead of either.
      answerSell(checkout, m);
    } else if (m.type === 'quiesce') {
      // The end of the run: no new journal events (polls, final details), the outbox drains to the Hub.
      void stopCheckout().then(() => {
        pusher.kick();
        report();
        send({ type: 'quiesced' });
      });
    } else if (m.type === 'stop') {
      void (async () => {
        await relay.stop();
        await pusher.stop();
        await stopCheckout();
        db.close();
        logger.info('hub chaos counter stopped');
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
  const recordedOrderNos = (
    db.prepare("SELECT DISTINCT order_no AS o FROM webhook_events WHERE kind = 'pos'").all() as { o: string }[]
  ).map((r) => r.o);
  send({ type: 'ready', webhookUrl: '', orders, hub: hubReport(), recordedOrderNos });
}

function tranIdOf(n: RelayNotification, header: string): string | null {
  const want = header.toLowerCase();
  for (const [k, v] of Object.entries(n.headers)) if (k.toLowerCase() === want) return v;
  return null;
}

runChild('hub chaos counter', main);
