// Backups and recovery as a core module: the Settings → Backups calls, the banner's notices, the
// scheduled and shift-close backups, and the low-disk watch for the status bar.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DiskStatus, RecoveryNotice } from '../../shared/backups';
import type { backupCalls } from '../../shared/contract-backups';
import { AppError } from '../../shared/errors';
import { formatLagosDateTime } from '../../shared/time';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import { counterCode, lagosDayCode } from '../orders';
import type { Timers } from '../lib';
import { createBackupService } from './backup-service';
import { readDisk } from './disk-space';
import { checkJournalFile, countSalesAfter, journalPath, swapInJournal } from '../data-folder';

const SECOND_FOLDER_KEY = 'backups.secondFolder';
const NUMBER_GAP_KEY = 'backups.numberGapPending';
/**
 * Order and top-up numbers skipped after a restore or a new journal, so numbers used after the backup are never reused.
 * @internal for tests
 */
export const NUMBER_GAP = 1000;
const DISK_CHECK_MS = 60_000;

/** "2 sales made after …", or "Sales made after …" when the number cannot be known. */
function salesAfter(count: number | null, when: string): string {
  if (count === null) return `Sales made after ${when}`;
  return `${count} sale${count === 1 ? '' : 's'} made after ${when}`;
}

/** Stops the core, runs `swap` with the journal closed, builds the core again with `notice`. */
export type RestartWithJournal = (swap: () => void, notice: RecoveryNotice) => Promise<void>;

interface BackupsModuleDeps {
  /** What was repaired at start (settings, keys, journal); the module adds its own. */
  notices: RecoveryNotice[];
  restart?: RestartWithJournal;
  onDiskChange: () => void;
  timers?: Timers;
  everyHours?: number;
}

/** What backups take of the core: the open sales, which a restore would lose track of. */
type BackupsContext = Pick<CoreServices, 'db' | 'store' | 'settings' | 'events' | 'logger' | 'clock' | 'dataDir'> & {
  checkout: { listOpen(): { outOrderNo: string }[] };
};

// Numbers used after the backup (or in a journal that was lost) may be on receipts and at the
// provider already: today's sequence jumps ahead so none is sent twice.
function reserveNumberGap(ctx: BackupsContext): void {
  if (ctx.store.get(NUMBER_GAP_KEY) !== true) return;
  const code = counterCode(ctx.settings.profile(ctx.settings.activeProfile()).counterName);
  const day = lagosDayCode(ctx.clock.now());
  ctx.db.transaction(() => {
    for (const table of ['order_counters', 'topup_counters']) {
      ctx.db
        .prepare(
          `INSERT INTO ${table} (counter_code, business_day, last_seq) VALUES (?, ?, ?)
         ON CONFLICT (counter_code, business_day) DO UPDATE SET last_seq = last_seq + ?`,
        )
        .run(code, day, NUMBER_GAP, NUMBER_GAP);
    }
  })();
  ctx.store.delete(NUMBER_GAP_KEY);
  ctx.logger.info('order numbers skipped after the journal changed', { code, gap: NUMBER_GAP });
}

