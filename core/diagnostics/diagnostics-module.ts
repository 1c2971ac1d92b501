// Settings → Export diagnostics (admin): builds the file, writes a copy into
// `<data folder>/diagnostics/` (both shells: the file is there for support even if the app is
// closed afterwards, and Electron needs no save dialog in main) and returns it so the browser
// shell can download it. It also tells the log files which key values to mask.
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatusSnapshot } from '../../shared/contract';
import type { diagnosticsCalls } from '../../shared/contract-diagnostics';
import { PROFILE_NAMES } from '../../shared/settings';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { LogFiles } from '../logging';
import { scrubKnown } from '../../shared/redact';
import { lagosIso } from '../../shared/time';
import { buildDiagnostics } from './diagnostics-file';

const DIAGNOSTICS_KEPT = 5;
const FILE_NAME = /^counterpay-diagnostics-\d{8}-\d{6}\.json$/;

interface DiagnosticsDeps {
  version: string;
  secretStorage: string;
  status: () => StatusSnapshot;
  logFiles: LogFiles | null;
}

/** 20261123-143005: sortable, no characters a file system dislikes, in Lagos time like every time the cashier sees. */
function stamp(ms: number): string {
  return lagosIso(ms).replace(/[-:]/g, '').replace('T', '-');
}

/** What the diagnostics file is made of: settings (no secret), the journal's counts, the shell. */
type DiagnosticsContext = Pick<CoreServices, 'shell' | 'dataDir' | 'db' | 'settings' | 'logger' | 'clock'>;

export function createDiagnosticsModule(
  ctx: DiagnosticsContext,
  deps: DiagnosticsDeps,
): CoreModule<typeof diagnosticsCalls> {
  const { settings, logger, clock } = ctx;

  // Every key of every profile, read once per settings change (the vault may decrypt on each read).
  let known: string[] = [];
  const refreshKnown = () => {
    try {
      known = PROFILE_NAMES.flatMap((p) =>
        Object.values(settings.secretsOf(p)).filter((v): v is string => typeof v === 'string'),
      );
    } catch (e) {
      logger.warn('could not read the keys to mask them in logs', {
        error: e instanceof Error ? e.message : String(e),
      });
    }
  };
  refreshKnown();
  settings.onChange(refreshKnown);
  deps.logFiles?.setSecretSource(() => known);

  const dir = join(ctx.dataDir, 'diagnostics');
  const save = (fileName: string, content: string): string | null => {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, fileName);
      writeFileSync(file, content, { mode: 0o600 });
      chmodSync(file, 0o600);
      const old = readdirSync(dir)
        .filter((n) => FILE_NAME.test(n))
        .sort()
        .reverse()
        .slice(DIAGNOSTICS_KEPT);
      for (const n of old) rmSync(join(dir, n), { force: true });
      return file;
    } catch (e) {
      // The export still reaches the admin through the download; only the copy is missing.
      logger.warn('diagnostics file could not be written to the data folder', {
        dir,
        error: e instanceof Error ? e.message : String(e),
      });
      return null;
    }
  };

  return {
    handlers: {
      'diagnostics.export': () => {
        const now = clock.now();
        const file = buildDiagnostics({
          shell: ctx.shell,
          version: deps.version,
          dataDir: ctx.dataDir,
          secretStorage: deps.secretStorage,
          db: ctx.db,
          settings,
          status: deps.status,
          logFiles: deps.logFiles,
          now: () => now,
        });
        // A last pass over the whole text: a key that slipped into any field is masked here too.
        const content = scrubKnown(JSON.stringify(file, null, 2), known);
        const fileName = `counterpay-diagnostics-${stamp(now)}.json`;
        const savedTo = save(fileName, content);
        logger.info('diagnostics exported', {
          fileName,
          savedTo,
          bytes: content.length,
          logRecords: file.logs.records.length,
        });
        return {
          fileName,
          savedTo,
          content,
          bytes: Buffer.byteLength(content),
          logRecords: file.logs.records.length,
          providerErrors: file.providerErrors.length,
        };
      },
    },
  };
}
