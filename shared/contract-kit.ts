// The generic machinery of the one contract: types derived from the zod schemas, and the
// transport-independent dispatcher that validates sender and arguments before any handler runs.
import { z } from 'zod';
import { AppError, isAppError, type AppErrorShape } from './errors';

export interface CallSpec<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  args: A;
  result: R;
  /** Only after the admin PIN unlocked Settings. */
  admin?: boolean;
}
export type CallsSpec = Record<string, CallSpec>;
export type EventsSpec = Record<string, z.ZodType>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorShape };

export type CallName<C extends CallsSpec> = keyof C & string;
export type CallArgs<C extends CallsSpec, K extends keyof C> = z.input<C[K]['args']>;
export type CallValue<C extends CallsSpec, K extends keyof C> = z.output<C[K]['result']>;
export type EventName<E extends EventsSpec> = keyof E & string;
export type EventPayload<E extends EventsSpec, K extends keyof E> = z.output<E[K]>;

/** What a transport knows about who is calling. */
export interface CallContext {
  /** The transport decided the sender is our own window / holds our token. */
  trusted: boolean;
  /** For logs: "ipc:frame 1" or "http:127.0.0.1". */
  sender: string;
}

export type Handlers<C extends CallsSpec> = {
  [K in keyof C]: (args: z.output<C[K]['args']>, ctx: CallContext) => Promise<z.input<C[K]['result']>> | z.input<C[K]['result']>;
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
}

function zodIssuesToFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '(arguments)';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

export function createDispatcher<C extends CallsSpec>(calls: C, handlers: Handlers<C>, options: DispatchOptions = {}) {
  const log = options.log ?? (() => {});
  return async function dispatch(name: unknown, args: unknown, ctx: CallContext): Promise<Result<unknown>> {
    if (!ctx.trusted) {
      log('warn', 'call refused: untrusted sender', { sender: ctx.sender, call: typeof name === 'string' ? name.slice(0, 64) : typeof name });
      return { ok: false, error: { code: 'UNTRUSTED_SENDER', message: 'This caller is not the CounterPay window.' } };
    }
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(calls, name)) {
      log('warn', 'call refused: unknown call', { sender: ctx.sender, call: typeof name === 'string' ? name.slice(0, 64) : typeof name });
      return { ok: false, error: { code: 'UNKNOWN_CALL', message: `There is no call named ${JSON.stringify(String(name).slice(0, 64))}.` } };
    }
    const spec = calls[name] as CallSpec;
    const parsed = spec.args.safeParse(args === undefined ? {} : args);
    if (!parsed.success) {
      const fields = zodIssuesToFields(parsed.error);
      log('warn', 'call refused: bad arguments', { sender: ctx.sender, call: name, fields: Object.keys(fields) });
      return { ok: false, error: { code: 'BAD_ARGUMENTS', message: `The arguments of ${name} are not valid.`, details: { fields } } };
    }
    try {
      if (spec.admin) options.requireAdmin?.(ctx);
      const handler = handlers[name as keyof C] as (a: unknown, c: CallContext) => unknown;
      const raw = await handler(parsed.data, ctx);
      // Results are parsed too: unknown keys are stripped, so nothing the schema does not name leaves main.
      const out = spec.result.safeParse(raw);
      if (!out.success) {
        log('error', 'handler returned a value outside its schema', { call: name, fields: zodIssuesToFields(out.error) });
        return { ok: false, error: { code: 'INTERNAL', message: 'CounterPay made an internal error. It has been logged.' } };
      }
      return { ok: true, value: out.data };
    } catch (e) {
      if (isAppError(e)) return { ok: false, error: toShape(e) };
      log('error', 'handler failed', { call: name, error: e instanceof Error ? e.message : String(e) });
      return { ok: false, error: { code: 'INTERNAL', message: 'CounterPay made an internal error. It has been logged.' } };
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;

function toShape(e: AppError | AppErrorShape): AppErrorShape {
  return { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
}

/** Validates an event payload against its schema before it leaves main. */
export function checkEvent<E extends EventsSpec, K extends EventName<E>>(events: E, name: K, payload: unknown): EventPayload<E, K> {
  const schema = events[name];
  if (!schema) throw new AppError('INTERNAL', `Unknown event ${name}`);
  return schema.parse(payload) as EventPayload<E, K>;
}

/** Renderer side: unwraps a Result, rebuilding the typed error from its code. */
export function unwrap<T>(r: Result<T>): T {
  if (r.ok) return r.value;
  throw new AppError(r.error.code, r.error.message, r.error.details);
}