export function createBackupsModule(ctx: BackupsContext, deps: BackupsModuleDeps) {
  const secondFolder = () => {
    const v = ctx.store.get(SECOND_FOLDER_KEY);
    return typeof v === 'string' && v ? v : null;
  };
  const service = createBackupService({
    db: ctx.db,
    dataDir: ctx.dataDir,
    clock: ctx.clock,
    logger: ctx.logger,
    secondFolder,
    ...(deps.timers ? { timers: deps.timers } : {}),
    ...(deps.everyHours ? { everyHours: deps.everyHours } : {}),
  });
  let notices = [...deps.notices];
  let announced: DiskStatus['state'] = readDisk(ctx.dataDir).state;
  let diskTimer: unknown = null;
  const checkDisk = () => {
    const next = readDisk(ctx.dataDir).state;
    if (next === announced) return;
    announced = next;
    deps.onDiskChange();
  };

  const offShift = ctx.events.subscribe((name, payload) => {
    if (name === 'shift.changed' && (payload as { shift: unknown }).shift === null)
      service.backupQuietly('shift-close');
  });

  const handlers: CoreModule<typeof backupCalls>['handlers'] = {
    'backups.view': () => service.view(),
    'backups.now': async () => {
      await service.backupNow('manual');
      checkDisk();
      return service.view();
    },
    'backups.restore': async (a) => {
      const chosen = service.find(a.name, a.place);
      if (!chosen)
        throw new AppError('NOT_FOUND', `The backup ${a.name} is no longer there. Refresh the list.`, {
          name: a.name,
          place: a.place,
        });
      // A sale still waiting for its payment would drop out of the journal while the customer pays.
      const open = ctx.checkout.listOpen();
      if (open.length > 0) {
        throw new AppError(
          'CONFLICT',
          `${open.length} sale${open.length === 1 ? ' is' : 's are'} not settled yet (${open
            .slice(0, 3)
            .map((o) => o.outOrderNo)
            .join(', ')}${open.length > 3 ? ', …' : ''}). Restore once they are paid, failed or expired.`,
          { open: open.map((o) => o.outOrderNo) },
        );
      }
      const problem = checkJournalFile(chosen.path);
      if (problem)
        throw new AppError('VALIDATION', `This backup cannot be restored: ${problem}. Choose another one.`, {
          name: a.name,
        });
      if (!deps.restart)
        throw new AppError(
          'NOT_READY',
          'This app cannot restore while it runs. Close it and start it with --restore and the backup file.',
        );
      // Staged before the safety backup, whose rotation could otherwise remove an old chosen file.
      const staged = join(ctx.dataDir, 'restore-source.tmp');
      copyFileSync(chosen.path, staged);
      let safety: string;
      try {
        safety = (await service.backupNow('before-restore')).name;
      } catch (e) {
        rmSync(staged, { force: true });
        throw new AppError(
          'NOT_READY',
          `Nothing was restored: the journal in use could not be backed up first (${e instanceof Error ? e.message : String(e)}).`,
        );
      }
      const notice: RecoveryNotice = {
        kind: 'restore-finished',
        message: `The journal was restored from the backup of ${formatLagosDateTime(chosen.at)}. The journal in use before was backed up as ${safety}. ${salesAfter(countSalesAfter(join(service.folder, safety), chosen.at), formatLagosDateTime(chosen.at))} are not in it: their sale numbers are on the printed receipts, and the provider can be asked for them.`,
        keptAs: join(service.folder, safety),
        at: ctx.clock.now(),
      };
      ctx.store.set(NUMBER_GAP_KEY, true);
      await deps.restart(() => {
        try {
          swapInJournal(ctx.dataDir, staged, ctx.clock.now());
        } finally {
          rmSync(staged, { force: true });
        }
      }, notice);
      ctx.logger.info('journal restored from a backup', { name: chosen.name, safety });
      return { restored: chosen.name, safetyBackup: safety };
    },
    'backups.setSecondFolder': (a) => {
      if (a.folder === null) ctx.store.delete(SECOND_FOLDER_KEY);
      else {
        if (!existsSync(a.folder))
          throw new AppError(
            'VALIDATION',
            `The folder ${a.folder} is not there. Plug in the disk or create the folder, then save again.`,
            { fields: { folder: 'Folder not found' } },
          );
        ctx.store.set(SECOND_FOLDER_KEY, a.folder);
      }
      return service.view();
    },
    'recovery.notices': () => notices,
    'recovery.dismiss': () => {
      notices = [];
      return notices;
    },
  };

  return {
    handlers,
    service,
    /** Called once at start when the journal was found damaged and set aside. */
    journalDamaged(keptAs: string, problem: string): void {
      const latest = service.latest();
      const after = latest ? formatLagosDateTime(latest.at) : '';
      const missing = latest ? countSalesAfter(keptAs, latest.at) : null;
      notices.push({
        kind: 'journal-damaged',
        message: `The sales journal was damaged (${problem}) and has been kept aside unchanged. CounterPay started a new, empty journal so you can keep selling. ${
          latest
            ? `A manager should restore the latest backup, of ${after} (Settings → Backups → Restore). ${salesAfter(missing, after)} are not in that backup${missing === null ? ' (the damaged journal cannot tell how many)' : ''}: their sale numbers are on the printed receipts, and the provider can be asked for them.`
            : 'There is no backup to restore: the sales on the printed receipts can be looked up with the provider by their sale numbers.'
        }`,
        keptAs,
        at: ctx.clock.now(),
      });
      ctx.store.set(NUMBER_GAP_KEY, true);
      ctx.logger.error('journal damaged; kept aside and a new one started', {
        keptAs,
        problem,
        journal: journalPath(ctx.dataDir),
      });
    },
    start(): void {
      reserveNumberGap(ctx);
      service.start();
      diskTimer = setInterval(checkDisk, DISK_CHECK_MS);
      (diskTimer as NodeJS.Timeout).unref?.();
    },
    async stop(): Promise<void> {
      offShift();
      if (diskTimer) clearInterval(diskTimer as NodeJS.Timeout);
      await service.stop();
    },
  };
}
