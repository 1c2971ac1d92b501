// A module of the core (orders, terminal, settings, top-ups, receipts and shifts, ...): its share
// of the contract's handlers, built from the shared services (core-services.ts) and what it takes
// of other modules, with its own start and stop. The composition root (app-core.ts) builds the
// shared services and the modules, and only wires.
import type { CallsSpec, Handlers } from '../shared/contract-kit';
import type { FieldErrors } from '../shared/errors';

export interface CoreModule<C extends CallsSpec> {
  handlers: Handlers<C>;
  /** After the core is built: resume work left by a crash, etc. */
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** Checks of this module's form calls that only main can make, shown with the schema's (see DispatchOptions.moreFieldErrors). */
  fieldChecks?: { [K in keyof C]?: (args: unknown) => FieldErrors };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every module's handlers as one object, typed as all of them together. */
type MergedHandlers<M extends readonly { handlers: object }[]> = UnionToIntersection<M[number]['handlers']>;

/**
 * The modules' handlers as one object for the dispatcher. Each call has one owner: a call name two
 * modules answer is refused (the later one would silently win a spread).
 */
export function mergeHandlers<const M extends readonly { handlers: object }[]>(modules: M): MergedHandlers<M> {
  const out: Record<string, unknown> = {};
  const owner = new Map<string, number>();
  modules.forEach((m, i) => {
    for (const [name, handler] of Object.entries(m.handlers)) {
      const first = owner.get(name);
      if (first !== undefined)
        throw new Error(
          `The call ${name} is answered by two modules (number ${first + 1} and number ${i + 1} of the list): each call has one owner.`,
        );
      owner.set(name, i);
      out[name] = handler;
    }
  });
  return out as MergedHandlers<M>;
}
