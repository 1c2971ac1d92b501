// Docs cannot name what is not there: every path the docs (docs/**/*.md, every README.md) and the
// source comments write — in backticks, in a markdown link, or (in a comment) as a bare word — that
// names a file or folder of the repository must exist. A renamed or deleted file then fails here,
// listing each place that still names it, instead of misleading the next reader.
//
// What counts as a path: a word that contains a `/` (and starts with a folder that exists, or ends in
// a file extension below), or a word that ends in one of those extensions. It is looked up relative
// to the file's own folder and each folder above it, and to the room roots (`core/`, `renderer/src/`,
// …), so `orders/poller.ts` in docs/architecture.md and `db/database.ts` in a core comment both
// resolve; a bare file name (`poller.ts`) also passes when a file of that name exists anywhere. A
// markdown link resolves as the browser would: relative to the file's folder only.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');

/** Generated or installed folders, and the test run's own output: not part of the repository. */
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
  'artifacts',
]);
/** Paths into what a build or a test run writes: named by the docs, never in the repository. */
const GENERATED = ['out/', 'node_modules/', 'dist/', 'test/artifacts/', 'test-results/', 'playwright-report/'];

/** The folders whose source comments are read. */
const SOURCE_ROOMS = [
  'core',
  'electron',
  'protocol',
  'shared',
  'browser-shell',
  'renderer',
  'sandbox',
  'hub',
  'integrations',
  'examples',
  'scripts',
  'test',
];
const SOURCE_EXT = new Set(['.ts', '.tsx', '.mts', '.mjs']);
/** Where a path written without its room is also looked for (`orders/poller.ts` means core's). */
const ROOM_BASES = [...SOURCE_ROOMS, 'renderer/src', 'hub/dashboard/src', 'electron/main', 'test/unit'];
/** A word ending in one of these names a file. */
const FILE_EXT = /\.(ts|tsx|mts|mjs|cjs|js|md|json|css|html|sql|sh|yml|yaml|png|svg)$/;
/**
 * A bare file name (no folder) is checked only for these: a bare `settings.json` or `BK-1.json` is
 * a file of the data folder or a drop folder, not of the repository.
 */
const BARE_EXT = /\.(ts|tsx|mts|mjs|cjs|js|md|css|html|sql|sh)$/;
/** Placeholders in an example path: `test/unit/<area>/x.test.ts`, `NNN-what.sql`, `orders/ID`. */
const PLACEHOLDER = /(^|\/)(x|NNN[^/]*|NxN[^/]*|ID)(\.|\/|$)/;
/** A code span that starts with an HTTP method is a route (`POST programme/import`), not a path. */
const HTTP_METHOD = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/;
/**
 * The changelog's tables are history: their rows name what was there before a rename, so only its
 * prose is checked.
 */
const HISTORY = 'docs/changelog.md';

/**
 * Names of things to come, or that are not files of the repository although they look like ones,
 * each with why. Keep it short: a real mistake is fixed in the doc, never listed here.
 */
export const ALLOWED: Record<string, string> = {
  'seat-layout.ts': 'shared/seats.ts: the layout file rules, to come with the seat maps',
  'best-seats.ts': 'shared/seats.ts: the "best N seats" choice, to come with the seat maps',
};

export interface Missing {
  line: number;
  path: string;
}

export interface RepoIndex {
  root: string;
  /** Every file and folder, relative to the root with `/`. */
  entries: Set<string>;
  /** Every file, relative to the root with `/`. */
  files: string[];
  /** The base names of every file. */
  names: Set<string>;
}

export function indexRepository(root: string): RepoIndex {
  const entries = new Set<string>();
  const names = new Set<string>();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_DIRS.has(e.name)) continue;
      const rel = relative(root, join(dir, e.name)).split(sep).join('/');
      entries.add(rel);
      if (e.isDirectory()) walk(join(dir, e.name));
      else {
        files.push(rel);
        names.add(e.name);
      }
    }
  };
  walk(root);
  return { root, entries, files, names };
}

