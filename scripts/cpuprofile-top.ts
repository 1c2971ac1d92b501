// A text flame summary of a V8 CPU profile (`node --cpu-prof`): the stacks that spent the most
// self time, folded (caller > … > callee, as a flame graph reads bottom-up), with their share of the
// samples; and, with --under NAME, only the time spent below frames whose function is NAME.
//   npx tsx scripts/cpuprofile-top.ts <file.cpuprofile | folder> [--top 25] [--depth 6] [--under newSale]
// A folder: its newest .cpuprofile. Frames are shortened to `function file:line`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : (process.argv[i + 1] ?? fallback);
};

function newest(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const files = readdirSync(path)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(path, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${path}`);
  return files[0];
}

const frame = (n: ProfileNode): string => {
  const file = n.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '');
  return `${n.callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${n.callFrame.lineNumber + 1}` : ''}`;
};

function main(): void {
  const target = process.argv[2];
  if (!target || target.startsWith('--'))
    throw new Error('usage: cpuprofile-top.ts <file|folder> [--top N] [--depth N] [--under NAME]');
  const file = newest(target);
  const top = Number(arg('--top', '25'));
  const depth = Number(arg('--depth', '6'));
  const under = arg('--under', '');
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const all = [...self.values()].reduce((a, b) => a + b, 0);

  // Each sampled node's stack, root first; kept only below `under` when asked.
  const folded = new Map<string, number>();
  let kept = 0;
  for (const [id, ms] of self) {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.unshift(byId.get(at)!);
    const from = under ? stack.findIndex((n) => n.callFrame.functionName === under) : 0;
    if (from < 0) continue;
    const frames = stack
      .slice(from)
      .map(frame)
      .filter((f) => f !== '(root)');
    const key = frames.length > depth ? ['…', ...frames.slice(-depth)].join(' > ') : frames.join(' > ');
    folded.set(key, (folded.get(key) ?? 0) + ms);
    kept += ms;
  }
  const rows = [...folded].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(
    `${file}: ${all.toFixed(0)} ms sampled${under ? `, ${kept.toFixed(0)} ms under ${under}` : ''}; top ${rows.length} stacks by self time (share of ${under ? `${under}'s` : 'all'})`,
  );
  for (const [stack, ms] of rows)
    console.log(`${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / (kept || 1)).toFixed(1).padStart(5)}%  ${stack}`);
}

main();
