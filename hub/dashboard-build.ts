// `npm run hub` builds the dashboard's web app when it is missing or older than its source
// (hub/dashboard/ and shared/), so a fresh checkout serves it without a separate step. The build goes
// to a temporary folder and replaces the old one only when complete; a lock folder keeps two Hubs
// started at once from building together (the second serves what is there: the page says so).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SOURCES = [join(ROOT, 'hub', 'dashboard'), join(ROOT, 'shared')];

function newest(dir: string): number {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Missing, or a source file is newer than the build's index.html. */
function dashboardStale(outDir: string): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((d) => newest(d) > built);
}

type BuildOutcome = 'fresh' | 'built' | 'busy' | 'unavailable';

/** Builds when stale. 'unavailable': the sources or Vite are not here (an installed Hub without dev tools). */
export async function ensureDashboardBuilt(outDir: string, log: (line: string) => void): Promise<BuildOutcome> {
  if (!existsSync(join(ROOT, 'hub', 'dashboard', 'vite.config.mts')))
    return existsSync(join(outDir, 'index.html')) ? 'fresh' : 'unavailable';
  if (!dashboardStale(outDir)) return 'fresh';
  const lock = `${outDir}.lock`;
  mkdirSync(resolve(outDir, '..'), { recursive: true });
  try {
    mkdirSync(lock);
  } catch {
    // Another Hub is building; a lock older than 5 minutes is left over from a killed build.
    if (Date.now() - statSync(lock).mtimeMs < 300_000) return 'busy';
    rmSync(lock, { recursive: true, force: true });
    mkdirSync(lock);
  }
  const tmp = `${outDir}.tmp-${process.pid}`;
  try {
    let vite: typeof import('vite');
    try {
      vite = await import('vite');
    } catch {
      return 'unavailable';
    }
    log('building the dashboard web app (hub/dashboard → out/hub-dashboard)…');
    await vite.build({
      configFile: join(ROOT, 'hub', 'dashboard', 'vite.config.mts'),
      logLevel: 'warn',
      build: { outDir: tmp, emptyOutDir: true },
    });
    rmSync(outDir, { recursive: true, force: true });
    renameSync(tmp, outDir);
    return 'built';
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(lock, { recursive: true, force: true });
  }
}
