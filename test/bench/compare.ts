// bench:compare: this checkout's benchmarks side by side with those of an earlier commit, in one
// run. REF is checked out into a temporary git worktree with its own `npm ci`; then each round runs
// every chosen benchmark in both trees, one after the other, the order swapped every round, so the
// machine's drift (other work, heat, the disk's cache) falls on both. Each figure is printed for
// both sides (median and spread over the rounds) with the ratio and its per-round spread; a figure
// is WORSE when this checkout's median is more than 10% worse than REF's and the spreads do not
// overlap. Exit 1 when any figure is worse, 2 when a benchmark could not run.
// Usage: tsx test/bench/compare.ts REF [--rounds N] [--suite hub|app|both] [--full] [--keep] [--fresh-install] [--json FILE]
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  APP_FIGURES,
  compareFigure,
  figureAt,
  formatComparison,
  HUB_FIGURES,
  type Comparison,
  type FigureSpec,
} from './compare-stats';

type Suite = 'hub' | 'app';
const SUITES: Record<Suite, { script: string; figures: FigureSpec[]; name: string }> = {
  hub: { script: 'test/bench/hub/run.ts', figures: HUB_FIGURES, name: 'bench:hub' },
  app: { script: 'test/bench/run.ts', figures: APP_FIGURES, name: 'bench' },
};

interface Options {
  ref: string;
  rounds: number;
  suites: Suite[];
  quick: boolean;
  keep: boolean;
  freshInstall: boolean;
  json: string | null;
}

const USAGE =
  'usage: tsx test/bench/compare.ts REF [--rounds N] [--suite hub|app|both] [--full] [--keep] [--fresh-install] [--json FILE]';

function parse(argv: string[]): Options {
  const o: Options = {
    ref: '',
    rounds: 3,
    suites: ['hub', 'app'],
    quick: true,
    keep: false,
    freshInstall: false,
    json: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--suite') {
      const s = argv[++i];
      if (s === 'hub' || s === 'app') o.suites = [s];
      else if (s === 'both') o.suites = ['hub', 'app'];
      else throw new Error(`--suite takes hub, app or both, not ${String(s)}\n${USAGE}`);
    } else if (a === '--full') o.quick = false;
    else if (a === '--keep') o.keep = true;
    else if (a === '--fresh-install') o.freshInstall = true;
    else if (a === '--json') o.json = argv[++i] ?? null;
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else if (!o.ref) o.ref = a;
    else throw new Error(`one REF only (got ${o.ref} and ${a})\n${USAGE}`);
  }
  if (!o.ref) throw new Error(`which commit to compare with? Give a git ref (a tag, a branch, a commit)\n${USAGE}`);
  if (!Number.isInteger(o.rounds) || o.rounds < 2)
    throw new Error('--rounds needs a whole number >= 2 (the spread needs at least two rounds of each side)');
  return o;
}

const log = (s: string) => process.stderr.write(`bench:compare  ${s}\n`);

function git(cwd: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout.trim();
}

