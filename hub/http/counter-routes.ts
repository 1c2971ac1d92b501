// Calls of counters: enroll (anonymous, with a one-use code), then with the counter's credential
// (the counter audience's hook): journal sync, the relay stream and its acknowledgements, the
// branch's programme and the seat check.
import {
  AckRequestSchema,
  AckResponseSchema,
  EnrollRequestSchema,
  EnrollResponseSchema,
  HUB_API_PREFIX as P,
  MeResponseSchema,
  ORDER_CLAIM_PATH,
  OrderClaimRequestSchema,
  OrderClaimResponseSchema,
  RELAY_STREAM_PATH,
  SyncRequestSchema,
  SyncResponseSchema,
} from '../../shared/hub-contract';
import type { HubContext } from '../context';
import { HubFailure } from '../errors';
import { ackDeliveries } from '../store/notifications';
import { enrollCounter, recordCounterStatus, touchCounter } from '../store/counters';
import { storeSyncBatch } from '../store/journal';
import { claimOrders } from '../store/order-claims';
import { sha256 } from '../store/tokens';
import { releaseHeld } from '../store/quarantine';
import { settleFromJournal } from '../store/seat-settle';
import { layoutFiles } from '../store/screen-layouts';
import {
  HUB_PROGRAMME_PATH,
  HUB_SEATS_CHECK_PATH,
  HubProgrammeSchema,
  SeatCheckRequestSchema,
  SeatCheckResponseSchema,
} from '../../shared/hub-programme-contract';
import { readProgramme } from '../store/programme';
import { readCatalogue } from '../store/catalogue';
import { HUB_CATALOGUE_PATH, HubCatalogueSchema } from '../../shared/hub-sales-contract';
import { seatConflicts } from '../store/seat-taken';
import { RelayStreamQuerySchema } from '../../shared/hub-seats-contract';
import { anonymousAudience, counterAudience, counterOf } from './audiences';
import { counterApprovalRoutes } from './dashboard-after-sale';
import type { HubApp } from './zod-provider';

