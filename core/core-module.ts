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
