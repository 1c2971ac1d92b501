// Loading on mount, and effects that follow a few values, without listing every value they read:
// the effect run is always the latest one given (so it reads the current props and store), and it
// runs after the first render and again whenever one of `keys` changes (compared as React compares
// dependencies, with Object.is). The one place that decides when; callers say only what.
import { useEffect, useRef } from 'react';

/** An effect, with the cleanup it may return (run before the next one and on unmount). */
export type Effect = () => void | (() => void);

/** Whether two lists of keys differ, as React compares an effect's dependencies. */
export function keysChanged(before: readonly unknown[], after: readonly unknown[]): boolean {
  return before.length !== after.length || before.some((k, i) => !Object.is(k, after[i]));
}

/** Runs the latest `effect` after the first render and whenever one of `keys` changes. */
export function useOnChange(effect: Effect, keys: readonly unknown[]): void {
  const latest = useRef(effect);
  latest.current = effect;
  const seen = useRef<{ keys: readonly unknown[]; version: number } | null>(null);
  if (seen.current === null) seen.current = { keys, version: 0 };
  else if (keysChanged(seen.current.keys, keys)) seen.current = { keys, version: seen.current.version + 1 };
  const version = seen.current.version;
  useEffect(() => latest.current(), [version]);
}

/** Runs `effect` once, after the first render (loading what a screen shows). */
export function useOnMount(effect: Effect): void {
  useOnChange(effect, []);
}
