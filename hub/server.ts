// One CounterPay Hub instance: Fastify on HTTP or HTTPS, over a migrated HubDb. Stateless apart
// from its open relay streams, so several instances can share one PostgreSQL.
import { resolve } from 'node:path';
import Fastify, {
  type FastifyBaseLogger,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { Logger } from 'pino';
import type { DashboardContext, HubContext, HubLimits } from './context';
import type { HubDb } from './db/adapter';
import { schemaIsCurrent } from './db/migrations';
import { adminRoutes } from './http/admin-routes';
import { counterRoutes } from './http/counter-routes';
import { seatRoutes } from './http/seat-routes';
import { caseRoutes } from './http/case-routes';
import { SeatSignal } from './streams/seat-signal';
import { LiveFeed } from './streams/dashboard-live';
import { CredentialCache, type CredentialCacheOptions } from './http/credential-cache';
import { FloodBrake, type FloodBrakeOptions } from './http/flood-brake';
import { dashboardRoutes } from './http/dashboard-routes';
import { dashboardStaticRoutes } from './http/dashboard-static';
import { PROVIDER_PATHS, providerRoutes } from './http/provider-routes';
import { sendError } from './http/reply';
import { dashboardHostCheck } from './http/audiences';
import { type HubApp, zodSerializerCompiler, zodValidatorCompiler, type ZodTypeProvider } from './http/zod-provider';
import { countConnected, createMetrics, type HubMetrics } from './metrics';
import { KeyedTokenBuckets } from '../shared/token-bucket';
import { RelayHub } from './streams/relay-hub';
import { DEFAULT_ATTENTION, type AttentionConfig } from './store/attention';
import { DEFAULT_THROTTLE, type ThrottlePolicy } from './store/login-throttle';
import { DEFAULT_SESSION_POLICY, sessionsAlive, type SessionPolicy } from './store/managers';
import {
  createIngestBatcher,
  DEFAULT_HOLD,
  pruneOlderThan,
  RELAY_CHANNEL,
  REVOKED_PREFIX,
  type HoldPolicy,
} from './store/notifications';
import { liveCounterCredentials } from './store/counters';
import { pruneSeatHolds } from './store/seat-release';
import { dropExpiredHeld, releaseHeld } from './store/quarantine';
import { programmeVersion } from './store/programme';
import type { HubMerchantKeys } from './webhook/verify-pos';

export interface HubBuildOptions {
  db: HubDb;
  tls?: { cert: string; key: string } | null;
  merchant: HubMerchantKeys | null;
  tranIdHeader?: string;
  adminToken?: string | null;
  heartbeatMs?: number;
  retentionDays?: number;
  pruneEveryMs?: number;
  /** Notifications of orders no counter owns yet: how long and how many (per kind) are held for their counter (default 10 minutes, 1000). */
  hold?: Partial<HoldPolicy>;
  /** How often held notifications are checked (released to an owner known since, or dropped when expired); default 15 s. */
  holdSweepMs?: number;
  limits?: Partial<HubLimits>;
  /** Requests per minute (bursts of a fifth of it) per counter credential, per address, and for the provider's addresses. */
  rateLimits?: { perCredential?: number; perAddress?: number; perProvider?: number; perBillsAddress?: number };
  /** How an address refused again and again past perAddress is slowed (its refusals held; see http/flood-brake.ts). */
  floodBrake?: FloodBrakeOptions;
  /** Credentials served from memory, and the lookups of unknown ones per address (see http/credential-cache.ts). */
  credentials?: CredentialCacheOptions;
  logger: Logger;
  now?: () => number;
  defaultMetrics?: boolean;
  /** How often seat holds past their `until` are ended and told to counters (default 2 s). */
  seatSweepMs?: number;
  /** A show's seat changes are told to its counters at most once per this window (default 250 ms: streams/seat-signal.ts). */
  seatSignalWindowMs?: number;
  /** The built dashboard web app served under /dashboard/ (default: out/hub-dashboard of this checkout). */
  dashboardDir?: string;
  /** The manager's dashboard: session lifetimes, login throttling, Needs-attention thresholds (closing time). */
  dashboard?: {
    session?: Partial<SessionPolicy>;
    throttle?: Partial<ThrottlePolicy>;
    attention?: Partial<AttentionConfig>;
    secureCookie?: boolean;
    loginsPerMinute?: number;
  };
  /**
   * The reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs, e.g. ['127.0.0.1']).
   * Without it, behind a proxy every client has the proxy's address. Never `true`: a client could
   * then choose its own address.
   */
  trustProxy?: string[];
  /**
   * The Hub's public origins as browsers open it (e.g. ['https://hub.example.ng']). Given, the
   * dashboard answers only those Host names and takes writes only from those origins; without it,
   * a write's Origin must be the request's own Host under the request's scheme.
   */
  publicUrls?: string[];
}

export interface HubOptions extends HubBuildOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** A Hub built, not yet listening: `app.inject()` works; `app.listen()` (or startHub) serves it. */
export interface BuiltHub {
  app: HubApp;
  ctx: HubContext;
  /** Runs the retention pruner once now; resolves to the number of notifications deleted. */
  prune(): Promise<number>;
  /** Checks the held notifications once now: released to owners known since, dropped when expired. */
  sweepHeld(): Promise<{ released: number; dropped: number }>;
  /** The seat changes told to this instance's relay streams (coalesced per show). */
  seatSignal: SeatSignal;
  /** Stops the relay, the live feed and the pruner, and closes the app (and its sockets). */
  close(): Promise<void>;
}

export interface Hub extends BuiltHub {
  url: string;
  port: number;
  webhookUrls: { pos: string; bills: string };
}

/** Where `npm run build:hub` puts the dashboard's web app. */
export const DEFAULT_DASHBOARD_DIR = resolve(__dirname, '..', 'out', 'hub-dashboard');

const bucket = (perMinute: number) =>
  new KeyedTokenBuckets({ perMinute, burst: Math.max(10, Math.round(perMinute / 5)) });

const limitsOf = (o: HubBuildOptions): HubLimits => ({
  webhookBodyBytes: 64 * 1024,
  billsBodyBytes: 8 * 1024,
  syncBodyBytes: 2 * 1024 * 1024,
  otherBodyBytes: 16 * 1024,
  ...o.limits,
});

/** The manager's dashboard: its policies and its live feed (not started). */
function dashboardContext(o: HubBuildOptions, now: () => number): DashboardContext {
  const session: SessionPolicy = { ...DEFAULT_SESSION_POLICY, ...o.dashboard?.session };
  const live = new LiveFeed({
    db: o.db,
    heartbeatMs: o.heartbeatMs ?? 5000,
    now,
    aliveSessions: (keys) => sessionsAlive(o.db, keys, now(), session),
    onError: (e) => o.logger.error({ err: e }, 'hub: dashboard live feed failed to read changes'),
  });
  return {
    session,
    throttle: { ...DEFAULT_THROTTLE, ...o.dashboard?.throttle },
    attention: { ...DEFAULT_ATTENTION, ...o.dashboard?.attention },
    secureCookie: o.dashboard?.secureCookie ?? Boolean(o.tls),
    loginLimiter: bucket(o.dashboard?.loginsPerMinute ?? 60),
    publicOrigins: (o.publicUrls ?? []).map((u) => new URL(u).origin),
    live,
  };
}

/** Everything a route shares (context.ts): the relay and the live feed made, not started. */
function hubContext(o: HubBuildOptions, now: () => number, hold: HoldPolicy, metrics: HubMetrics): HubContext {
  const relay = new RelayHub({
    db: o.db,
    heartbeatMs: o.heartbeatMs ?? 1000,
    now,
    onRelayed: (d, lagMs) => {
      metrics.relayed.inc({ kind: d.kind });
      if (!d.replay) metrics.relayLag.observe(lagMs / 1000);
    },
    onError: (e) => o.logger.error({ err: e }, 'hub: relay stream failed to read deliveries'),
    programmeVersion: (branch) => programmeVersion(o.db, branch),
    canVerify: o.merchant !== null,
  });
  countConnected(metrics, () => relay.connectedCount());
  const ingestBatch = createIngestBatcher(o.db, 64, hold);
  // A webhook held while its owner's sync was committing (neither saw the other's rows) is looked
  // at again once its own commit is visible, as the sync does after its commit (counter-routes.ts):
  // whichever commits last releases it at once, not the sweep below 15 s later.
  const ingest: HubContext['ingest'] = async (n) => {
    const r = await ingestBatch(n);
    if (r.held)
      await releaseHeld(o.db, now(), null).then(
        (to) => relay.announce(to),
        (e: unknown) => o.logger.error({ err: e }, 'hub: checking held notifications failed'),
      );
    return r;
  };
  return {
    db: o.db,
    ingest,
    relay,
    now,
    merchant: o.merchant,
    tranIdHeader: o.tranIdHeader ?? 'X-Opay-Tranid',
    adminToken: o.adminToken ?? null,
    limits: limitsOf(o),
    metrics,
    perCredential: bucket(o.rateLimits?.perCredential ?? 600),
    perAddress: bucket(o.rateLimits?.perAddress ?? 1200),
    floodBrake: new FloodBrake(o.floodBrake),
    credentials: new CredentialCache(o.credentials),
    perProvider: bucket(o.rateLimits?.perProvider ?? 120_000),
    perBillsAddress: bucket(o.rateLimits?.perBillsAddress ?? 600),
    dashboard: dashboardContext(o, now),
  };
}

/** The Fastify instance with its zod schemas, hooks, error answers, health and every route. */
function hubApp(o: HubBuildOptions, ctx: HubContext): HubApp {
  // Under TLS the server is Node's https.Server, which is an http.Server to its users (@types/node
  // says so too): the routes see the same requests and replies either way.
  const options = {
    loggerInstance: o.logger,
    bodyLimit: ctx.limits.otherBodyBytes,
    // The whole request (headers and body) within 30 s; answers (the relay's streams) are not bound by it.
    requestTimeout: 30_000,
    trustProxy: o.trustProxy?.length ? o.trustProxy : false,
    ...(o.tls ? { https: { cert: o.tls.cert, key: o.tls.key } } : {}),
  };
  const app = Fastify<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    FastifyBaseLogger,
    ZodTypeProvider
  >(options);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  // Under TLS, browsers are told to keep to HTTPS. (Behind a TLS proxy, the proxy sends it.)
  if (o.tls)
    app.addHook('onSend', async (_req, reply) => void reply.header('strict-transport-security', 'max-age=31536000'));
  // A client that sends its headers slowly is cut: no socket held for minutes by a few bytes.
  app.server.headersTimeout = 10_000;
  app.setErrorHandler((err, req, reply) => sendError(reply, err, req.log));
  app.addHook('onRequest', dashboardHostCheck(ctx.dashboard.publicOrigins));
  app.setNotFoundHandler((_req, reply) =>
    reply.code(404).send({ code: 'HUB_NOT_FOUND', message: 'No such Hub address.' }),
  );

  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_req, reply) => {
    try {
      if (await schemaIsCurrent(o.db)) return { ok: true, database: o.db.kind };
      return reply.code(503).send({
        code: 'HUB_NOT_READY',
        message: 'The database schema is older than this Hub: migrations are not applied.',
      });
    } catch {
      return reply.code(503).send({ code: 'HUB_NOT_READY', message: 'The database does not answer.' });
    }
  });

  counterRoutes(app, ctx);
  seatRoutes(app, ctx);
  caseRoutes(app, ctx);
  adminRoutes(app, ctx);
  providerRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  dashboardStaticRoutes(app, o.dashboardDir ?? DEFAULT_DASHBOARD_DIR);
  return app;
}

