// The generic machinery of the one contract: types derived from the zod schemas, and the
// transport-independent dispatcher that validates sender and arguments before any handler runs.
import { z } from 'zod';
import { AppError, isAppError, issueFields, type AppErrorShape, type FieldErrors } from './errors';

interface CallSpec<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  args: A;
  result: R;
  /** Only after the admin PIN unlocked Settings. */
  admin?: boolean;
  /**
   * Set on calls that carry a form: arguments outside the schema are answered VALIDATION with this
   * message and one error per field, shown next to the field. Without it: BAD_ARGUMENTS (a caller bug).
   */
  invalid?: string;
}
export type CallsSpec = Record<string, CallSpec>;
export type EventsSpec = Record<string, z.ZodType>;

/** The arguments of a call that takes none. */
export const Empty = z.object({}).strict();
/** A row number in one of main's tables (an order, a top-up, a print job, a shift). */
export const RowId = z.number().int().positive();
/** The arguments of a call about one row: `{ id }`. */
export const IdArgs = z.object({ id: RowId }).strict();

/**
 * The fields of an object schema as a patch: each optional and without its default, so a field
 * left out keeps its saved value when the owner merges the patch (the merged whole is checked again).
 */
export function patchOf<S extends z.ZodRawShape>(shape: S): z.ZodType<{ [K in keyof S]?: z.output<S[K]> }> {
  const fields: Record<string, z.core.$ZodType> = {};
  for (const [k, s] of Object.entries(shape)) fields[k] = z.optional(s instanceof z.ZodDefault ? s.unwrap() : s);
  return z.object(fields) as z.ZodType<{ [K in keyof S]?: z.output<S[K]> }>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorShape };

export type CallName<C extends CallsSpec> = keyof C & string;
export type CallArgs<C extends CallsSpec, K extends keyof C> = z.input<C[K]['args']>;
export type CallValue<C extends CallsSpec, K extends keyof C> = z.output<C[K]['result']>;
export type EventName<E extends EventsSpec> = keyof E & string;
export type EventPayload<E extends EventsSpec, K extends keyof E> = z.output<E[K]>;

/** What a transport knows about who is calling. */
interface CallContext {
  /** The transport decided the sender is our own window / holds our token. */
  trusted: boolean;
  /** For logs: "ipc:frame 1" or "http:127.0.0.1". */
  sender: string;
}

export type Handlers<C extends CallsSpec> = {
  [K in keyof C]: (
    args: z.output<C[K]['args']>,
    ctx: CallContext,
  ) => Promise<z.input<C[K]['result']>> | z.input<C[K]['result']>;
};

/** The shape of window.counterpay, derived from the contract. */
export interface Bridge<C extends CallsSpec, E extends EventsSpec> {
  invoke<K extends CallName<C>>(name: K, args: CallArgs<C, K>): Promise<Result<CallValue<C, K>>>;
  on<K extends EventName<E>>(event: K, listener: (payload: EventPayload<E, K>) => void): () => void;
}

export interface DispatchOptions {
  log?: (level: 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
  /** Consulted for `admin` calls; throws an AppError when Settings is locked. */
  requireAdmin?: (ctx: CallContext) => void;
  /**
   * Checks of a form call that only main can make (a pasted key must parse), run beside the
   * schema when it fails, so every wrong field shows at once; the owner runs them again anyway.
   */
  moreFieldErrors?: (call: string, args: unknown) => FieldErrors;
}

export function createDispatcher<C extends CallsSpec>(calls: C, handlers: Handlers<C>, options: DispatchOptions = {}) {
  const log = options.log ?? (() => {});
  return async function dispatch(name: unknown, args: unknown, ctx: CallContext): Promise<Result<unknown>> {
    if (!ctx.trusted) {
      log('warn', 'call refused: untrusted sender', {
        sender: ctx.sender,
        call: typeof name === 'string' ? name.slice(0, 64) : typeof name,
      });
      return { ok: false, error: { code: 'UNTRUSTED_SENDER', message: 'This caller is not the CounterPay window.' } };
    }
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(calls, name)) {
      log('warn', 'call refused: unknown call', {
        sender: ctx.sender,
        call: typeof name === 'string' ? name.slice(0, 64) : typeof name,
      });
      return {
        ok: false,
        error: {
          code: 'UNKNOWN_CALL',
          message: `There is no call named ${JSON.stringify(String(name).slice(0, 64))}.`,
        },
      };
    }
    const spec = calls[name] as CallSpec;
    // The PIN first: a caller without it learns nothing, not even which of its fields are wrong.
    if (spec.admin) {
      try {
        options.requireAdmin?.(ctx);
      } catch (e) {
        if (isAppError(e)) return { ok: false, error: toShape(e) };
        throw e;
      }
    }
    const parsed = spec.args.safeParse(args === undefined ? {} : args);
    if (!parsed.success) {
      const fields = issueFields(parsed.error.issues);
      // A form with a wrong field is the cashier's to fix, not a caller's bug: not worth a warning.
      if (spec.invalid) {
        const all = { ...fields, ...options.moreFieldErrors?.(name, args) };
        return { ok: false, error: { code: 'VALIDATION', message: spec.invalid, details: { fields: all } } };
      }
      log('warn', 'call refused: bad arguments', { sender: ctx.sender, call: name, fields: Object.keys(fields) });
      return {
        ok: false,
        error: { code: 'BAD_ARGUMENTS', message: `The arguments of ${name} are not valid.`, details: { fields } },
      };
    }
    try {
      const handler = handlers[name as keyof C] as (a: unknown, c: CallContext) => unknown;
      const raw = await handler(parsed.data, ctx);
      // Results are parsed too: unknown keys are stripped, so nothing the schema does not name leaves main.
      const out = spec.result.safeParse(raw);
      if (!out.success) {
        log('error', 'handler returned a value outside its schema', {
          call: name,
          fields: issueFields(out.error.issues),
        });
        return {
          ok: false,
          error: { code: 'INTERNAL', message: 'CounterPay made an internal error. It has been logged.' },
        };
      }
      return { ok: true, value: out.data };
    } catch (e) {
      if (isAppError(e)) return { ok: false, error: toShape(e) };
      log('error', 'handler failed', { call: name, error: e instanceof Error ? e.message : String(e) });
      return {
        ok: false,
        error: { code: 'INTERNAL', message: 'CounterPay made an internal error. It has been logged.' },
      };
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;

function toShape(e: AppError | AppErrorShape): AppErrorShape {
  return { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
}

/** Validates an event payload against its schema before it leaves main. */
export function checkEvent<E extends EventsSpec, K extends EventName<E>>(
  events: E,
  name: K,
  payload: unknown,
): EventPayload<E, K> {
  const schema = events[name];
  if (!schema) throw new AppError('INTERNAL', `Unknown event ${name}`);
  return schema.parse(payload) as EventPayload<E, K>;
}

/** Renderer side: unwraps a Result, rebuilding the typed error from its code. */
export function unwrap<T>(r: Result<T>): T {
  if (r.ok) return r.value;
  throw new AppError(r.error.code, r.error.message, r.error.details);
}
