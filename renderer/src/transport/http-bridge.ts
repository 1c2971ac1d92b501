// The browser shell's side of the contract: calls over fetch, events over a streamed
// server-sent-events response. The printed address's one-time token (in the fragment) is spent
// at first load for an HttpOnly session cookie (POST /api/session); every request after carries
// the cookie only, so nothing in the page, its storage or its history can open another session.
import type { Result } from '../../../shared/contract-kit';
import type { CounterPayApi } from '../../../shared/contract';
import { TOKEN_HEADER } from '../../../shared/transport-names';

/** Takes the launch token from the URL fragment and removes it from the address bar; null without one (a reload: the cookie is the session). */
export function takeToken(): string | null {
  // Earlier versions kept the token in this tab's storage: nothing is kept there now.
  sessionStorage.removeItem('counterpay.token');
  const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (!m?.[1]) return null;
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return m[1];
}

const NOT_ANSWERING: Result<never> = {
  ok: false,
  error: { code: 'INTERNAL', message: 'CounterPay is not answering. Is it still running?' },
};

/** Spends `launch` for the session cookie: null when signed in, else the refusal to show. */
async function openSession(launch: string | null): Promise<Result<never> | null> {
  if (launch === null) return null;
  try {
    const res = await fetch('/api/session', {
      method: 'POST',
      headers: { [TOKEN_HEADER]: launch },
      credentials: 'same-origin',
    });
    const body = (await res.json()) as Result<never> | { ok: true };
    return body.ok ? null : body;
  } catch {
    return NOT_ANSWERING;
  }
}

type Listener = (payload: unknown) => void;

/**
 * A stream that neither opens nor says anything for this long is given up and opened again: on a
 * busy PC a connect can hang, and a half-dead connection never ends by itself. Main sends a
 * keep-alive every 15 s, so a live stream is never silent this long.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const SILENCE_TIMEOUT_MS = 45_000;

export function createHttpBridge(launch: string | null, onConnection: (up: boolean) => void): CounterPayApi {
  const listeners = new Map<string, Set<Listener>>();
  let started = false;
  const session = openSession(launch);

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
    // Without a session there is nothing to follow (the calls say why).
    if (await session) return;
    let delay = 500;
    for (;;) {
      const abort = new AbortController();
      let watchdog = setTimeout(() => abort.abort(), CONNECT_TIMEOUT_MS);
      const rearm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => abort.abort(), SILENCE_TIMEOUT_MS);
      };
      try {
        const res = await fetch('/api/events', { credentials: 'same-origin', signal: abort.signal });
        // Refused (the shell restarted: this page's session is gone): no reconnecting helps.
        if (res.status === 401) {
          onConnection(false);
          return;
        }
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
      const refused = await session;
      if (refused) return refused;
      try {
        const res = await fetch(`/api/call/${name}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ args }),
        });
        return (await res.json()) as Result<never>;
      } catch {
        return NOT_ANSWERING;
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