/** The retention pruner and the sweep of held notifications, each run now on demand or by its timer. */
function upkeep(o: HubBuildOptions, ctx: HubContext, hold: HoldPolicy) {
  const now = ctx.now;
  const retentionMs = (o.retentionDays ?? 90) * 86_400_000;
  const prune = async () => {
    const n = await pruneOlderThan(o.db, now() - retentionMs);
    if (n) o.logger.info({ deleted: n }, 'hub: pruned old notifications');
    // Seat holds that are only history: ended a day ago, or of shows long past (store/seat-release.ts).
    const seats = await pruneSeatHolds(o.db, now());
    if (seats) o.logger.info({ deleted: seats }, 'hub: pruned old seat holds');
    return n;
  };
  // A release normally happens in the owner's sync; this one catches a webhook stored while that
  // sync was committing (neither saw the other). Then what expired is dropped, said in the log.
  const sweepHeld = async () => {
    const to = await releaseHeld(o.db, now(), null);
    ctx.relay.announce(to);
    const dropped = await dropExpiredHeld(o.db, now());
    for (const d of dropped) {
      ctx.metrics.dropped.inc({ kind: d.kind, reason: 'expired' });
      o.logger.warn(
        { notificationId: d.notificationId, kind: d.kind, orderKeys: d.orderKeys.slice(0, 2) },
        `hub: no counter synced this order within ${Math.round(hold.holdMs / 60_000)} minutes: notification dropped`,
      );
    }
    return { released: to.length, dropped: dropped.length };
  };
  const pruner = setInterval(
    () => void prune().catch((e) => o.logger.error({ err: e }, 'hub: pruning failed')),
    o.pruneEveryMs ?? 3_600_000,
  );
  pruner.unref();
  const sweeper = setInterval(
    () => void sweepHeld().catch((e) => o.logger.error({ err: e }, 'hub: checking held notifications failed')),
    o.holdSweepMs ?? 15_000,
  );
  sweeper.unref();
  const stop = () => {
    clearInterval(pruner);
    clearInterval(sweeper);
  };
  return { prune, sweepHeld, stop };
}

