// Turning failures into the Hub's error answers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HubFailure } from '../errors';

export function sendError(reply: FastifyReply, e: unknown, log: FastifyRequest['log']): FastifyReply {
  if (e instanceof HubFailure)
    return reply
      .code(e.status)
      .send({ code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) });
  const fe = e as { code?: string; statusCode?: number; message?: string };
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return reply.code(413).send({ code: 'HUB_TOO_LARGE', message: 'The request body is too large.' });
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply.code(fe.statusCode).send({
      code: 'HUB_BAD_REQUEST',
      message: 'The request could not be read.',
      details: { reason: fe.message ?? '' },
    });
  }
  log.error({ err: e }, 'hub: unexpected error');
  return reply
    .code(500)
    .send({ code: 'HUB_INTERNAL', message: 'The Hub failed to handle this request; it is logged. Try again.' });
}
