// Server-sent events, read incrementally: text chunks in (split anywhere, even inside a line or a
// CRLF), whole events out. The WHATWG rules the relay stream needs: `id`, `event`, `data` (several
// data lines joined by "\n"), comment lines (":"), one optional space after the colon, and an
// event dispatched at a blank line; `retry` is ignored (the consumer has its own backoff).

export interface SseEvent {
  /** The block's `id:`, or null when it had none. */
  id: string | null;
  /** `message` when the block named none. */
  event: string;
  data: string;
}

/**
 * The longest line kept while waiting for its end, and the most data one event may gather over its
 * lines: a stream that never ends a line, or an event that never ends, is cut.
 * @internal for tests
 */
export const MAX_SSE_LINE = 1024 * 1024;

/** @internal for tests */
export class SseLineTooLong extends Error {
  constructor(what = 'line') {
    super(`a server-sent event ${what} is longer than ${MAX_SSE_LINE} characters`);
    this.name = 'SseLineTooLong';
  }
}

export function createSseParser(onEvent: (e: SseEvent) => void) {
  let buf = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  let dataChars = 0;
  let pendingCr = false;

  function line(l: string): void {
    if (l === '') {
      if (data.length) onEvent({ id, event: event || 'message', data: data.join('\n') });
      id = null;
      event = '';
      data = [];
      dataChars = 0;
      return;
    }
    if (l.startsWith(':')) return;
    const i = l.indexOf(':');
    const field = i < 0 ? l : l.slice(0, i);
    let value = i < 0 ? '' : l.slice(i + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataChars += value.length + 1;
      if (dataChars > MAX_SSE_LINE) throw new SseLineTooLong('event');
      data.push(value);
    } else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  }

  return {
    push(chunk: string): void {
      let s = chunk;
      // A CR ending the previous chunk and an LF starting this one are one line end.
      if (pendingCr && s.startsWith('\n')) s = s.slice(1);
      pendingCr = false;
      buf += s;
      for (;;) {
        const m = /\r\n|\r|\n/.exec(buf);
        if (!m) break;
        if (m[0] === '\r' && m.index === buf.length - 1) {
          pendingCr = true;
          line(buf.slice(0, m.index));
          buf = '';
          break;
        }
        line(buf.slice(0, m.index));
        buf = buf.slice(m.index + m[0].length);
      }
      if (buf.length > MAX_SSE_LINE) throw new SseLineTooLong();
    },
  };
}
