// Structured logs in rotating files in the data folder (`<data>/logs/counterpay.N.log`, one JSON
// record a line), written with pino through pino-roll in this process (no worker thread, so it runs
// the same under plain Node and in Electron main). Writes are synchronous: a record is on disk
// before the call returns, so nothing is lost when the process exits or is killed.
// A log write must never break selling: every failure (disk full, folder gone) is swallowed, noted
// once on the console, and the next record is tried again.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import pinoRoll, { type RollStream } from 'pino-roll';
import { redact, scrubKnown, scrubText } from '../../shared/redact';
import type { Logger } from '../../shared/logger';

const LOG_FILE_BASE = 'counterpay';
const FILE_NAME = /^counterpay\.(\d+)\.log$/;

/** One record as written (and as read back for diagnostics). */
export interface LogRecord {
  time: string;
  level: 'info' | 'warn' | 'error';
  scope: string;
  msg: string;
  [field: string]: unknown;
}

/** What the rest of the app may ask of the log files. */
export interface LogFiles {
  dir: string;
  /** The newest records, oldest first, reading back at most `maxBytes` of the files. */
  recent(maxBytes: number): LogRecord[];
  /** Known secret values (the keys in the vault) are masked wherever they appear in a record. */
  setSecretSource(source: () => readonly string[]): void;
}

/** @internal for tests */
export type FileLogger = Logger & LogFiles & { close(): void };

interface FileLoggerOptions {
  dir: string;
  scope: string;
  /** Also written here, e.g. the console logger when a terminal is watching. */
  echo?: Logger;
  maxFileBytes?: number;
  /** Older files kept besides the one in use. */
  keepFiles?: number;
}

/**
 * The log files in `dir`, newest first.
 * @internal for tests
 */
export function logFileNames(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => ({ n, num: Number(FILE_NAME.exec(n)?.[1] ?? NaN) }))
    .filter((x) => Number.isFinite(x.num))
    .sort((a, b) => b.num - a.num)
    .map((x) => x.n);
}

/** Reads back the newest records across the rotated files; lines that are not records are skipped. */
function readRecentRecords(dir: string, maxBytes: number): LogRecord[] {
  const chunks: string[] = [];
  let budget = maxBytes;
  for (const name of logFileNames(dir)) {
    if (budget <= 0) break;
    try {
      const file = join(dir, name);
      const size = statSync(file).size;
      const text = readFileSync(file, 'utf8');
      const take = Math.min(size, budget);
      let part = text.slice(Math.max(0, text.length - take));
      if (take < size) part = part.slice(part.indexOf('\n') + 1); // drop the cut first line
      chunks.unshift(part);
      budget -= take;
    } catch {
      /* a file rotated away while reading: skip it */
    }
  }
  const out: LogRecord[] = [];
  for (const line of chunks.join('\n').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as LogRecord;
      if (r && typeof r === 'object' && typeof r.msg === 'string') out.push(r);
    } catch {
      /* a half-written line from a crash */
    }
  }
  return out;
}

export async function openFileLogger(opts: FileLoggerOptions): Promise<FileLogger> {
  const echo = opts.echo;
  let secretSource: () => readonly string[] = () => [];
  let failing = false;
  let failures = 0;
  const noteFailure = (e: unknown) => {
    failures++;
    if (failing) return;
    failing = true; // once per failure spell, not once per record
    const text = `CounterPay could not write its log file in ${opts.dir}: ${e instanceof Error ? e.message : String(e)}. Selling goes on; check the disk.`;
    try {
      console.error(text);
    } catch {
      /* nowhere left to say it */
    }
  };

  let stream: RollStream | null = null;
  try {
    mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    stream = await pinoRoll({
      file: join(opts.dir, LOG_FILE_BASE),
      extension: '.log',
      size: opts.maxFileBytes ? `${Math.max(1, Math.round(opts.maxFileBytes / 1024))}k` : '5m',
      limit: { count: opts.keepFiles ?? 5, removeOtherLogFiles: true },
      sync: true,
      // While the disk refuses writes the unwritten tail is kept for a retry, up to this much;
      // newer records are dropped beyond it rather than growing memory without end.
      maxLength: 1024 * 1024,
      mode: 0o600,
      mkdir: true,
    });
    stream.on('error', noteFailure);
  } catch (e) {
    noteFailure(e);
    stream = null;
  }

  const knownSecrets = (): readonly string[] => {
    try {
      return secretSource();
    } catch {
      return [];
    }
  };

  const p = stream
    ? pino(
        {
          base: { scope: opts.scope },
          timestamp: pino.stdTimeFunctions.isoTime,
          formatters: { level: (label) => ({ level: label }) },
          hooks: { streamWrite: (line) => scrubKnown(line, knownSecrets()) },
        },
        stream,
      )
    : null;

  const write = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => {
    try {
      echo?.[level](msg, fields);
    } catch {
      /* the console is not the app's business */
    }
    if (!p) return;
    try {
      const f = redact(fields) ?? {};
      // `msg`, `level`, `time` and `scope` are the record's own: a field of that name is kept beside them.
      const safe: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(f))
        safe[k === 'msg' || k === 'level' || k === 'time' || k === 'scope' ? `field.${k}` : k] = v;
      const before = failures;
      p[level](safe, scrubText(msg));
      if (failures === before) failing = false; // the disk takes records again
    } catch (e) {
      noteFailure(e);
    }
  };

  return {
    dir: opts.dir,
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    recent: (maxBytes) => readRecentRecords(opts.dir, maxBytes),
    setSecretSource: (source) => {
      secretSource = source;
    },
    close: () => {
      // Never flushSync: on a full disk sonic-boom's flushSync retries forever and would freeze
      // the process. Sync writes leave nothing buffered unless the disk is refusing them anyway.
      try {
        stream?.end();
      } catch {
        /* closing on the way out: nothing to save */
      }
    },
  };
}
