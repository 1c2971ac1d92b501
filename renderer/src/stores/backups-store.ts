// Settings → Backups and the recovery banner: the backups main keeps, taking one now, restoring
// one (the admin PIN is typed again), and what was repaired at start.
import { create } from 'zustand';
import type { BackupInfo, BackupsView, RecoveryNotice } from '../../../shared/backups';
import { call } from '../transport/bridge';
import type { StoreFollower } from './follow';
import { busyRunner } from './busy-run';

interface BackupsState {
  view: BackupsView | null;
  busy: 'now' | 'restore' | 'folder' | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
  notices: RecoveryNotice[];
  load(): Promise<void>;
  backupNow(): Promise<void>;
  restore(b: BackupInfo, pin: string): Promise<boolean>;
  setSecondFolder(folder: string | null): Promise<boolean>;
  loadNotices(): Promise<void>;
  dismissNotices(): Promise<void>;
}

/** A failed notices read is tried again after these pauses (then every last one), until it works. */
const NOTICE_RETRY_MS = [500, 1000, 2000, 5000];
let noticeRetry: ReturnType<typeof setTimeout> | null = null;
let noticeFailures = 0;

export const useBackups = create<BackupsState>((set, get) => {
  const run = busyRunner(set);
  return {
    view: null,
    busy: null,
    message: null,
    notices: [],
    load: async () => {
      const view = await run(null, () => call('backups.view', {}));
      if (view) set({ view });
    },
    backupNow: async () => {
      const view = await run('now', () => call('backups.now', {}));
      if (view) set({ view, message: { kind: 'ok', text: 'Backup made.' } });
      else void get().load(); // the failure is also in the view's last error
    },
    restore: async (b, pin) => {
      const done = await run('restore', async () => {
        await call('settings.unlock', { pin }); // a restore is confirmed with the PIN typed again
        return call('backups.restore', { name: b.name, place: b.place });
      });
      if (!done) return false;
      // Every screen's data changed: start the page afresh on the restored journal.
      window.location.reload();
      return true;
    },
    setSecondFolder: async (folder) => {
      const view = await run('folder', () => call('backups.setSecondFolder', { folder }));
      if (view)
        set({
          view,
          message: {
            kind: 'ok',
            text: folder ? `Backups are also copied to ${folder}.` : 'Backups are kept in the data folder only.',
          },
        });
      return !!view;
    },
    // The banner may be the only place a cashier learns the journal was damaged at start, so a
    // failed read is not dropped: it is tried again until main answers (and after a reconnect).
    loadNotices: async () => {
      if (noticeRetry) clearTimeout(noticeRetry);
      noticeRetry = null;
      try {
        set({ notices: await call('recovery.notices', {}) });
        noticeFailures = 0;
      } catch {
        const wait = NOTICE_RETRY_MS[Math.min(noticeFailures, NOTICE_RETRY_MS.length - 1)]!;
        noticeFailures += 1;
        noticeRetry ??= setTimeout(() => void get().loadNotices(), wait);
      }
    },
    dismissNotices: async () => {
      set({ notices: await call('recovery.dismiss', {}) });
    },
  };
});

// Notices show on every screen, so they are always re-read after the event stream comes back.
/** Recovery notices come by a call, not an event: after the event stream comes back they are read again. */
export const backupsFollower: StoreFollower = {
  name: 'recovery',
  listen: () => [],
  refresh: () => useBackups.getState().loadNotices(),
};
