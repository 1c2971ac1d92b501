// Builds the diagnostics file's content from the running core. Log records are already redacted
// as written; settings come as Settings shows them (no key values); the caller checks the
// serialised file once more against the known keys.
import { release } from 'node:os';
import { PROFILE_NAMES } from '../../shared/settings';
import { formatLagosDateTime } from '../../shared/time';
import type { StatusSnapshot } from '../../shared/contract';
import type { DiagnosticsFile } from '../../shared/contract-diagnostics';
import type { Db } from '../db';
import type { LogFiles, LogRecord } from '../logging';
import type { SettingsService } from '../settings';

/** How much of the log files goes into one export (the newest part). */
const RECENT_LOG_BYTES = 512 * 1024;
const PROVIDER_ERRORS_KEPT = 50;

interface DiagnosticsSources {
  shell: 'electron' | 'browser';
  version: string;
  dataDir: string;
  secretStorage: string;
  db: Db;
  settings: SettingsService;
  status: () => StatusSnapshot;
  logFiles: LogFiles | null;
  now: () => number;
}

/** A warn/error record of a provider operation (the op names are `pos.…` and `bills.…`). */
export function isProviderError(r: LogRecord): boolean {
  return (r.level === 'warn' || r.level === 'error') && typeof r.op === 'string' && /^(pos|bills)\./.test(r.op);
}

function countsByState(db: Db, table: 'orders' | 'topups'): Record<string, number> {
  try {
    const rows = db.prepare(`SELECT state, COUNT(*) AS n FROM ${table} GROUP BY state ORDER BY state`).all() as {
      state: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  } catch {
    return {}; // the module that owns the table has not made it on this install
  }
}

export function buildDiagnostics(s: DiagnosticsSources): DiagnosticsFile {
  const now = s.now();
  const records = s.logFiles ? s.logFiles.recent(RECENT_LOG_BYTES) : [];
  const profiles: Record<string, unknown> = {};
  // The view Settings shows: keys as set/fingerprint only, by construction. Not passed through the
  // field-name redaction, which would hide the conventions (`posSignHash`, …) support needs to see;
  // the caller's last pass over the whole text masks any key value that got in anyway.
  for (const p of PROFILE_NAMES) profiles[p] = s.settings.view(p);
  const pin = s.settings.pinStatus();
  const versions = process.versions as NodeJS.ProcessVersions & { electron?: string; chrome?: string };
  return {
    kind: 'counterpay-diagnostics',
    formatVersion: 1,
    createdAt: new Date(now).toISOString(),
    createdAtLagos: `${formatLagosDateTime(now)} (Africa/Lagos)`,
    versions: {
      app: s.version,
      shell: s.shell,
      node: versions.node,
      electron: versions.electron ?? null,
      chrome: versions.chrome ?? null,
      platform: process.platform,
      arch: process.arch,
      osRelease: release(),
    },
    dataDir: s.dataDir,
    status: s.status(),
    settings: {
      activeProfile: s.settings.activeProfile(),
      profiles,
      pin: { set: pin.set, lockedUntil: pin.lockedUntil },
      secretStorage: s.secretStorage,
    },
    journal: { orders: countsByState(s.db, 'orders'), topups: countsByState(s.db, 'topups') },
    providerErrors: records.filter(isProviderError).slice(-PROVIDER_ERRORS_KEPT),
    logs: s.logFiles
      ? {
          dir: s.logFiles.dir,
          note: `The newest ${Math.round(RECENT_LOG_BYTES / 1024)} KB of the log files, oldest first.`,
          records,
        }
      : { dir: null, note: 'This run writes no log files (logs go to the console only).', records: [] },
  };
}
