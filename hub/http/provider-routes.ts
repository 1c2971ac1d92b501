// The provider's two addresses: POS payment webhooks (checked, then stored, then answered) and
// bills callbacks (stored and passed on unverified: the counter holds the bills secret). Bodies are
// read as text, because the counter re-checks exactly what the provider sent. A repeat is known by
// what the provider signed, not by its bytes; the routing headers (unsigned) never widen who gets
// it: the claimants of its order only, or held until a claimant is known (store/quarantine.ts), if
// it could be a live counter's and its address has room (store/holding.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { WEBHOOK_REFUSAL_CODES as C, WEBHOOK_SUCCESS } from '../../protocol/pos-webhook';
import type { HubContext } from '../context';
import type { NotificationIngestResult, NotificationKind } from '../store/notifications';
import { checkPosWebhook, readBillsCallback } from '../webhook/verify-pos';

export const PROVIDER_PATHS = { pos: '/provider/pos-webhook', bills: '/provider/bills-callback' } as const;

export function providerRoutes(app: FastifyInstance, ctx: HubContext): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    const refuse = (reply: FastifyReply, kind: NotificationKind, status: number, code: string, reason: string) => {
      ctx.metrics.refused.inc({ kind, reason: code });
      reply.log.warn({ kind, code, reason }, 'hub: provider notification refused');
      return reply.code(status).send({ code, message: reason });
    };

    scope.setErrorHandler((err: { code?: string; statusCode?: number }, req, reply) => {
      const kind: NotificationKind = req.url.startsWith(PROVIDER_PATHS.bills) ? 'bills' : 'pos';
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(reply, kind, 413, C.tooLarge, 'body is too large');
      if (err.statusCode && err.statusCode < 500)
        return refuse(reply, kind, 400, C.malformed, 'request could not be read');
      req.log.error({ err }, 'hub: provider notification failed');
      return reply.code(500).send({ code: C.internal, message: 'not stored; send again' });
    });

    const stored = (
      kind: NotificationKind,
      r: NotificationIngestResult,
      orderKeys: string[],
      log: FastifyReply['log'],
    ) => {
      if (r.duplicate) return;
      if (r.notificationId !== null) ctx.metrics.received.inc({ kind });
      if (r.held) ctx.metrics.held.inc({ kind });
      if (r.dropped) {
        const reason = r.dropReason ?? 'full';
        ctx.metrics.dropped.inc({ kind, reason });
        // A bills callback no live counter could own is not stored: counted, not logged (anyone can send them by the thousand).
        if (r.notificationId !== null)
          log.warn(
            { kind, notificationId: r.notificationId, orderKeys: orderKeys.slice(0, 2), reason },
            'hub: notification of an unknown order sent to no counter',
          );
      }
      ctx.relay.announce(r.counterIds);
    };

    const limited = (reply: FastifyReply, kind: NotificationKind, ip: string): boolean => {
      // The bills callback is unauthenticated (the counter checks it): its own, far smaller bucket.
      const bucket = kind === 'bills' ? ctx.perBillsAddress : ctx.perProvider;
      if (!bucket.take(`prov:${ip}`, ctx.now())) return false;
      void refuse(reply, kind, 429, '42900', 'too many requests');
      return true;
    };

    scope.post(PROVIDER_PATHS.pos, { bodyLimit: ctx.limits.webhookBodyBytes }, async (req, reply) => {
      if (limited(reply, 'pos', req.ip)) return reply;
      const text = typeof req.body === 'string' ? req.body : '';
      if (!ctx.merchant) return refuse(reply, 'pos', 503, C.notConfigured, 'the Hub has no merchant keys configured');
      const now = ctx.now();
      const check = checkPosWebhook(text, ctx.merchant, now);
      if (!check.ok) return refuse(reply, 'pos', check.httpStatus, check.code, check.reason);
      const tranId = header(req.headers[ctx.tranIdHeader.toLowerCase()]);
      const branch = header(req.headers.merchantid);
      const headers: Record<string, string> = {};
      if (tranId) headers[ctx.tranIdHeader] = tranId;
      if (branch) headers.merchantId = branch;
      const orderKeys = tranId ? [tranId] : [];
      const r = await ctx.ingest({
        kind: 'pos',
        headers,
        body: text,
        contentKey: check.contentKey,
        orderKeys,
        branch: branch || null,
        source: req.ip,
        verifiedDetail: 'clientAuthKey, timestamp window and provider signature checked',
        now,
      });
      stored('pos', r, orderKeys, reply.log);
      return reply.code(200).send(WEBHOOK_SUCCESS);
    });

    scope.post(PROVIDER_PATHS.bills, { bodyLimit: ctx.limits.billsBodyBytes }, async (req, reply) => {
      if (limited(reply, 'bills', req.ip)) return reply;
      const text = typeof req.body === 'string' ? req.body : '';
      const cb = readBillsCallback(text);
      if (!cb)
        return refuse(
          reply,
          'bills',
          400,
          C.malformed,
          'body is not a bills callback (payload with its signed fields, and sha512)',
        );
      const r = await ctx.ingest({
        kind: 'bills',
        headers: {},
        body: text,
        contentKey: cb.contentKey,
        orderKeys: cb.orderKeys,
        branch: null,
        source: req.ip,
        verifiedDetail: 'not verified by the Hub (the counter checks sha512 with its bills secret)',
        now: ctx.now(),
      });
      stored('bills', r, cb.orderKeys, reply.log);
      return reply.code(200).send(WEBHOOK_SUCCESS);
    });
  });
}

const header = (v: string | string[] | undefined): string =>
  (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim().slice(0, 64);
