// The browser shell's side of the contract: calls over fetch, events over a streamed
// server-sent-events response (fetch, so the token travels as a header, never in a URL).
import type { Result } from '../../../shared/contract-kit';
import type { CounterPayApi } from '../../../shared/contract';
import { TOKEN_HEADER } from '../../../shared/transport-names';

const TOKEN_KEY = 'counterpay.token';

/** Takes the token from the URL fragment once, keeps it for this tab, and removes it from the address bar. */
export function takeToken(): string | null {
  const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (m?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, m[1]);
    history.replaceState(null, '', window.location.pathname + window.location.search);
    return m[1];
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

type Listener = (payload: unknown) => void;

/**
 * A stream that neither opens nor says anything for this long is given up and opened again: on a
 * busy PC a connect can hang, and a half-dead connection never ends by itself. Main sends a
 * keep-alive every 15 s, so a live stream is never silent this long.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const SILENCE_TIMEOUT_MS = 45_000;

export function createHttpBridge(token: string, onConnection: (up: boolean) => void): CounterPayApi {
  const listeners = new Map<string, Set<Listener>>();
  let started = false;

  const deliver = (name: string, data: string) => {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    listeners.get(name)?.forEach((l) => l(payload));
  };

  const stream = async () => {
    let delay = 500;
    for (;;) {
      const abort = new AbortController();
      let watchdog = setTimeout(() => abort.abort(), CONNECT_TIMEOUT_MS);
      const rearm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => abort.abort(), SILENCE_TIMEOUT_MS);
      };
      try {
        const res = await fetch('/api/events', { headers: { [TOKEN_HEADER]: token }, signal: abort.signal });
        if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
        onConnection(true);
        delay = 500;
        rearm();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          rearm();
          buf += value;
          let idx: number;
          while ((idx = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, idx);
            buf = buf.slice(idx + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of frame.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length) deliver(event, data.join('\n'));
          }
        }
      } catch {
        /* fall through to reconnect */
      } finally {
        clearTimeout(watchdog);
      }
      onConnection(false);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5000);
    }
  };

  return {
    async invoke(name, args) {
      try {
        const res = await fetch(`/api/call/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
          body: JSON.stringify({ args }),
        });
        return (await res.json()) as Result<never>;
      } catch {
        return { ok: false, error: { code: 'INTERNAL', message: 'CounterPay is not answering. Is it still running?' } };
      }
    },
    on(event, listener) {
      if (!started) {
        started = true;
        void stream();
      }
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
  };
}
