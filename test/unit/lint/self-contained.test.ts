// The repository stands on its own: no file (code, test, doc, config) refers to a path outside
// it, and none points a reader at documents a person who clones it does not have. Everything the
// code and the tests need is in the repository; the provider protocol is in docs/.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
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
const TEXT_EXT = new Set([
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '.md',
  '.html',
  '.css',
  '.svg',
  '.sh',
  '.yml',
  '.yaml',
  '.txt',
  '',
]);

/**
 * Names that only make sense on the author's machine. Written in pieces so this file does not
 * trip over itself.
 */
const FOREIGN_NAMES: { pattern: RegExp; why: string }[] = [
  {
    pattern: new RegExp(['provider', 'conventions\\.md'].join('-')),
    why: 'a document outside the repository; point to docs/provider-protocol.md',
  },
  {
    pattern: new RegExp(['provider', 'api\\.md'].join('-')),
    why: 'a document outside the repository; point to docs/provider-protocol.md',
  },
  { pattern: new RegExp(`(^|[^\\w.-])${'spec'}/`), why: 'a folder outside the repository' },
  { pattern: new RegExp(`/${'work'}/`), why: 'an absolute path on one machine' },
  { pattern: new RegExp(`\\bthe ${'issue'}\\b`, 'i'), why: 'a ticket the reader cannot see; say what is meant' },
];

/** Relative paths written in a file: import specifiers, path strings, links, paths in comments. */
const RELATIVE_PATH = /(?:^|[\s'"`(=[<])((?:\.\.?\/)+[\w@$.-][\w@$./-]*)/g;

/** Files whose relative paths are import patterns matched in other files, not paths from here. */
const PATTERN_FILES = new Set(['eslint.config.mjs']);

export interface Finding {
  line: number;
  text: string;
  why: string;
}

/** What in `text` (the content of `file`, a path inside `root`) reaches outside the repository. */
export function outsideReferences(root: string, file: string, text: string): Finding[] {
  const found: Finding[] = [];
  const checkPaths = !PATTERN_FILES.has(file.split(sep).join('/'));
  const dir = resolve(root, file, '..');
  text.split('\n').forEach((lineText, i) => {
    for (const { pattern, why } of FOREIGN_NAMES) {
      if (pattern.test(lineText)) found.push({ line: i + 1, text: lineText.trim().slice(0, 160), why });
    }
    if (!checkPaths) return;
    for (const m of lineText.matchAll(RELATIVE_PATH)) {
      const target = resolve(dir, m[1]!);
      if (target !== root && !target.startsWith(root + sep)) {
        found.push({ line: i + 1, text: m[1]!, why: `resolves to ${target}, outside the repository` });
      }
    }
  });
  return found;
}

function repositoryFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) repositoryFiles(join(dir, entry.name), out);
    } else if (
      entry.isFile() &&
      entry.name !== '.git' &&
      TEXT_EXT.has(extname(entry.name)) &&
      entry.name !== 'package-lock.json'
    ) {
      out.push(relative(ROOT, join(dir, entry.name)));
    }
  }
  return out;
}

describe('the repository stands on its own', () => {
  const self = relative(ROOT, __filename);
  const files = repositoryFiles(ROOT).filter((f) => f !== self);

  it('looks at the whole repository', () => {
    for (const f of [
      'README.md',
      'shared/settings.ts',
      'test/fixtures/test-vectors.json',
      'docs/provider-protocol.md',
      'docs/architecture.md',
    ]) {
      expect(files).toContain(f.split('/').join(sep));
    }
  });

  it('no file refers to a path outside it or to documents it does not hold', () => {
    const report = files.flatMap((f) =>
      outsideReferences(ROOT, f, readFileSync(join(ROOT, f), 'utf8')).map(
        (x) => `${f}:${x.line}: ${x.text} (${x.why})`,
      ),
    );
    expect(report).toEqual([]);
  });

  it('the check finds what it is meant to find', () => {
    const root = resolve('/repo');
    const file = 'test/unit/lint/x.test.ts';
    const escaping = "import v from '../../../../elsewhere/vectors.json';";
    expect(outsideReferences(root, file, escaping).map((x) => x.why)).toEqual([
      `resolves to ${resolve('/elsewhere/vectors.json')}, outside the repository`,
    ]);
    expect(outsideReferences(root, file, '// see ../../../../shared/notes for why')).toHaveLength(1);
    expect(outsideReferences(root, file, `// as ${['provider', 'conventions.md'].join('-')} says`)).toHaveLength(1);
    expect(outsideReferences(root, file, `// what ${'the'} ${'issue'} asks`)).toHaveLength(1);
    // Inside the repository, and look-alikes that are not references, pass.
    expect(outsideReferences(root, file, "import { calls } from '../../../shared/contract';")).toEqual([]);
    expect(outsideReferences(root, file, "const ROOT = resolve(__dirname, '../../..');")).toEqual([]);
    expect(outsideReferences(root, file, "test('checkout.spec/one', () => {}); // the issuer's bank")).toEqual([]);
  });
});
