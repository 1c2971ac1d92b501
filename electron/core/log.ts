// The main process's logger. Never pass a secret to it; `redact` masks anything that looks like
// one as a second line of defence.

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const SECRET_FIELD = /key|secret|pin|token|sign|password|authorization|private/i;

export function redact(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!fields) return fields;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : v;
  return out;
}

export function consoleLogger(scope = 'counterpay'): Logger {
  const line = (level: string, msg: string, fields?: Record<string, unknown>) => {
    const f = redact(fields);
    const text = `${new Date().toISOString()} ${level} [${scope}] ${msg}${f && Object.keys(f).length ? ' ' + JSON.stringify(f) : ''}`;
    if (level === 'ERROR') console.error(text);
    else if (level === 'WARN') console.warn(text);
    else console.log(text);
  };
  return { info: (m, f) => line('INFO', m, f), warn: (m, f) => line('WARN', m, f), error: (m, f) => line('ERROR', m, f) };
}

/** A logger that keeps lines in memory: for tests that assert what was (not) logged. */
export function memoryLogger(): Logger & { lines: { level: string; msg: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    const f = redact(fields);
    lines.push(f ? { level, msg, fields: f } : { level, msg });
  };
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
