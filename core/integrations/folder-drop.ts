// The folder drop, for box offices that can only write files: each paired system has a folder
// `<dataDir>/box-office-drop/<integration id>/` with `inbox/` (one JSON charge request per file,
// the same body as POST /v1/charges), `outbox/` (one file per charge, named by outboxName — the
// reference percent-encoded — holding the charge as GET /v1/charges/{reference} answers it,
// rewritten atomically at every change) and `rejected/` (a file that could not be a charge, moved
// there with `<file>.reason.txt` beside it).
// The inbox is hostile ground: only ordinary files are read (drop-files.ts), never on the main
// thread's time; a file that is not valid JSON yet is judged only once it has stopped changing.
// A request file is removed only after its charge is journaled; one read again after a crash is
// the same booking reference, so it never charges twice.
import { lstatSync, mkdirSync, existsSync } from 'node:fs';
import { lstat, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../shared/logger';
import type { TimerHandle, Timers } from '../lib';
import type { ChargeDesk } from './charge-desk';
import { outboxName, readOrdinaryFile, rejectedName, writeAtomically } from './drop-files';
import { IntegrationApiError } from './integration-errors';
import type { ChargeRow, IntegrationRow, IntegrationStore } from './integration-store';

const MAX_DROP_FILE = 16 * 1024;
/** A file that is not valid JSON is set aside only once it has not changed for this long. */
const DROP_SETTLE_MS = 2_000;

interface FolderDropDeps {
  root: string;
  store: IntegrationStore;
  desk: ChargeDesk;
  timers: Timers;
  logger: Logger;
  /** How often the inboxes are looked at (ms). */
  scanMs?: number;
  settleMs?: number;
  /** The engine's clock (ms); the file system's times are compared with the wall clock. */
  now?: () => number;
}

const dropFolders = (root: string, integrationId: string) => {
  const base = join(root, integrationId);
  return { base, inbox: join(base, 'inbox'), outbox: join(base, 'outbox'), rejected: join(base, 'rejected') };
};

const TOO_LARGE = `The file is larger than ${MAX_DROP_FILE} bytes: one charge per file.`;
const NOT_JSON =
  'The file is not valid JSON. Write one charge request per file (see docs/integration.md), to a temporary name first and then rename it to .json.';
const NOT_ORDINARY = (what: string) =>
  `The file is ${what}, not an ordinary file: CounterPay reads only ordinary files written into the inbox itself (no links, pipes or devices). Write the request into the inbox, to a temporary name first and then rename it to .json.`;

interface Seen {
  size: number;
  mtimeMs: number;
  ino: number;
  since: number;
}

/** A file that is not a request, set aside in rejected/ with the reason beside it. */
async function setAside(deps: FolderDropDeps, i: IntegrationRow, name: string, reason: string): Promise<void> {
  const { logger } = deps;
  const f = dropFolders(deps.root, i.id);
  const kept = rejectedName(name);
  const dest = join(f.rejected, kept);
  const text = kept === name ? reason : `${reason}\n(The file's own name was too long to keep: ${name})`;
  writeAtomically(`${dest}.reason.txt`, `${text}\n`);
  await rename(join(f.inbox, name), dest);
  logger.warn('folder drop: file set aside', { integration: i.id, file: kept, reason: reason.split('\n')[0] });
}

/** A charge's outcome written to its system's outbox (once final, never again). */
function writeOutcomeOf(deps: FolderDropDeps, c: ChargeRow): void {
  const { store, desk } = deps;
  const i = store.integration(c.integrationId);
  if (!i || !c.outbox) return;
  const view = desk.viewOf(c, i.name);
  const f = dropFolders(deps.root, i.id);
  mkdirSync(f.outbox, { recursive: true });
  if (!lstatSync(f.outbox).isDirectory()) throw new Error(`${f.outbox} is not a real folder`);
  writeAtomically(join(f.outbox, outboxName(c.reference)), `${JSON.stringify(view, null, 2)}\n`);
  if (view.final) store.outcomeFinal(c.id);
}

/** Why the desk refused a request, with each field's message on a line of its own. */
function refusalText(e: IntegrationApiError): string {
  const fields = e.fields
    ? Object.entries(e.fields)
        .map(([k, m]) => `  ${k}: ${m}`)
        .join('\n')
    : '';
  return `${e.code}: ${e.message}${fields ? `\n${fields}` : ''}`;
}

export function createFolderDrop(deps: FolderDropDeps) {
  const { store, desk, logger, timers } = deps;
  const scanMs = deps.scanMs ?? 1_000;
  const settleMs = deps.settleMs ?? DROP_SETTLE_MS;
  const now = deps.now ?? Date.now;
  let timer: TimerHandle | null = null;
  let scanning: Promise<void> | null = null;
  let stopped = false;
  /** Files not judged yet (not valid JSON while still changing), by integration/name. */
  const seen = new Map<string, Seen>();
  /** The last problem logged per file or folder: the same one is not logged again at every scan. */
  const told = new Map<string, string>();

  function once(key: string, message: string, fields: Record<string, unknown>): void {
    if (told.get(key) === message) return;
    told.set(key, message);
    logger.warn(message, fields);
  }

  const reject = (i: IntegrationRow, name: string, reason: string) => setAside(deps, i, name, reason);

  /** True when a file that does not read as a request yet has stopped changing for settleMs. */
  function settled(key: string, st: { size: number; mtimeMs: number; ino: number }): boolean {
    if (st.mtimeMs <= Date.now() - settleMs) return true;
    const was = seen.get(key);
    if (was && was.size === st.size && was.mtimeMs === st.mtimeMs && was.ino === st.ino)
      return now() - was.since >= settleMs;
    seen.set(key, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, since: now() });
    return false;
  }

  async function take(i: IntegrationRow, name: string): Promise<void> {
    const f = dropFolders(deps.root, i.id);
    const file = join(f.inbox, name);
    const key = `${i.id}/${name}`;
    const read = await readOrdinaryFile(file, MAX_DROP_FILE);
    if (!read.ok) {
      if (read.gone) return;
      return reject(i, name, read.why === 'too large' ? TOO_LARGE : NOT_ORDINARY(read.why));
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      if (!settled(key, read.stat)) return;
      return reject(i, name, NOT_JSON);
    }
    try {
      const answer = await desk.charge(i, body, 'folder');
      let c = store.chargeByReference(i.id, answer.charge.reference)!;
      // Asked for over HTTP or by link before: its outcome goes to the outbox too, from now on.
      if (!c.outbox) {
        store.useOutbox(c.id);
        c = store.charge(c.id)!;
      }
      writeOutcome(c);
    } catch (e) {
      if (!(e instanceof IntegrationApiError)) throw e;
      // The counter cannot charge now (no terminal, provider not set up): leave the file for later.
      if (e.status === 503) {
        once(key, 'folder drop: request left in the inbox until the counter can charge', {
          integration: i.id,
          file: name,
          code: e.code,
        });
        return;
      }
      return reject(i, name, refusalText(e));
    }
    // Journaled and answered: the request is removed, unless another file took its name meanwhile.
    const still = await lstat(file).catch(() => null);
    if (still && still.ino === read.stat.ino && still.size === read.stat.size && still.mtimeMs === read.stat.mtimeMs)
      await rm(file, { force: true });
  }

  /** The three folders, made if missing; null when one of them is not a real folder (a link planted there). */
  function foldersOf(i: IntegrationRow) {
    const f = dropFolders(deps.root, i.id);
    for (const d of [f.inbox, f.outbox, f.rejected]) {
      mkdirSync(d, { recursive: true });
      const st = lstatSync(d);
      if (!st.isDirectory()) {
        once(d, "folder drop: not a real folder (a link?); this system's folder drop is paused until it is", {
          integration: i.id,
          folder: d,
        });
        return null;
      }
    }
    return f;
  }

  async function scan(): Promise<void> {
    for (const i of store.listActive()) {
      const f = foldersOf(i);
      if (!f) continue;
      const names = (await readdir(f.inbox)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
      const present = new Set(names.map((n) => `${i.id}/${n}`));
      for (const k of [...seen.keys(), ...told.keys()])
        if (k.startsWith(`${i.id}/`) && !present.has(k)) {
          seen.delete(k);
          told.delete(k);
        }
      for (const n of names) {
        if (stopped) return;
        try {
          await take(i, n);
        } catch (e) {
          const error = e instanceof Error ? e.message : String(e);
          once(`${i.id}/${n}`, 'folder drop: file not taken; will try again', { integration: i.id, file: n, error });
        }
      }
    }
  }

  const writeOutcome = (c: ChargeRow) => writeOutcomeOf(deps, c);

  function loop(): void {
    timer = null;
    if (stopped) return;
    scanning = scan()
      .catch((e: unknown) => {
        once('scan', 'folder drop: the inboxes could not be read; will try again', {
          error: e instanceof Error ? e.message : String(e),
        });
      })
      .finally(() => {
        scanning = null;
        if (!stopped) timer = timers.setTimeout(loop, scanMs);
      });
  }

  return {
    writeOutcome,
    /** Writes outcomes a crash left unwritten, then looks at the inboxes now and every `scanMs`. */
    start(): void {
      for (const c of store.outcomesToWrite()) {
        try {
          writeOutcome(c);
        } catch (e) {
          logger.error('folder drop: outcome not written', {
            chargeId: c.id,
            error: e instanceof Error ? e.message : String(e),
          });
        }
      }
      if (!timer && !scanning) loop();
    },
    /** Looks at the inboxes now (tests; a file system watcher could call it too). */
    async scanNow(): Promise<void> {
      while (scanning) await scanning;
      await scan();
    },
    folders: (integrationId: string) => dropFolders(deps.root, integrationId),
    exists: (integrationId: string) => existsSync(dropFolders(deps.root, integrationId).inbox),
    async stop(): Promise<void> {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
      timer = null;
      while (scanning) await scanning;
    },
  };
}
