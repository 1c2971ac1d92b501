// Settings → Export diagnostics: one JSON file a support person can read, with the recent logs,
// the redacted settings, versions, the status snapshot, the journal's counts by state and the last
// provider errors. Keys never leave main: the file carries their fingerprints only.
import { z } from 'zod';
import { Empty, type CallsSpec } from './contract-kit';

/** One log record as written to the log files (JSON, one a line). */
const LogRecordSchema = z.looseObject({
  time: z.string(),
  level: z.enum(['info', 'warn', 'error']),
  scope: z.string(),
  msg: z.string(),
});

const CountsByState = z.record(z.string(), z.number().int().nonnegative());

/**
 * The exported file's content.
 * @internal for tests
 */
export const DiagnosticsFileSchema = z.object({
  kind: z.literal('counterpay-diagnostics'),
  formatVersion: z.literal(1),
  createdAt: z.string(),
  /** The same moment as the cashier reads it, in Africa/Lagos. */
  createdAtLagos: z.string(),
  versions: z.object({
    app: z.string(),
    shell: z.enum(['electron', 'browser']),
    node: z.string(),
    electron: z.string().nullable(),
    chrome: z.string().nullable(),
    platform: z.string(),
    arch: z.string(),
    osRelease: z.string(),
  }),
  dataDir: z.string(),
  /** As `status.get` returns it. */
  status: z.looseObject({ profile: z.string() }),
  settings: z.object({
    activeProfile: z.string(),
    /** Each profile as Settings shows it: addresses and ids, keys as set/fingerprint only. */
    profiles: z.record(z.string(), z.unknown()),
    pin: z.object({ set: z.boolean(), lockedUntil: z.number().nullable() }),
    secretStorage: z.string(),
  }),
  journal: z.object({ orders: CountsByState, topups: CountsByState }),
  /** The newest warn/error records of provider operations (`pos.…`, `bills.…`), oldest first. */
  providerErrors: z.array(LogRecordSchema),
  logs: z.object({ dir: z.string().nullable(), note: z.string(), records: z.array(LogRecordSchema) }),
});
export type DiagnosticsFile = z.infer<typeof DiagnosticsFileSchema>;

const DiagnosticsExportSchema = z.object({
  fileName: z.string(),
  /** Where main also wrote the file (`<data folder>/diagnostics/`), or null when it could not. */
  savedTo: z.string().nullable(),
  content: z.string(),
  bytes: z.number().int().nonnegative(),
  logRecords: z.number().int().nonnegative(),
  providerErrors: z.number().int().nonnegative(),
});
export type DiagnosticsExport = z.infer<typeof DiagnosticsExportSchema>;

export const diagnosticsCalls = {
  'diagnostics.export': { args: Empty, result: DiagnosticsExportSchema, admin: true },
} satisfies CallsSpec;
