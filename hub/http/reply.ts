// Turning failures into the Hub's error answers, and the checks every counter call makes.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { HubContext } from '../context';
import { fail, HubFailure } from '../errors';
import { authenticateCounter, type CounterRow } from '../store/counters';

export function sendError(reply: FastifyReply, e: unknown, log: FastifyRequest['log']): FastifyReply {
  if (e instanceof HubFailure) return reply.code(e.status).send({ code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) });
  const fe = e as { code?: string; statusCode?: number; message?: string };
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ code: 'HUB_TOO_LARGE', message: 'The request body is too large.' });
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply.code(fe.statusCode).send({ code: 'HUB_BAD_REQUEST', message: 'The request could not be read.', details: { reason: fe.message ?? '' } });
  }
  log.error({ err: e }, 'hub: unexpected error');
  return reply.code(500).send({ code: 'HUB_INTERNAL', message: 'The Hub failed to handle this request; it is logged. Try again.' });
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body);
  if (!r.success) {
    throw fail('HUB_BAD_REQUEST', 400, `Some fields are wrong: ${r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`, {
      issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  return r.data;
}

export function limitAddress(ctx: HubContext, req: FastifyRequest): void {
  const wait = ctx.perAddress.take(`ip:${req.ip}`, ctx.now());
  if (wait) throw fail('HUB_RATE_LIMITED', 429, 'Too many requests from this address; slow down.', { retryAfterMs: wait });
}

const bearer = (req: FastifyRequest): string | null => {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(h.trim()) : null;
  return m ? m[1]! : null;
};

/** Rate-limits by address, authenticates the counter, then rate-limits by credential. */
export async function counterOf(ctx: HubContext, req: FastifyRequest): Promise<CounterRow> {
  limitAddress(ctx, req);
  const token = bearer(req);
  if (!token) throw fail('HUB_UNAUTHENTICATED', 401, 'This call needs the counter\'s Hub credential (Authorization: Bearer ...). Enroll the counter first.');
  const counter = await authenticateCounter(ctx.db, token);
  const wait = ctx.perCredential.take(`ctr:${counter.id}`, ctx.now());
  if (wait) throw fail('HUB_RATE_LIMITED', 429, 'This counter is sending too many requests; slow down.', { retryAfterMs: wait });
  return counter;
}

export function requireAdmin(ctx: HubContext, req: FastifyRequest): void {
  limitAddress(ctx, req);
  if (!ctx.adminToken) throw fail('HUB_ADMIN_DISABLED', 403, 'The admin API is off: start the Hub with HUB_ADMIN_TOKEN set (or --admin-token-file).');
  const token = bearer(req);
  // Compare hashes so the comparison time does not depend on the token.
  if (!token || !safeTokenEqual(token, ctx.adminToken)) throw fail('HUB_FORBIDDEN', 403, 'The admin token is missing or wrong.');
}

function safeTokenEqual(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}
