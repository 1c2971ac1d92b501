// Backups of the journal, what happened to damaged files at start, and free disk space.
import { z } from 'zod';

/** Something the app repaired or set aside at start; shown in a banner until dismissed. */
export const RecoveryNoticeSchema = z.object({
  kind: z.enum([
    'settings-restored',
    'settings-reset',
    'keys-restored',
    'keys-reset',
    'journal-damaged',
    'restore-finished',
  ]),
  /** One plain paragraph for the cashier or admin. */
  message: z.string(),
  /** Where the damaged file was kept (never deleted). */
  keptAs: z.string().nullable(),
  at: z.number().int(),
});
export type RecoveryNotice = z.infer<typeof RecoveryNoticeSchema>;

const BackupInfoSchema = z.object({
  name: z.string(),
  path: z.string(),
  /** 'main': the data folder's backups folder; 'second': the extra folder (USB disk, share). */
  place: z.enum(['main', 'second']),
  sizeBytes: z.number().int().nonnegative(),
  at: z.number().int(),
  reason: z.enum(['scheduled', 'shift-close', 'manual', 'before-restore']),
});
export type BackupInfo = z.infer<typeof BackupInfoSchema>;

export const BackupsViewSchema = z.object({
  folder: z.string(),
  secondFolder: z.string().nullable(),
  backups: z.array(BackupInfoSchema),
  /** The last attempt that failed (disk full, second folder gone), if it is newer than the last success. */
  lastError: z.object({ at: z.number().int(), message: z.string() }).nullable(),
  everyHours: z.number(),
});
export type BackupsView = z.infer<typeof BackupsViewSchema>;

export const DiskStatusSchema = z.object({
  state: z.enum(['ok', 'low', 'unknown']),
  freeBytes: z.number().nonnegative().nullable(),
  detail: z.string(),
});
export type DiskStatus = z.infer<typeof DiskStatusSchema>;

/** Below this much free space the status bar warns (a backup is a few MB, a day's journal less). */
export const LOW_DISK_BYTES = 500 * 1024 * 1024;
