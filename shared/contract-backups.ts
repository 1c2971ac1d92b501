// Journal backups, restore, and what was repaired at start: this part of the one contract.
// Merged into `calls` in contract.ts; edit here, not there.
import { z } from 'zod';
import { BackupsViewSchema, RecoveryNoticeSchema } from './backups';
import type { CallsSpec } from './contract-kit';

const Empty = z.object({}).strict();
const BackupRef = z
  .object({
    name: z
      .string()
      .regex(/^counterpay-[0-9TZ-]+-[a-z-]+\.db$/, 'Choose a backup from the list')
      .max(100),
    place: z.enum(['main', 'second']),
  })
  .strict();
const Folder = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine(
    (f) => f.startsWith('/') || /^[A-Za-z]:[\\/]/.test(f) || f.startsWith('\\\\'),
    'Give the full path of the folder',
  );

export const backupCalls = {
  'backups.view': { args: Empty, result: BackupsViewSchema, admin: true },
  'backups.now': { args: Empty, result: BackupsViewSchema, admin: true },
  /** Backs up the journal in use first; the app then reloads on the restored journal. */
  'backups.restore': {
    args: BackupRef,
    result: z.object({ restored: z.string(), safetyBackup: z.string() }),
    admin: true,
  },
  'backups.setSecondFolder': {
    args: z.object({ folder: Folder.nullable() }).strict(),
    result: BackupsViewSchema,
    admin: true,
  },
  'recovery.notices': { args: Empty, result: z.array(RecoveryNoticeSchema) },
  'recovery.dismiss': { args: Empty, result: z.array(RecoveryNoticeSchema) },
} satisfies CallsSpec;
