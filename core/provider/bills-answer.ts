// Turns an HTTP answer of the bills API into a validated payload or a PROVIDER_* AppError.
import type { z } from 'zod';
import type { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { describeIssues, parseJson, snippet } from './answer-utils';
import { BillsEnvelopeWire, isWrapped } from './bills-schemas';
import type { HttpAnswer } from './http-transport';
import { authError, badResponseError, classifyRefusal, httpError, type ProviderCallContext } from './provider-errors';

const SUCCESS = '00000';

export function readBillsAnswer<S extends z.ZodType>(
  ctx: ProviderCallContext,
  answer: HttpAnswer,
  schema: S,
  logger: Logger,
): z.infer<S> {
  const fail = (e: AppError): never => {
    logger.warn('bills call refused or unreadable', {
      op: ctx.op,
      code: e.code,
      httpStatus: answer.status,
      providerCode: e.details?.providerCode,
      reason: e.details?.reason,
    });
    throw e;
  };
  const ok2xx = answer.status >= 200 && answer.status < 300;
  const parsed = parseJson(answer.text);
  const envelope = parsed.ok && isWrapped(parsed.value) ? BillsEnvelopeWire.safeParse(parsed.value) : undefined;
  const env = envelope?.success ? envelope.data : undefined;

  if (answer.status === 401 || answer.status === 403) {
    return fail(
      authError(ctx, {
        httpStatus: answer.status,
        ...(env ? { providerCode: env.code, providerMessage: env.message } : {}),
      }),
    );
  }
  if (answer.status >= 500) {
    return fail(
      httpError(
        ctx,
        answer.status,
        snippet(answer.text),
        env ? { providerCode: env.code, providerMessage: env.message } : {},
      ),
    );
  }
  if (env && env.code !== SUCCESS) {
    return fail(classifyRefusal(ctx, env.code, env.message, ok2xx ? {} : { httpStatus: answer.status }));
  }
  if (!ok2xx) return fail(httpError(ctx, answer.status, snippet(answer.text)));
  if (!parsed.ok) return fail(badResponseError(ctx, 'malformed-json', { httpStatus: answer.status }));
  if (envelope && !envelope.success)
    return fail(badResponseError(ctx, 'schema', { issues: describeIssues(envelope.error) }));

  const payload = env ? env.data : parsed.value;
  const result = schema.safeParse(payload);
  if (!result.success) return fail(badResponseError(ctx, 'schema', { issues: describeIssues(result.error) }));
  return result.data;
}