export function counterRoutes(app: HubApp, ctx: HubContext): void {
  void app.register(async (anon: HubApp) => {
    anon.addHook('onRequest', anonymousAudience(ctx));
    anon.post(
      `${P}/enroll`,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: EnrollRequestSchema, response: { 200: EnrollResponseSchema } },
      },
      async (req) => {
        const body = req.body;
        const r = await enrollCounter(ctx.db, body, ctx.now());
        // Known good from its first call: a counter enrolled behind a flooded address is not made to pay its way in.
        ctx.credentials.rememberCounter(
          sha256(r.credential),
          { id: r.counterId, name: body.counterName, branch: r.branch, revokedAt: null },
          ctx.now(),
        );
        req.log.info(
          { counterId: r.counterId, branch: r.branch, counterName: body.counterName },
          'hub: counter enrolled',
        );
        return r;
      },
    );
  });

  void app.register(async (counters: HubApp) => {
    counters.addHook('onRequest', counterAudience(ctx));

    counters.get(`${P}/me`, { schema: { response: { 200: MeResponseSchema } } }, async (req) => {
      const c = counterOf(req);
      await touchCounter(ctx.db, c.id, ctx.now());
      return { counterId: c.id, name: c.name, branch: c.branch };
    });

    counters.post(
      `${P}/sync`,
      {
        bodyLimit: ctx.limits.syncBodyBytes,
        schema: { body: SyncRequestSchema, response: { 200: SyncResponseSchema } },
      },
      async (req) => {
        const c = counterOf(req);
        const body = req.body;
        const now = ctx.now();
        // The status is recorded even when the batch is refused: the manager sees the counter is alive.
        await recordCounterStatus(ctx.db, c.id, body.status, now);
        const r = await storeSyncBatch(ctx.db, c.id, body.events, now);
        ctx.metrics.syncEvents.inc(r.stored);
        if (r.refusedClaims.length)
          req.log.warn(
            { counterId: c.id, branch: c.branch, keys: r.refusedClaims.slice(0, 20) },
            "hub: a counter claimed orders made with another counter's code; refused",
          );
        if (r.sharedClaims.length)
          req.log.warn(
            { counterId: c.id, branch: c.branch, claims: r.sharedClaims.slice(0, 20) },
            'hub: order numbers claimed by more than one counter; the claimants of one branch get their notifications, the branch the provider names',
          );
        // Orders synced in a final state settle their seat holds (a settle call lost, a counter killed).
        await settleFromJournal(ctx.db, c, body.events, now);
        ctx.relay.announce(r.released);
        // After the commit: a webhook held while this sync was committing (neither saw the other's
        // rows) goes now; the ingest does the same after its own commit (server.ts).
        if (r.stored) ctx.relay.announce(await releaseHeld(ctx.db, now, null));
        return { lastSeq: r.lastSeq, stored: r.stored };
      },
    );

    counters.post(
      ORDER_CLAIM_PATH,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: OrderClaimRequestSchema, response: { 200: OrderClaimResponseSchema } },
      },
      async (req) => {
        const c = counterOf(req);
        const { orders } = req.body;
        const now = ctx.now();
        const r = await claimOrders(ctx.db, c, orders, now).catch((e: unknown) => {
          if (e instanceof HubFailure && e.code === 'HUB_CLAIM_NOT_YOURS')
            req.log.warn(
              { counterId: c.id, branch: c.branch, keys: e.details?.keys },
              "hub: a counter claimed orders made with another counter's code; refused",
            );
          throw e;
        });
        if (r.sharedClaims.length)
          req.log.warn(
            { counterId: c.id, branch: c.branch, claims: r.sharedClaims.slice(0, 20) },
            'hub: order numbers claimed by more than one counter; the claimants of one branch get their notifications, the branch the provider names',
          );
        ctx.relay.announce(r.released);
        // After the commit: what is held for these orders (a webhook that came first, or was stored
        // while this claim was committing) goes to this counter now.
        if (r.keys.length) ctx.relay.announce(await releaseHeld(ctx.db, now, { counterId: c.id, keys: r.keys }));
        return { claimed: r.claimed };
      },
    );

    counters.post(
      `${P}/relay/ack`,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: AckRequestSchema, response: { 200: AckResponseSchema } },
      },
      async (req) => {
        const c = counterOf(req);
        return { acked: await ackDeliveries(ctx.db, c.id, req.body.eventIds, ctx.now()) };
      },
    );

    counters.get(HUB_PROGRAMME_PATH, { schema: { response: { 200: HubProgrammeSchema } } }, async (req) => {
      const p = await readProgramme(ctx.db, counterOf(req).branch);
      // The screens' layouts go with the programme (a layout's change moves its version on too); always
      // sent, so a layout removed on the Hub ([]) is removed on the counters too.
      const programme = p.programme && { ...p.programme, layouts: await layoutFiles(ctx.db, p.branch) };
      return { branch: p.branch, version: p.version, updatedAt: p.updatedAt, programme };
    });

    // The branch's concessions catalogue (dashboard upload): an upload moves the programme's version
    // on too, so a counter told `event: programme` pulls both.
    counters.get(HUB_CATALOGUE_PATH, { schema: { response: { 200: HubCatalogueSchema } } }, async (req) => {
      const { updatedBy: _by, ...c } = await readCatalogue(ctx.db, counterOf(req).branch);
      return c;
    });

    counters.post(
      HUB_SEATS_CHECK_PATH,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: SeatCheckRequestSchema, response: { 200: SeatCheckResponseSchema } },
      },
      async (req) => {
        return {
          conflicts: await seatConflicts(ctx.db, counterOf(req).branch, req.body, ctx.now()),
        };
      },
    );

    counterApprovalRoutes(counters, ctx);

    counters.get(RELAY_STREAM_PATH, { schema: { querystring: RelayStreamQuerySchema } }, async (req, reply) => {
      const c = counterOf(req);
      await touchCounter(ctx.db, c.id, ctx.now());
      const h = req.headers['last-event-id'];
      const last = typeof h === 'string' && /^\d{1,18}$/.test(h) ? Number(h) : null;
      reply.hijack();
      // Every unacknowledged delivery is sent again on a new stream, whatever Last-Event-ID says:
      // ids are given at insert, so with two instances N+1 can reach the counter before N, and a
      // counter that got N+1 and lost N in transit would never see N again. (It de-duplicates on
      // eventId; Last-Event-ID is only logged.)
      // Its seat changes are the practice ones or the real ones, as the counter shows (streams/seat-signal.ts).
      ctx.relay.open(c.id, reply.raw, null, c.branch, req.query.practice === 'true');
      req.log.info({ counterId: c.id, lastEventId: last }, 'hub: relay stream opened');
    });
  });
}
