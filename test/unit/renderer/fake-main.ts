// A stand-in for main behind the renderer's bridge: it implements the contract's `invoke` and `on`,
// checks every call's arguments, every answer and every event against the contract's zod schemas
// (so a test cannot feed a store something main could never send), and lets a test hold an
// answer back to deliver it late.
import { calls, events, type Calls, type CounterPayApi, type Events } from '../../../shared/contract';
import type { CallArgs, CallName, CallValue, EventName, EventPayload } from '../../../shared/contract-kit';
import { AppError, isAppError } from '../../../shared/errors';
import { HUB_NOT_SET_UP, type HubLinkView } from '../../../shared/hub-link';

type Answer<K extends CallName<Calls>> = (
  args: CallArgs<Calls, K>,
) => CallValue<Calls, K> | Promise<CallValue<Calls, K>>;
export type Answers = { [K in CallName<Calls>]?: Answer<K> };

export interface FakeMain {
  bridge: CounterPayApi;
  /** Every call made so far, in order. */
  calls: { name: string; args: unknown }[];
  emit<K extends EventName<Events>>(event: K, payload: EventPayload<Events, K>): void;
  listenerCount(): number;
  answer<K extends CallName<Calls>>(name: K, fn: Answer<K>): void;
}

export function fakeMain(answers: Answers = {}): FakeMain {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const made: { name: string; args: unknown }[] = [];
  const table: Record<string, ((args: unknown) => unknown) | undefined> = { ...answers } as never;

  const bridge: CounterPayApi = {
    async invoke(name, args) {
      made.push({ name, args });
      calls[name].args.parse(args);
      const fn = table[name];
      if (!fn)
        return { ok: false, error: { code: 'UNKNOWN_CALL', message: `The fake main has no answer for ${name}` } };
      try {
        return { ok: true, value: calls[name].result.parse(await fn(args)) as never };
      } catch (e) {
        const err = isAppError(e) ? e : new AppError('INTERNAL', String(e));
        return { ok: false, error: err.toJSON() };
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };

  return {
    bridge,
    calls: made,
    emit: (event, payload) => {
      const parsed = events[event].parse(payload);
      listeners.get(event)?.forEach((l) => l(parsed));
    },
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
    answer: (name, fn) => {
      table[name] = fn as never;
    },
  };
}

/** A promise with its resolve handle: an answer a test delivers when it chooses. */
export function later<T>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A Hub link view as main sends it (not joined unless `patch` says otherwise). */
export function hubView(patch: Partial<HubLinkView> = {}): HubLinkView {
  return {
    ...HUB_NOT_SET_UP,
    hubUrl: null,
    counterId: null,
    counterName: null,
    branch: null,
    enrolledAt: null,
    revokedAt: null,
    lastSyncAt: null,
    lastCheck: null,
    relay: 'off',
    sync: 'off',
    warnings: [],
    ...patch,
  };
}

/** A joined counter's view: Counter 2 of branch 256612 on https://hub.mycinema.ng, connected. */
export function joinedHubView(patch: Partial<HubLinkView> = {}): HubLinkView {
  return hubView({
    state: 'connected',
    toSync: 0,
    detail:
      'Connected to the Hub at https://hub.mycinema.ng: payment notifications come through it; nothing waits to be sent.',
    hubUrl: 'https://hub.mycinema.ng',
    counterId: 'ctr_0a1b2c3d4e5f',
    counterName: 'Counter 2',
    branch: '256612',
    enrolledAt: 1_763_900_000_000,
    lastSyncAt: 1_763_917_320_000,
    lastCheck: { at: 1_763_917_320_000, ok: true, message: 'The Hub knows this counter as Counter 2 (branch 256612)' },
    relay: 'connected',
    sync: 'synced',
    ...patch,
  });
}