/** The word as a path, or null when it is not meant as one of the repository. */
function asPath(word: string): string | null {
  let w = word.replace(/^[(["'`]+/, '').replace(/[)\]"'`.,;:!?]+$/, '');
  w = w.replace(/#.*$/, '').replace(/:\d+(:\d+)?$/, '');
  if (!w || w.length > 200) return null;
  if (/^[/~@$-]/.test(w) || w.includes('://')) return null;
  if (/[*<>{}[\]()|\\=,'"…:?&%+]/.test(w)) return null;
  if (GENERATED.some((g) => w.startsWith(g)) || PLACEHOLDER.test(w)) return null;
  w = w.replace(/\/+$/, '');
  // A lone folder name (`printing/`) or extension (`.json`) depends on its sentence: not checked.
  if (!w.includes('/') && (!FILE_EXT.test(w) || /^\.[a-z]+$/.test(w))) return null;
  return w;
}

function relPath(index: RepoIndex, abs: string): string | null {
  const rel = relative(index.root, abs);
  if (rel.startsWith('..') || resolve(index.root, rel) !== abs) return null;
  return rel.split(sep).join('/');
}

/** Folders a path written in `file` may be relative to: its own, each one above, the room roots. */
function basesOf(file: string): string[] {
  const bases: string[] = [];
  for (let d = dirname(file); ; d = dirname(d)) {
    bases.push(d === '.' ? '' : d);
    if (d === '.' || d === '/') break;
  }
  return [...bases, ...ROOM_BASES];
}

function existsUnder(index: RepoIndex, bases: string[], p: string): boolean {
  return bases.some((b) => {
    const rel = relPath(index, resolve(index.root, b, p));
    return rel !== null && (rel === '' || index.entries.has(rel));
  });
}

/**
 * Whether `p` exists under one of `bases`. A relative import written as an example (`../orders`,
 * `../orders/poller` in a rule about core's modules) resolves as an import from a module's folder.
 */
function exists(index: RepoIndex, bases: string[], p: string): boolean {
  if (existsUnder(index, bases, p)) return true;
  if (!p.startsWith('.')) return false;
  const rest = p.replace(/^(\.\.?\/)+/, '');
  return ['', '.ts', '.tsx', '/index.ts'].some((ext) => existsUnder(index, bases, `${rest}${ext}`));
}

/** Whether `p` (written in `file`) is meant as a path of the repository and is missing. */
function missing(index: RepoIndex, file: string, p: string): boolean {
  if (p in ALLOWED) return false;
  const bases = basesOf(file);
  if (!p.includes('/')) return BARE_EXT.test(p) && !exists(index, bases, p) && !index.names.has(p);
  const first = p.split('/').find((s) => s !== '.' && s !== '..')!;
  const meant =
    p.startsWith('.') || FILE_EXT.test(p) || bases.some((b) => index.entries.has(b ? `${b}/${first}` : first));
  return meant && !exists(index, bases, p);
}

/** Inline code spans and link targets of a markdown text, outside fenced blocks, by line. */
function markdownPaths(index: RepoIndex, file: string, text: string): Missing[] {
  const found: Missing[] = [];
  let fenced = false;
  text.split('\n').forEach((lineText, i) => {
    if (/^\s*(```|~~~)/.test(lineText)) fenced = !fenced;
    if (fenced || (file === HISTORY && lineText.startsWith('|'))) return;
    for (const m of lineText.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.replace(/#.*$/, '');
      if (!target || /^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      const rel = relPath(index, resolve(index.root, dirname(file), target));
      if (rel === null || (rel !== '' && !index.entries.has(rel.replace(/\/+$/, '')))) {
        found.push({ line: i + 1, path: m[1]! });
      }
    }
    for (const m of lineText.matchAll(/(`+)([^`]+?)\1/g)) {
      if (HTTP_METHOD.test(m[2]!.trim())) continue;
      for (const word of m[2]!.split(/\s+/)) {
        const p = asPath(word);
        if (p && missing(index, file, p)) found.push({ line: i + 1, path: p });
      }
    }
  });
  return found;
}

/**
 * The comments of a source file. TypeScript's parser tells them from strings, templates and regexes:
 * before a leaf's token there is only trivia, and between a node's children only punctuation,
 * keywords and trivia, so a `//` or a slash-star found there starts a comment.
 */
export function commentsOf(text: string, file = 'x.ts'): { line: number; text: string }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out: { line: number; text: string }[] = [];
  const add = (pos: number, end: number) => {
    const start = sf.getLineAndCharacterOfPosition(pos).line;
    text
      .slice(pos, end)
      .split('\n')
      .forEach((t, k) => out.push({ line: start + k + 1, text: t }));
  };
  const gap = (from: number, to: number) => {
    for (let i = from; i < to - 1; i++) {
      if (text[i] !== '/') continue;
      const close = text[i + 1] === '/' ? text.indexOf('\n', i) : text[i + 1] === '*' ? text.indexOf('*/', i + 2) : -2;
      if (close === -2) continue;
      const end = close === -1 ? text.length : text[i + 1] === '*' ? close + 2 : close;
      add(i, end);
      i = end - 1;
    }
  };
  const visit = (node: ts.Node) => {
    let pos = node.pos;
    let leaf = true;
    ts.forEachChild(node, (child) => {
      leaf = false;
      gap(pos, child.pos);
      visit(child);
      pos = child.end;
    });
    // A leaf: only its leading trivia (whitespace and comments) before its token.
    if (leaf) gap(node.pos, node.getStart(sf));
    else gap(pos, node.end);
  };
  visit(sf);
  return out;
}

function commentPaths(index: RepoIndex, file: string, text: string): Missing[] {
  const found: Missing[] = [];
  for (const c of commentsOf(text, file)) {
    for (const m of c.text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.replace(/#.*$/, '');
      if (!target || /^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      const p = asPath(target);
      if (p && missing(index, file, p)) found.push({ line: c.line, path: p });
    }
    const rest = c.text.replace(/\]\([^)\s]+\)/g, ']');
    for (const m of rest.matchAll(/`([^`]+)`/g)) {
      if (HTTP_METHOD.test(m[1]!.trim())) continue;
      for (const word of m[1]!.split(/\s+/)) {
        const p = asPath(word);
        if (p && missing(index, file, p)) found.push({ line: c.line, path: p });
      }
    }
    // Outside backticks a comment is prose: a word is taken for a path only when it ends in a file
    // extension or a slash (a list such as "terminal/order/merchant" is not a path).
    for (const word of rest.replace(/`[^`]*`/g, ' ').split(/\s+/)) {
      const bare = word.replace(/[)\]"'.,;:!?]+$/, '');
      if (!FILE_EXT.test(bare) && !bare.endsWith('/')) continue;
      const p = asPath(word);
      if (p && missing(index, file, p)) found.push({ line: c.line, path: p });
    }
  }
  return found;
}

/** Every missing path named in `file` (relative to the index's root), with its line. */
export function missingPaths(index: RepoIndex, file: string, text: string): Missing[] {
  return file.endsWith('.md') ? markdownPaths(index, file, text) : commentPaths(index, file, text);
}

/** The files read: docs/**\/*.md, every README.md, and the source files of the rooms. */
export function filesToRead(index: RepoIndex): string[] {
  return index.files
    .filter(
      (f) =>
        (f.startsWith('docs/') && f.endsWith('.md')) ||
        basename(f) === 'README.md' ||
        (SOURCE_ROOMS.some((r) => f.startsWith(`${r}/`)) &&
          SOURCE_EXT.has(extname(f)) &&
          !f.startsWith('test/fixtures/')),
    )
    .sort();
}

// Parsing every source file takes a few seconds on a loaded machine.
describe('every path the docs and the comments name exists', { timeout: 60_000 }, () => {
  const index = indexRepository(ROOT);
  const files = filesToRead(index);

  it('reads the docs, every README and the source comments', () => {
    for (const f of [
      'README.md',
      'docs/architecture.md',
      'docs/README.md',
      'core/README.md',
      'hub/README.md',
      'core/app-core.ts',
      'renderer/src/App.tsx',
      'test/unit/lint/docs-paths.test.ts',
      'hub/dashboard/src/main.tsx',
    ]) {
      expect(files).toContain(f);
    }
  });

  it('names no file or folder that is not there', () => {
    const report = files.flatMap((f) =>
      missingPaths(index, f, readFileSync(join(ROOT, f), 'utf8')).map((m) => `${f}:${m.line}: ${m.path}`),
    );
    expect(report).toEqual([]);
  });

  it('finds a missing path in a doc, a link and a comment, and passes what is there', () => {
    const doc = [
      'Start with `core/app-core.ts` and `orders/poller.ts`; see [the hub](../hub/README.md).',
      'The limits are in `http/rate-limit.ts` and `core/lib/gone.ts`; [old](missing.md).',
      '```sh',
      'cat not/a/real/file.ts',
      '```',
      'Routes `/api/v1/programme`, rules `react-hooks/exhaustive-deps`, output `out/hub-dashboard/`.',
      '`POST programme/import`, `settings.json`, `printing/`, `test/e2e/x.spec.ts`, `../orders/poller`.',
    ].join('\n');
    expect(missingPaths(index, 'docs/x.md', doc)).toEqual([
      { line: 2, path: 'missing.md' },
      { line: 2, path: 'http/rate-limit.ts' },
      { line: 2, path: 'core/lib/gone.ts' },
    ]);
    const source = [
      '// The migrations are listed in db/schema.ts (the root has `schema.ts`).',
      "const url = 'https://example.com/a/b.ts'; // see ../lib/backoff.ts",
      '/* moved: lib/token-bucket.ts */',
      "const s = '// not/a/comment.ts';",
      '// 404 (unknown terminal/order/merchant) and `poller.ts`, `../schema.ts`',
      'const re = /\\/\\/x.ts/; const t = `// ${re} lib/in-template.ts`;',
      'function f() {',
      '  return 1;',
      '  // the last line of a block: lib/closing.ts',
      '}',
    ].join('\n');
    expect(missingPaths(index, 'core/orders/x.ts', source)).toEqual([
      { line: 1, path: 'db/schema.ts' },
      { line: 3, path: 'lib/token-bucket.ts' },
      { line: 9, path: 'lib/closing.ts' },
    ]);
    const jsx = "const A = () => <p>Don't see // lib/text.ts</p>; // lib/after.tsx";
    expect(missingPaths(index, 'renderer/src/x.tsx', jsx)).toEqual([{ line: 1, path: 'lib/after.tsx' }]);
    const history = ['| `core/db/schema.ts` | `core/schema.ts` |', 'Then `core/gone/` went.'].join('\n');
    expect(missingPaths(index, 'docs/changelog.md', history)).toEqual([{ line: 2, path: 'core/gone' }]);
  });
});
