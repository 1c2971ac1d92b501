// The folder drop's file handling, written for a folder anyone on the computer may write into:
// only ordinary files are read (never a pipe, a device, a socket or a symbolic link), without
// blocking the engine (asynchronous reads, O_NONBLOCK, O_NOFOLLOW, the opened file checked again
// with fstat), at most `max` bytes; outcome and reason files are written under an unpredictable
// temporary name created exclusively (O_EXCL: never through a link planted there), then renamed.
import { createHash, randomBytes } from 'node:crypto';
import { constants, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What a name in the inbox is, in words for its reason file (null: an ordinary file). */
function notOrdinary(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not an ordinary file';
}

type ReadResult =
  { ok: true; text: string; stat: Stats } | { ok: false; gone: true } | { ok: false; gone: false; why: string };

const NOFOLLOW_NONBLOCK = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Reads `file` if it is an ordinary file of at most `max` bytes (checked before and after opening it). */
export async function readOrdinaryFile(file: string, max: number): Promise<ReadResult> {
  let before: Stats;
  try {
    before = await lstat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, gone: true };
    throw e;
  }
  const kind = notOrdinary(before);
  if (kind) return { ok: false, gone: false, why: kind };
  if (before.size > max) return { ok: false, gone: false, why: 'too large' };
  let fh;
  try {
    fh = await open(file, NOFOLLOW_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, gone: true };
    // Swapped for a link between the look and the open.
    if (code === 'ELOOP' || code === 'EMLINK') return { ok: false, gone: false, why: 'a symbolic link' };
    throw e;
  }
  try {
    const stat = await fh.stat();
    const after = notOrdinary(stat);
    if (after) return { ok: false, gone: false, why: after };
    if (stat.ino !== before.ino || stat.dev !== before.dev) return { ok: false, gone: true };
    if (stat.size > max) return { ok: false, gone: false, why: 'too large' };
    const buf = Buffer.alloc(max + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got > max) return { ok: false, gone: false, why: 'too large' };
    }
    // A byte-order mark (Windows editors write one) is not part of the JSON.
    return {
      ok: true,
      text: buf
        .subarray(0, got)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
      stat,
    };
  } finally {
    await fh.close();
  }
}

/** Writes `text` to `file` so a reader sees the old file or the new one, never half of one. */
export function writeAtomically(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * The outbox file of a booking reference: the reference percent-encoded as in the API's path
 * (`:` → `%3A`; letters, digits, `.`, `_` and `-` stay) + `.json`. `%` is not allowed in a
 * reference, so two references never share a file (`COLL:1` → `COLL%3A1.json`, `COLL_1` → `COLL_1.json`).
 */
export const outboxName = (reference: string) => `${encodeURIComponent(reference)}.json`;

/**
 * Longest name (bytes) kept as it is in rejected/: room for `.reason.txt` and the temporary name around it.
 * @internal for tests
 */
export const MAX_KEPT_NAME = 200;

/** The name a rejected file gets: its own, or when too long for a reason file beside it, a shortened one with a hash of the whole. */
export function rejectedName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_KEPT_NAME) return name;
  let head = name.slice(0, 120);
  while (Buffer.byteLength(head) > 120) head = head.slice(0, -1);
  return `${head}~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 16)}.json`;
}
