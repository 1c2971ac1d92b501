// How routes declare their schemas: zod schemas from shared/ for what comes in (`body`, `querystring`,
// `params`) and for what goes out (`response: { 200: … }`), as postgres-meta's routes do. This is a
// small Fastify type provider for zod 4 (no dependency): a handler's `req.body` is typed as its
// schema's output, and what it returns must be its response schema's input.
//
// In: the validator compiler refuses broken text anywhere in a request part (NUL, a lone surrogate:
// PostgreSQL refuses both), then the schema decides; a refusal is the Hub's usual HUB_BAD_REQUEST
// answer, naming each wrong field. Out: the serializer compiler checks the answer against the route's
// response schema and sends only what the schema declares. An answer that does not match is the
// Hub's fault, not the client's: the request gets HUB_INTERNAL (500), and the log names the route and
// the fields that are wrong, never their values (an answer may hold a credential).
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { z } from 'zod';
import { brokenText } from '../../shared/hub-contract';
import { fail, type HubFailure } from '../errors';

/** Fastify's view of a zod schema: requests typed as its output, answers as its input. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** A Hub instance (and each of its route scopes): zod schemas, the Hub's logger. */
export type HubApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

const isZod = (schema: unknown): schema is z.ZodType =>
  typeof (schema as { safeParse?: unknown } | null)?.safeParse === 'function';

export function zodIssues(error: z.ZodError, part: string): HubFailure {
  const where = (p: PropertyKey[]) => p.map(String).join('.') || part;
  return fail(
    'HUB_BAD_REQUEST',
    400,
    `Some fields are wrong: ${error.issues.map((i) => `${where(i.path)}: ${i.message}`).join('; ')}`,
    {
      issues: error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    },
  );
}

/** The path of the first text in `v` holding NUL or a lone surrogate (PostgreSQL refuses both), or null. */
function brokenTextAt(v: unknown, path: string[] = []): string[] | null {
  if (typeof v === 'string') return brokenText(v) ? path : null;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const at = brokenText(k) ? [...path, '(a key)'] : brokenTextAt(x, [...path, k]);
      if (at) return at;
    }
  }
  return null;
}

/** Routes declare zod schemas (`schema: { body, querystring, params }`); this checks them, and refuses broken text anywhere in them. */
export const zodValidatorCompiler = ({ schema, httpPart }: { schema: unknown; httpPart?: string }) => {
  if (!isZod(schema)) throw new Error(`hub: a route declares a ${httpPart ?? 'request'} schema that is not zod`);
  return (data: unknown) => {
    const broken = brokenTextAt(data);
    if (broken) {
      const where = broken.join('.') || httpPart || 'body';
      return {
        error: fail(
          'HUB_BAD_REQUEST',
          400,
          `Some fields are wrong: ${where}: holds NUL or a broken character: send plain text`,
          { issues: [{ path: broken.join('.'), message: 'holds NUL or a broken character' }] },
        ),
      };
    }
    const r = schema.safeParse(data ?? (httpPart === 'body' ? {} : data));
    return r.success
      ? { value: r.data }
      : { error: zodIssues(r.error, httpPart === 'querystring' ? 'query' : (httpPart ?? 'body')) };
  };
};

/** An answer that does not match its route's response schema: which fields, never their values. */
export class ResponseMismatch extends Error {
  constructor(
    readonly route: string,
    readonly issues: { path: string; problem: string }[],
  ) {
    super(
      `hub: the answer of ${route} does not match its response schema: ${issues.map((i) => `${i.path || '(the answer)'}: ${i.problem}`).join('; ')}`,
    );
    this.name = 'ResponseMismatch';
  }
}

/** Routes declare `response: { 200: Schema }`; the answer is checked against it and only what it declares is sent. */
export const zodSerializerCompiler = ({
  schema,
  method,
  url,
  httpStatus,
}: {
  schema: unknown;
  method: string;
  url: string;
  httpStatus?: string;
}) => {
  if (!isZod(schema)) throw new Error(`hub: ${method} ${url} declares a response schema that is not zod`);
  return (data: unknown): string => {
    const r = schema.safeParse(data);
    if (r.success) return JSON.stringify(r.data);
    // zod's messages name what was expected and what kind of value came, not the value itself.
    throw new ResponseMismatch(
      `${method} ${url} (${httpStatus ?? 'any status'})`,
      r.error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.'), problem: i.message })),
    );
  };
};
