// Reading one answer of the Hub for a screen: loading, the answer, or the refusal in words; reload on
// demand, and again whenever `key` changes (the URL's filters). An older answer never overwrites a newer one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './api';

interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const ticket = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const run = useCallback(() => {
    const mine = ++ticket.current;
    setState((s) => ({ ...s, loading: true }));
    loader.current().then(
      (data) => mine === ticket.current && setState({ data, error: null, loading: false }),
      (e: unknown) =>
        mine === ticket.current && setState((s) => ({ data: s.data, error: errorText(e), loading: false })),
    );
  }, []);
  useEffect(() => {
    setState({ data: null, error: null, loading: true });
    run();
  }, [key, run]);
  return { ...state, reload: run };
}

/** Re-runs fn every `ms` while the page is visible. */
export function useEvery(ms: number, fn: () => void): void {
  const f = useRef(fn);
  f.current = fn;
  useEffect(() => {
    const t = setInterval(() => document.visibilityState === 'visible' && f.current(), ms);
    return () => clearInterval(t);
  }, [ms]);
}

/** Now, ticking every `ms` (for "4 min ago" and countdowns). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
