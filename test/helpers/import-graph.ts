// The repository's import graph over relative imports, and its circles. Every import counts, a
// type-only one included (`import type`, `export type … from`, `import('…')` in a type): a circle of
// types still ties the files together. Files are read with TypeScript's own import scanner (no
// parse of the whole program); a specifier is resolved as the compiler does for these sources:
// `x.ts`, `x.tsx`, `x.mts`, `x.d.ts`, `x/index.ts`, `x/index.tsx`. Package imports are left out.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.git']);

/** Every source file under `dir` (absolute paths). */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!SKIP_DIRS.has(name)) out.push(...sourceFiles(p));
    } else if (SOURCE.test(name)) out.push(p);
  }
  return out;
}

/** The file a relative specifier names, or null (not a source file of ours). */
export function resolveRelative(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec.replace(/\.(js|mjs|cjs)$/, ''));
  const candidates = SOURCE.test(base) ? [base] : [];
  candidates.push(
    ...['.ts', '.tsx', '.mts', '.d.ts'].map((e) => base + e),
    ...['index.ts', 'index.tsx'].map((i) => join(base, i)),
  );
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** The relative imports of one file's text (value and type alike). */
export function relativeImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s === '.' || s === '..' || s.startsWith('./') || s.startsWith('../'));
}

export type ImportGraph = Map<string, Set<string>>;

/** The graph of the files under `roots`; an edge to a file outside them is kept when it resolves. */
export function importGraph(roots: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of roots.flatMap(sourceFiles)) {
    const to = new Set<string>();
    for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
      const target = resolveRelative(file, spec);
      if (target && target !== file) to.add(target);
    }
    graph.set(file, to);
  }
  return graph;
}

/**
 * The strongly connected groups of the graph with more than one file (Tarjan's algorithm, without
 * recursion): each is a set of files that all reach one another through imports, so a group of
 * three or more files holds an import circle through more than two files… or pairs chained together,
 * which tie as many files; both are what "no circle of more than two files" forbids.
 */
export function importCircles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edges: string[]; i: number }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])].filter((n) => graph.has(n)), i: 0 });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      if (top.i < top.edges.length) {
        const to = top.edges[top.i++]!;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          group.push(n);
        } while (n !== top.node);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  return groups.sort((a, b) => b.length - a.length);
}

/** One circle inside a group, as a readable path `a.ts → b.ts → … → a.ts` (breadth-first, shortest through the group's first file). */
export function circlePath(graph: ImportGraph, group: string[], cwd: string): string {
  const members = new Set(group);
  const start = group[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const n = queue.shift()!;
    for (const to of graph.get(n) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [n];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return [...path, start].map((f) => relative(cwd, f)).join(' → ');
      }
      if (!prev.has(to)) {
        prev.set(to, n);
        queue.push(to);
      }
    }
  }
  return group.map((f) => relative(cwd, f)).join(', ');
}
