// Every command in the docs works as written. A fenced command block (sh, bash, shell, console)
// whose info string says `runnable` (```sh runnable) is run here as it stands, with bash -e at the
// repository's root, on a fresh temporary folder (TMPDIR, so `mktemp -d` lands there, and
// COUNTERPAY_DATA_DIR), with a time limit, and must exit 0. A runnable block starts no server it
// does not stop: a command that would keep running is shown with `--help` or one that exits, and
// a port, when one is named, is 0 (any free port). Every command block, run or not, is listed in
// docs/README.md: the runnable ones in its first table, the others with how they were checked.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const INDEX = 'docs/README.md';
/** The heading in the index after which the blocks that are not run are listed. */
const NOT_RUN_HEADING = '## Command blocks checked another way';
const BLOCK_TIMEOUT_MS = 240_000;
const SKIP_DIRS = new Set([
  'node_modules',
  'out',
  'dist',
  '.git',
  'test-results',
  'playwright-report',
  '.data',
  '.tmp',
  '.sandbox',
  '.hub-data',
  'artifacts',
  'fixtures',
]);
const COMMAND_LANGS = new Set(['sh', 'bash', 'shell', 'console']);

export interface CommandBlock {
  file: string;
  line: number;
  runnable: boolean;
  text: string;
  /** The block's first command as the index names it: comments and extra spaces left out. */
  first: string;
}

/** The fenced command blocks of one Markdown text. */
export function commandBlocks(file: string, markdown: string): CommandBlock[] {
  const lines = markdown.split('\n');
  const out: CommandBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const words = open[2]!.trim().split(/\s+/).filter(Boolean);
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith(fence)) j++;
    const body = lines.slice(i + 1, j);
    if (COMMAND_LANGS.has(words[0] ?? '')) {
      const first =
        body
          .map((l) =>
            l
              .replace(/\s+#.*$/, '')
              .replace(/\s+/g, ' ')
              .trim(),
          )
          .find((l) => l !== '' && !l.startsWith('#')) ?? '';
      out.push({ file, line: i + 1, runnable: words.includes('runnable'), text: body.join('\n'), first });
    }
    i = j;
  }
  return out;
}

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) markdownFiles(join(dir, entry.name), out);
    } else if (entry.name.endsWith('.md')) {
      out.push(relative(ROOT, join(dir, entry.name)).split(sep).join('/'));
    }
  }
  return out;
}

const blocks = markdownFiles(ROOT)
  .sort()
  .flatMap((f) => commandBlocks(f, readFileSync(join(ROOT, f), 'utf8')));
const runnable = blocks.filter((b) => b.runnable);
const index = readFileSync(join(ROOT, INDEX), 'utf8');

/** Runs one block; resolves with its exit code (null when it was stopped at the time limit) and output. */
function runBlock(text: string, tmp: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', text], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        TMPDIR: tmp,
        COUNTERPAY_DATA_DIR: join(tmp, 'counterpay-data'),
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let timedOut = false;
    // The whole process group: npm, tsx and node below it.
    const limit = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }, BLOCK_TIMEOUT_MS);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(limit);
      done({ code: timedOut ? null : code, output });
    });
  });
}

describe('the docs index names every command block', () => {
  const [runTable = '', notRunTable = ''] = index.split(NOT_RUN_HEADING);
  const rowOf = (table: string, b: CommandBlock) =>
    table.split('\n').find((l) => l.startsWith('|') && l.includes(`\`${b.file}\``) && l.includes(`\`${b.first}\``));

  it('there are runnable blocks, and each one is in the index’s runnable table', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(2);
    for (const b of runnable)
      expect(
        rowOf(runTable, b),
        `${b.file}:${b.line} (${b.first}) is not in the runnable table of ${INDEX}`,
      ).toBeDefined();
  });

  it('every block that is not run is listed with how it was checked', () => {
    expect(notRunTable, `${INDEX} has no "${NOT_RUN_HEADING}" section`).not.toBe('');
    for (const b of blocks.filter((x) => !x.runnable)) {
      const row = rowOf(notRunTable, b);
      expect(row, `${b.file}:${b.line} (${b.first}) is neither marked runnable nor listed in ${INDEX}`).toBeDefined();
      // file | first command | how it was checked: the last cell says something.
      expect(
        row!
          .split('|')
          .map((c) => c.trim())
          .filter(Boolean).length,
        `${b.file}:${b.line}: say how it was checked`,
      ).toBeGreaterThanOrEqual(3);
    }
  });

  it('a runnable block names no fixed port (0 picks a free one)', () => {
    for (const b of runnable) {
      for (const m of b.text.matchAll(/--port[ =](\S+)/g)) expect(m[1], `${b.file}:${b.line}`).toBe('0');
    }
  });
});

describe('runnable command blocks', () => {
  const tmps: string[] = [];
  afterAll(() => {
    for (const t of tmps) rmSync(t, { recursive: true, force: true });
  });

  for (const b of runnable) {
    it(`${b.file}:${b.line} — ${b.first}`, { timeout: BLOCK_TIMEOUT_MS + 30_000 }, async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'counterpay-docs-'));
      tmps.push(tmp);
      const { code, output } = await runBlock(b.text, tmp);
      expect(
        code,
        `${b.file}:${b.line} ${code === null ? `did not end within ${BLOCK_TIMEOUT_MS / 1000} s` : `exited ${code}`}:\n${output.slice(-3000)}`,
      ).toBe(0);
    });
  }
});
