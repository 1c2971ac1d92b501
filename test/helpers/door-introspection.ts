// Reads the engine's source to find which code reaches a charge: the text of each contract call's
// handler (where a module's handler map answers it: `'<call>': …` up to the next handler), and the
// files that call a function. Used by the table of doors (test/integration/orders/charge-doors.test.ts)
// so that a new door that reaches the checkout's sale is found, not typed by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

function coreFiles(dir = join(ROOT, 'core')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? coreFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Each call's handler text in core/ (from its `'name':` key in a handler map to the next such key or the map's end). */
export function handlerSources(names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const want = new Set(names);
  for (const file of coreFiles()) {
    const text = readFileSync(file, 'utf8');
    const keys = [...text.matchAll(/^\s+'([a-zA-Z]+\.[a-zA-Z]+)':\s*(?:async\s*)?\(/gm)];
    keys.forEach((m, i) => {
      const name = m[1]!;
      if (!want.has(name)) return;
      const end = keys[i + 1]?.index ?? text.indexOf('\n  },', m.index);
      out[name] = (out[name] ?? '') + text.slice(m.index, end === -1 ? undefined : end);
    });
  }
  return out;
}

/** The core files (relative to the repository, sorted) whose text matches `re`. */
export function sourcesCalling(re: RegExp): string[] {
  return coreFiles()
    .filter((f) => re.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f))
    .sort();
}
