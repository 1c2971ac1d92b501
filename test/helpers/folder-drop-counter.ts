// A real counter core with the box office's folder drop on (browser shell's settings on disk, a
// shift open, a PIN, one paired system), for the folder-drop integration tests. Each test file
// makes one kit and stops its cores after each test.
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../core/app-core';
import { confStore } from '../../browser-shell/boot';
import { fileVault } from '../../core/settings/secret-vault';
import { systemClock } from '../../shared/clock';
import { memoryLogger } from '../../shared/logger';
import { ensureShift } from './ensure-shift';

const ctx = { trusted: true, sender: 'test' };

export async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** As a box office should: a temporary name first, then renamed into the inbox. */
export function dropFile(inbox: string, name: string, text: string): void {
  writeFileSync(join(inbox, `.${name}.partial`), text);
  renameSync(join(inbox, `.${name}.partial`), join(inbox, name));
}

export function folderDropKit(prefix: string) {
  const cores: Core[] = [];
  return {
    async stopAll(): Promise<void> {
      while (cores.length) await cores.pop()!.stop();
    },
    /** `makeFolders`: scan once, so the system's inbox, outbox and rejected folders exist. */
    async counterWithDrop(opts: { makeFolders?: boolean } = {}) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      const logger = memoryLogger();
      const core = await createCore({
        shell: 'browser',
        version: 't',
        dataDir: dir,
        store: confStore(dir),
        vault: fileVault(join(dir, 'secrets.json')),
        logger,
        clock: systemClock,
        // A scan an hour away: the test scans when it has written a file.
        integrations: { port: 0, dropScanMs: 3_600_000 },
      });
      cores.push(core);
      // A box office's charge, like any sale, needs an open shift.
      await ensureShift((name, args) => call(core, name, args));
      await call(core, 'settings.setPin', { newPin: '2468' });
      const paired = await call<{ id: string; key: string }>(core, 'integrations.pair', {
        name: 'Old box office',
        callbackUrl: '',
      });
      const drop = core.integrations.drop!;
      if (opts.makeFolders) await drop.scanNow();
      return { dir, core, drop, logger, key: paired.key, folders: drop.folders(paired.id) };
    },
  };
}
