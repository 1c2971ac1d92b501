// The main process's logger interface and the simple loggers (console, memory, silent). The app
// writes rotating files through logging/log-files.ts. Never pass a secret to a logger; `redact` and
// `scrubText` (shared/redact.ts) mask anything that looks like one as a second line of defence.
import { redact, scrubText } from './redact';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function consoleLogger(scope = 'counterpay'): Logger {
  const line = (level: string, msg: string, fields?: Record<string, unknown>) => {
    const f = redact(fields);
    const text = `${new Date().toISOString()} ${level} [${scope}] ${scrubText(msg)}${f && Object.keys(f).length ? ' ' + JSON.stringify(f) : ''}`;
    if (level === 'ERROR') console.error(text);
    else if (level === 'WARN') console.warn(text);
    else console.log(text);
  };
  return {
    info: (m, f) => line('INFO', m, f),
    warn: (m, f) => line('WARN', m, f),
    error: (m, f) => line('ERROR', m, f),
  };
}

/**
 * A logger that keeps lines in memory: for tests that assert what was (not) logged.
 * @internal for tests
 */
export function memoryLogger(): Logger & { lines: { level: string; msg: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    const f = redact(fields);
    lines.push(f ? { level, msg: scrubText(msg), fields: f } : { level, msg: scrubText(msg) });
  };
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
