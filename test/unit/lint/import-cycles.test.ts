// No import circle through more than two files in the source folders. Type-only imports count: a
// circle of types still means no file of it can be read, moved or tested without the others. A
// small resolver over relative imports (test/helpers/import-graph.ts) builds the graph; the
// fixtures under test/fixtures/import-cycle show that it finds a circle when there is one.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circlePath, importCircles, importGraph, relativeImports, resolveRelative } from '../../helpers/import-graph';

const ROOT = resolve(__dirname, '../../..');
const SOURCE_FOLDERS = ['core', 'protocol', 'shared', 'sandbox', 'hub', 'browser-shell', 'electron', 'renderer'];
const FIXTURES = resolve(ROOT, 'test/fixtures/import-cycle');

describe('import circles', () => {
  it('the resolver reads every kind of relative import, type-only ones included', () => {
    const text = [
      "import type { A } from './a';",
      "import { type B, c } from '../b';",
      "export * from './d';",
      "export type { E } from './e';",
      "type F = typeof import('./f');",
      "import 'node:fs';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['./a', '../b', './d', './e', './f']);
    expect(resolveRelative(resolve(FIXTURES, 'three/c.ts'), '.')).toBe(resolve(FIXTURES, 'three/index.ts'));
    expect(resolveRelative(resolve(FIXTURES, 'three/a.ts'), './b')).toBe(resolve(FIXTURES, 'three/b.ts'));
    expect(resolveRelative(resolve(FIXTURES, 'three/a.ts'), './missing')).toBeNull();
  });

  it('finds a circle through three files (closed by a type-only import), and leaves a pair alone', () => {
    const graph = importGraph([FIXTURES]);
    const circles = importCircles(graph);
    const big = circles.filter((c) => c.length > 2);
    expect(big).toHaveLength(1);
    expect(big[0]!.map((f) => f.slice(FIXTURES.length + 1)).sort()).toEqual([
      'three/a.ts',
      'three/b.ts',
      'three/c.ts',
      'three/index.ts',
    ]);
    expect(circlePath(graph, big[0]!, FIXTURES)).toBe(
      'three/a.ts → three/b.ts → three/c.ts → three/index.ts → three/a.ts',
    );
    // x.ts ⇄ y.ts: a circle of two files, which the rule allows.
    expect(circles.filter((c) => c.length === 2).map((c) => c.map((f) => f.slice(FIXTURES.length + 1)))).toEqual([
      ['pair/x.ts', 'pair/y.ts'],
    ]);
  });

  it('shared/ is a tree: no circle at all, not even of two files (ledger.ts and records.ts once were one)', () => {
    const graph = importGraph([resolve(ROOT, 'shared')]);
    expect(graph.size).toBeGreaterThan(50);
    const report = importCircles(graph).map((c) => circlePath(graph, c, ROOT));
    expect(report, 'import circles in shared/').toEqual([]);
  });

  it('no circle through more than two files in the source folders', () => {
    const graph = importGraph(SOURCE_FOLDERS.map((f) => resolve(ROOT, f)));
    expect(graph.size).toBeGreaterThan(300); // the folders were read
    const big = importCircles(graph).filter((c) => c.length > 2);
    const report = big.map((c) => `${c.length} files, for example ${circlePath(graph, c, ROOT)}`);
    expect(report, 'import circles through more than two files').toEqual([]);
  });
});
