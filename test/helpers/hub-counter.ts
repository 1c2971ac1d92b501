// A counter linked to a real CounterPay Hub, for the hub-link tests and bench:hub: its own SQLite
// file, the real POS client to the sandbox (status queries counted), the checkout, its journal
// synced to the Hub (which sends a notification only to the counter whose sync named the order),
// the webhook module's one ingest (as the webhook control builds it) and the relay consumer.
// Also the sandbox-and-Hub pair: the sandbox sends its POS webhooks to the Hub, which holds the
// sandbox merchant's clientAuthKey and provider public key (never its private key).
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import { openJournalDb } from '../../core/schema';
import { type Db } from '../../core/db';
import {
  createHubClient,
  createRelayConsumer,
  createSyncPusher,
  type HubConnection,
  type RelayConsumer,
  type RelayConsumerDeps,
  type SyncPusher,
  type SyncPusherDeps,
} from '../../core/hub-link';
import { memoryLogger } from '../../shared/logger';
import {
  createCheckoutService,
  type CheckoutService,
  type CheckoutTuningInput,
} from '../../core/orders/checkout-service';
import { relayHealthFeed } from '../../core/orders/relay-follower';
import { createPosClient } from '../../core/provider';
import type { PosClient, ProviderConfig } from '../../core/provider/types';
import { createWebhookIngest, relayedIngestInput, type IngestOutcome } from '../../core/webhook';
import type { DemoMerchantValues } from '../../sandbox';
import type { RelayNotification } from '../../shared/hub-contract';
import { enroll, startTestHub, type TestHub, type TestMerchant } from '../hub/helpers/hub-harness';
import type { OrdersSandbox } from './orders-sandbox';

/** The Hub's view of the sandbox merchant: clientAuthKey and provider public key; the merchant key pair only for tests that play the provider. */
export function hubMerchantOf(m: DemoMerchantValues): TestMerchant {
  const attacker = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    clientAuthKey: m.clientAuthKey,
    providerPublicPem: m.providerPublicKeyPem,
    // Not the provider's private key (only the sandbox has it): a key of someone else, for forgeries.
    providerPrivatePem: attacker.privateKey,
    merchantPublicPem: createPublicKey(m.merchantPrivateKeyPem).export({ type: 'spki', format: 'pem' }).toString(),
    merchantPrivatePem: m.merchantPrivateKeyPem,
  };
}

/** A real Hub for the sandbox's merchant, with the sandbox's POS webhooks pointed at it. */
export async function startSandboxHub(s: OrdersSandbox, o: Parameters<typeof startTestHub>[0] = {}): Promise<TestHub> {
  const hub = await startTestHub({ ...o, merchant: hubMerchantOf(s.merchant) });
  s.sandbox.setWebhookUrl(s.merchant.headMerchantId, hub.webhookUrls.pos);
  return hub;
}

export interface HubCounterOptions {
  dir: string;
  name: string;
  provider: ProviderConfig;
  hubUrl: string;
  /** An enrolled credential to reuse (a restart); else the counter enrolls. */
  enrolled?: { counterId: string; credential: string; branch: string };
  clock?: Clock;
  tuning?: CheckoutTuningInput;
  relay?: Partial<RelayConsumerDeps>;
  /** The sync pusher's timers or Hub client (tests that count what the sync path does). */
  pusher?: Pick<Partial<SyncPusherDeps>, 'timers' | 'client'>;
  /** Build the checkout without resume() (a test decides when). */
  noResume?: boolean;
}

export interface HubCounter {
  name: string;
  db: Db;
  svc: CheckoutService;
  relay: RelayConsumer;
  pusher: SyncPusher;
  conn: HubConnection;
  logger: ReturnType<typeof memoryLogger>;
  /** Status queries sent to the provider, per outOrderNo / orderNo asked. */
  queries: string[];
  /** What the ingest said about each relayed notification, in order. */
  outcomes: { eventId: string; outcome: IngestOutcome }[];
  /** Resolves when the relay is (or becomes) healthy / not healthy. */
  health(want: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startHubCounter(o: HubCounterOptions): Promise<HubCounter> {
  const clock = o.clock ?? { now: () => Date.now() };
  const logger = memoryLogger();
  const db = openJournalDb(join(o.dir, `${o.name}.sqlite`));
  const enrolled = o.enrolled ?? (await enroll({ url: o.hubUrl }, o.name, o.provider.merchantId));
  const conn: HubConnection = {
    url: o.hubUrl,
    counterId: enrolled.counterId,
    credential: enrolled.credential,
    branch: enrolled.branch,
  };
  const pusher = createSyncPusher({
    db,
    connection: () => conn,
    client: createHubClient(),
    clock,
    logger,
    status: () => ({ appVersion: '0.1.0', profile: 'production', openPayments: 0 }),
    ...o.pusher,
  });
  const real = createPosClient(o.provider, { logger, clock });
  const queries: string[] = [];
  const pos: PosClient = {
    createOrder: (i) => real.createOrder(i),
    queryOrder: (by) => {
      queries.push('orderNo' in by ? by.orderNo : by.outOrderNo);
      return real.queryOrder(by);
    },
    depositCallbackStatus: (by) => real.depositCallbackStatus(by),
  };
  const relayHealth = relayHealthFeed();
  const svc = createCheckoutService({
    relayHealth,
    db,
    pos,
    clock,
    logger,
    journalSink: pusher.sink,
    settings: () => ({
      counterName: o.name,
      headMerchantId: o.provider.headMerchantId,
      merchantId: o.provider.merchantId,
      orderExpireSeconds: 300,
    }),
    ...(o.tuning ? { tuning: o.tuning } : {}),
  });
  // The webhook module's ingest, as webhook-control builds it (keys, corrected clock, ownership).
  const ingest = createWebhookIngest({
    db,
    logger,
    clock,
    getConfig: () => o.provider,
    onPosNotification: (n) => svc.onWebhook(n),
    onBillsCallback: () => {},
    ownsPosOrder: (n) => svc.ownsOrder(n),
  });
  const outcomes: HubCounter['outcomes'] = [];
  const relay = createRelayConsumer({
    db,
    connection: () => conn,
    client: createHubClient(),
    clock,
    logger,
    ackDelayMs: 5,
    ingest: (n: RelayNotification) => {
      const r = ingest(relayedIngestInput(n, o.provider.conventions.webhookTranIdHeader));
      outcomes.push({ eventId: n.eventId, outcome: r.outcome });
      return r.outcome;
    },
    ...o.relay,
  });
  relayHealth.set(relay);
  if (!o.noResume) svc.resume();
  relay.start();
  pusher.start();
  return {
    name: o.name,
    db,
    svc,
    relay,
    pusher,
    conn,
    logger,
    queries,
    outcomes,
    health: (want) =>
      new Promise<void>((resolve) => {
        if (relay.healthy() === want) return resolve();
        const off = relay.onChange((h) => {
          if (h !== want) return;
          off();
          resolve();
        });
      }),
    async close() {
      await relay.stop();
      await pusher.stop();
      await svc.stop();
      db.close();
    },
  };
}
