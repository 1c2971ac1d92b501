// Code that reads in one sitting (issue 29), enforced by lint: a source file at most 400 lines and a
// function at most 150 (blank lines and comments not counted), a test file at most 800. The files
// still over a cap are listed in eslint.config.mjs to be split; each listed file must still be over
// its cap (a file split and left on the list would let it grow again unseen). And load-on-mount in
// the two browser apps goes through one hook, never an eslint-disable of react-hooks/exhaustive-deps.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function sizeProblems(filePath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return (r?.messages ?? [])
    .filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function')
    .map((m) => m.ruleId!);
}

/** A function of `n` statement lines, with a blank line and a comment after each. */
function functionOf(n: number): string {
  const body = Array.from({ length: n - 3 }, (_, i) => `  const v${i} = ${i};\n\n  // line ${i}`).join('\n');
  return `export function f(): number {\n${body}\n  return 0;\n}\n`;
}

/** A file of `n` code lines (each a small exported constant). */
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';

describe('size caps', () => {
  it('a function of 150 lines passes, of 151 fails; blank lines and comments do not count', async () => {
    expect(await sizeProblems('core/orders/x.ts', functionOf(150))).toEqual([]);
    expect(await sizeProblems('core/orders/x.ts', functionOf(151))).toEqual(['max-lines-per-function']);
    expect(await sizeProblems('renderer/src/screens/x.tsx', functionOf(151))).toEqual(['max-lines-per-function']);
  });

  it('a source file of 400 lines passes, of 401 fails; a test file may have 800', async () => {
    expect(await sizeProblems('hub/store/x.ts', fileOf(400))).toEqual([]);
    expect(await sizeProblems('hub/store/x.ts', fileOf(401))).toEqual(['max-lines']);
    expect(await sizeProblems('test/unit/x.test.ts', fileOf(800))).toEqual([]);
    expect(await sizeProblems('test/unit/x.test.ts', fileOf(801))).toEqual(['max-lines']);
    // A test's describe callback holds its cases: no function cap in tests.
    expect(await sizeProblems('test/unit/x.test.ts', functionOf(300))).toEqual([]);
  });

  it('every file on the lists to split exists and is still over its cap', async () => {
    const config = (await import(pathToFileURL(resolve(ROOT, 'eslint.config.mjs')).href)) as {
      LONG_FILES_TO_SPLIT: string[];
      LONG_FUNCTIONS_TO_SPLIT: string[];
    };
    const strict = new ESLint({
      cwd: ROOT,
      overrideConfig: [
        {
          files: ['**/*.{ts,tsx}'],
          rules: {
            'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
            'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
          },
        },
      ],
    });
    const over = async (files: string[], rule: string) => {
      // An empty list is empty (lintFiles([]) would lint the whole repository).
      if (!files.length) return [];
      const results = await strict.lintFiles(files.map((f) => resolve(ROOT, f)));
      return results.filter((r) => r.messages.some((m) => m.ruleId === rule)).map((r) => relative(ROOT, r.filePath));
    };
    expect(await over(config.LONG_FILES_TO_SPLIT, 'max-lines')).toEqual(config.LONG_FILES_TO_SPLIT);
    expect(await over(config.LONG_FUNCTIONS_TO_SPLIT, 'max-lines-per-function')).toEqual(
      config.LONG_FUNCTIONS_TO_SPLIT,
    );
  }, 120_000);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('effects in the browser apps', () => {
  it('no eslint-disable of react-hooks/exhaustive-deps: load-on-mount uses useOnMount / useOnChange', () => {
    const found = ['renderer/src', 'hub/dashboard/src']
      .flatMap((room) => sourceFiles(resolve(ROOT, room)))
      .filter((f) => /eslint-disable[^\n]*react-hooks\/exhaustive-deps/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(found).toEqual([]);
  });
});