export async function buildHub(o: HubBuildOptions): Promise<BuiltHub> {
  const now = o.now ?? Date.now;
  const metrics = createMetrics({ db: o.db, defaultMetrics: o.defaultMetrics ?? false });
  const hold: HoldPolicy = {
    ...DEFAULT_HOLD,
    ...o.hold,
    onEvicted: (n) => metrics.dropped.inc({ kind: 'bills', reason: 'full' }, n),
  };
  const ctx = hubContext(o, now, hold, metrics);
  const { relay, credentials } = ctx;
  const { live } = ctx.dashboard;
  const app = hubApp(o, ctx);
  await relay.start();
  await live.start();
  const seatSignal = new SeatSignal({
    db: o.db,
    relay,
    now,
    sweepMs: o.seatSweepMs,
    windowMs: o.seatSignalWindowMs,
    onError: (e) => o.logger.error({ err: e }, 'hub: ending lapsed seat holds failed'),
  });
  await seatSignal.start();
  // A counter revoked on any instance is forgotten here at once (the relay channel's NOTIFY); the
  // counters' credentials are served from memory from the start, so a restart under a flood does
  // not make them pay their address's way in again.
  const unlistenRevoked = await o.db.listen(RELAY_CHANNEL, (payload) => {
    if (payload.startsWith(REVOKED_PREFIX)) credentials.forgetCounter(payload.slice(REVOKED_PREFIX.length));
  });
  for (const c of await liveCounterCredentials(o.db, 5_000)) credentials.rememberCounter(c.tokenHash, c.counter, now());
  const { prune, sweepHeld, stop } = upkeep(o, ctx, hold);

  return {
    app,
    ctx,
    prune,
    sweepHeld,
    seatSignal,
    async close() {
      stop();
      ctx.floodBrake.close();
      await relay.close();
      await live.close();
      await seatSignal.close();
      await unlistenRevoked();
      // Requests under way get a moment to finish; then every socket goes, including one a client
      // opened and never used (it would otherwise hold the close until Node's header timeout).
      const closing = app.close();
      const force = setTimeout(() => app.server.closeAllConnections(), 2_000);
      force.unref();
      try {
        await closing;
      } finally {
        clearTimeout(force);
      }
    },
  };
}

/** Builds the Hub and listens on `host:port`. */
export async function startHub(o: HubOptions): Promise<Hub> {
  const built = await buildHub(o);
  try {
    await built.app.listen({ host: o.host, port: o.port });
  } catch (e) {
    await built.close();
    throw e;
  }
  const addr = built.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const shownHost = o.host.includes(':') ? `[${o.host}]` : o.host;
  const url = `${o.tls ? 'https' : 'http'}://${shownHost}:${port}`;
  return { ...built, url, port, webhookUrls: { pos: url + PROVIDER_PATHS.pos, bills: url + PROVIDER_PATHS.bills } };
}