/** Runs a command with its output to a log file; resolves with its exit code. */
function run(
  cmd: string,
  args: string[],
  cwd: string,
  logFile: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return new Promise((done, fail) => {
    const out = createWriteStream(logFile, { flags: 'a' });
    out.write(`$ ${cmd} ${args.join(' ')}  (in ${cwd})\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', fail);
    child.on('close', (code) => out.end(() => done(code ?? 1)));
  });
}

const tail = (file: string, lines = 25): string =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '';

interface Tree {
  name: string;
  dir: string;
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const root = git(process.cwd(), ['rev-parse', '--show-toplevel']);
  const sha = git(root, ['rev-parse', '--verify', '--quiet', `${o.ref}^{commit}`]);
  const work = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  const refDir = join(work, 'ref');
  const dirty = git(root, ['status', '--porcelain', '--untracked-files=no']) !== '';
  const main: Tree = { name: `${git(root, ['rev-parse', '--short', 'HEAD'])}${dirty ? '+changes' : ''}`, dir: root };
  const ref: Tree = { name: o.ref === sha ? sha.slice(0, 7) : o.ref, dir: refDir };
  const logFile = join(work, 'compare.log');
  let added = false;
  let failed = false;
  try {
    log(`${ref.name} (${sha.slice(0, 12)}) into a temporary worktree, ${refDir}`);
    git(root, ['worktree', 'add', '--detach', refDir, sha]);
    added = true;
    const sameLock =
      readFileSync(join(root, 'package-lock.json'), 'utf8') === readFileSync(join(refDir, 'package-lock.json'), 'utf8');
    if (sameLock && !o.freshInstall && existsSync(join(root, 'node_modules'))) {
      // The same lock file installs the same packages: this checkout's, linked (--fresh-install to install anyway).
      log(`${ref.name}'s package-lock.json is this checkout's: its node_modules linked to this checkout's`);
      symlinkSync(realpathSync(join(root, 'node_modules')), join(refDir, 'node_modules'), 'dir');
    } else {
      log(`npm ci in it (ELECTRON_SKIP_BINARY_DOWNLOAD=1; output in ${logFile}) ...`);
      const installEnv = {
        ...process.env,
        ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        CI: 'true',
      };
      if ((await run('npm', ['ci', '--no-audit', '--no-fund'], refDir, logFile, installEnv)) !== 0)
        throw new Error(`npm ci failed in ${refDir}:\n${tail(logFile)}`);
    }

    const figures: Record<Suite, Record<string, { ref: number[]; main: number[] }>> = { hub: {}, app: {} };
    const load: number[] = [loadavg()[0]!];
    for (let round = 0; round < o.rounds; round++) {
      // A B, then B A: a machine that slows down (or speeds up) through the run weighs on both sides.
      const order: ['ref' | 'main', Tree][] =
        round % 2 === 0
          ? [
              ['ref', ref],
              ['main', main],
            ]
          : [
              ['main', main],
              ['ref', ref],
            ];
      for (const suite of o.suites) {
        for (const [which, tree] of order) {
          const out = join(work, `${suite}-${which}-${round + 1}.json`);
          const t0 = Date.now();
          const args = [SUITES[suite].script, ...(o.quick ? ['--quick'] : []), '--json', out];
          const code = await run(join(tree.dir, 'node_modules', '.bin', 'tsx'), args, tree.dir, logFile);
          if (code !== 0 || !existsSync(out))
            throw new Error(`${SUITES[suite].name} on ${tree.name} failed (exit ${code}):\n${tail(logFile)}`);
          const json: unknown = JSON.parse(readFileSync(out, 'utf8'));
          for (const f of SUITES[suite].figures) {
            const v = figureAt(json, f.path);
            if (v === null) continue;
            const slot = (figures[suite][f.path] ??= { ref: [], main: [] });
            slot[which][round] = v;
          }
          load.push(loadavg()[0]!);
          log(
            `round ${round + 1}/${o.rounds}: ${SUITES[suite].name} on ${tree.name} (${which}) in ${Math.round((Date.now() - t0) / 1000)} s`,
          );
        }
      }
    }

    const all: Comparison[] = [];
    const lines: string[] = [];
    lines.push(
      `bench:compare ${ref.name} (${sha.slice(0, 12)}) vs ${main.name}: ${o.rounds} rounds, order alternating; ${o.quick ? '--quick sizes' : 'full sizes'}; machine ${availableParallelism()} cores, load ${Math.min(...load).toFixed(2)}-${Math.max(...load).toFixed(2)}`,
    );
    for (const suite of o.suites) {
      const rows: Comparison[] = [];
      const missing: string[] = [];
      for (const f of SUITES[suite].figures) {
        const s = figures[suite][f.path];
        const pairs = s ? s.ref.flatMap((x, i) => (s.main[i] === undefined ? [] : [[x, s.main[i]!] as const])) : [];
        const c = pairs.length
          ? compareFigure(
              f,
              pairs.map((p) => p[0]),
              pairs.map((p) => p[1]),
            )
          : null;
        if (c) rows.push(c);
        else
          missing.push(
            `${f.label} (${!s ? 'neither side' : s.ref.length ? `not in ${main.name}` : `not in ${ref.name}`})`,
          );
      }
      all.push(...rows);
      lines.push('', `${SUITES[suite].name}:`, formatComparison(rows, ref.name, main.name));
      if (missing.length) lines.push(`not compared (a figure one side does not report): ${missing.join('; ')}`);
    }
    const worse = all.filter((c) => c.verdict === 'worse');
    lines.push(
      '',
      worse.length
        ? `WORSE than ${ref.name} beyond the noise (median > 10% worse, spreads apart): ${worse.map((c) => c.spec.label).join('; ')}`
        : `nothing worse than ${ref.name} beyond the noise (a median > 10% worse with spreads apart)`,
    );
    process.stdout.write(lines.join('\n') + '\n');
    if (o.json)
      writeFileSync(
        o.json,
        JSON.stringify(
          {
            ref: { name: ref.name, sha },
            main: main.name,
            rounds: o.rounds,
            quick: o.quick,
            figures,
            comparisons: all,
          },
          null,
          2,
        ) + '\n',
      );
    if (worse.length) process.exitCode = 1;
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    if (added) {
      try {
        git(root, ['worktree', 'remove', '--force', refDir]);
      } catch (e) {
        log(`could not remove the temporary worktree: ${(e as Error).message} (git worktree prune cleans it up)`);
      }
    }
    if (o.keep || failed) log(`kept ${work} (the runs' log and JSON figures)`);
    else rmSync(resolve(work), { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`bench:compare failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
