// The folder drop, for box offices that can only write files: each paired system has a folder
// `<dataDir>/box-office-drop/<integration id>/` with `inbox/` (one JSON charge request per file,
// the same body as POST /v1/charges), `outbox/` (one `<reference>.json` per charge, the charge as
// GET /v1/charges/{reference} answers it, rewritten atomically at every change) and `rejected/`
// (a file that could not be a charge, moved there with `<file>.reason.txt` beside it).
// A request file is removed only after its charge is journaled; one read again after a crash is
// the same booking reference, so it never charges twice.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../shared/logger';
import type { TimerHandle, Timers } from '../lib';
import type { ChargeDesk } from './charge-desk';
import { IntegrationApiError } from './integration-errors';
import type { ChargeRow, IntegrationRow, IntegrationStore } from './integration-store';

export const MAX_DROP_FILE = 16 * 1024;

export interface FolderDropDeps {
  root: string;
  store: IntegrationStore;
  desk: ChargeDesk;
  timers: Timers;
  logger: Logger;
  /** How often the inboxes are looked at (ms). */
  scanMs?: number;
}

export const dropFolders = (root: string, integrationId: string) => {
  const base = join(root, integrationId);
  return { base, inbox: join(base, 'inbox'), outbox: join(base, 'outbox'), rejected: join(base, 'rejected') };
};

/** Writes `text` to `file` so a reader sees the old file or the new one, never half of one. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o644 });
  renameSync(tmp, file);
}

const safeName = (reference: string) => reference.replace(/[^A-Za-z0-9._-]/g, '_');

export function createFolderDrop(deps: FolderDropDeps) {
  const { store, desk, logger, timers } = deps;
  const scanMs = deps.scanMs ?? 1_000;
  let timer: TimerHandle | null = null;
  let scanning: Promise<void> | null = null;
  let stopped = false;

  function reject(i: IntegrationRow, name: string, reason: string): void {
    const f = dropFolders(deps.root, i.id);
    const dest = join(f.rejected, name);
    writeAtomically(`${dest}.reason.txt`, `${reason}\n`);
    renameSync(join(f.inbox, name), dest);
    logger.warn('folder drop: file set aside', { integration: i.id, file: name });
  }

  async function take(i: IntegrationRow, name: string): Promise<void> {
    const f = dropFolders(deps.root, i.id);
    const file = join(f.inbox, name);
    if (statSync(file).size > MAX_DROP_FILE) return reject(i, name, `The file is larger than ${MAX_DROP_FILE} bytes: one charge per file.`);
    let body: unknown;
    try {
      body = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return reject(i, name, 'The file is not valid JSON. Write one charge request per file (see docs/integration.md), to a temporary name first and then rename it to .json.');
    }
    try {
      const answer = await desk.charge(i, body, 'folder');
      writeOutcome(store.chargeByReference(i.id, answer.charge.reference)!);
      rmSync(file, { force: true });
    } catch (e) {
      if (!(e instanceof IntegrationApiError)) throw e;
      // The counter cannot charge now (no terminal, provider not set up): leave the file for later.
      if (e.status === 503) return;
      const fields = e.fields ? Object.entries(e.fields).map(([k, m]) => `  ${k}: ${m}`).join('\n') : '';
      reject(i, name, `${e.code}: ${e.message}${fields ? `\n${fields}` : ''}`);
    }
  }

  async function scan(): Promise<void> {
    for (const i of store.listActive()) {
      const f = dropFolders(deps.root, i.id);
      for (const d of [f.inbox, f.outbox, f.rejected]) mkdirSync(d, { recursive: true });
      const names = readdirSync(f.inbox).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
      for (const n of names) {
        if (stopped) return;
        try {
          await take(i, n);
        } catch (e) {
          logger.error('folder drop: file not taken; will try again', { integration: i.id, file: n, error: e instanceof Error ? e.message : String(e) });
        }
      }
    }
  }

  function writeOutcome(c: ChargeRow): void {
    const i = store.integration(c.integrationId);
    if (!i || c.source !== 'folder') return;
    const view = desk.viewOf(c, i.name);
    const f = dropFolders(deps.root, i.id);
    mkdirSync(f.outbox, { recursive: true });
    writeAtomically(join(f.outbox, `${safeName(c.reference)}.json`), `${JSON.stringify(view, null, 2)}\n`);
    if (view.final) store.outcomeFinal(c.id);
  }

  function loop(): void {
    timer = null;
    if (stopped) return;
    scanning = scan().finally(() => {
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
          logger.error('folder drop: outcome not written', { chargeId: c.id, error: e instanceof Error ? e.message : String(e) });
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
export type FolderDrop = ReturnType<typeof createFolderDrop>;
