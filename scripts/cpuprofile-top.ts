// A text flame summary of a V8 CPU profile (`node --cpu-prof`): the stacks that spent the most
// self time, folded (caller > … > callee, as a flame graph reads bottom-up), with their share of the
// samples; with --under NAME, only the time spent below frames whose function is NAME; with
// --skip A,B, without the stacks that pass through a frame naming A or B (a sandbox in the same
// process, the benchmark's own floor); with --bucket 'LABEL=A+B' (repeatable), the kept time also
// shared out among labels, each stack to the first label all of whose parts it names (else
// "other"), per unit of work with --per N (ms per create for N creates).
//   npx tsx scripts/cpuprofile-top.ts <file.cpuprofile | folder> [--top 25] [--depth 6] [--under newSale] [--skip sandbox/]
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
  const file = n.callFrame.url
    .replace(/^.*\/node_modules\//, '')
    .replace(/^file:\/\/.*?\/(?=(core|shared|protocol|sandbox|test|scripts|hub|integrations|electron|renderer)\/)/, '');
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
  const skip = arg('--skip', '')
    .split(',')
    .filter((x) => x !== '');
  const buckets = process.argv.flatMap((a, i) => {
    if (process.argv[i - 1] !== '--bucket') return [];
    const [label, parts] = a.split('=');
    return label && parts ? [{ label, parts: parts.split('+') }] : [];
  });
  const per = Number(arg('--per', '1'));
  const shares = new Map<string, number>();
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
    if (skip.some((x) => frames.some((f) => f.includes(x)))) continue;
    const key = frames.length > depth ? ['…', ...frames.slice(-depth)].join(' > ') : frames.join(' > ');
    folded.set(key, (folded.get(key) ?? 0) + ms);
    kept += ms;
    const whole = frames.join(' > ');
    const label = buckets.find((b) => b.parts.every((x) => whole.includes(x)))?.label ?? 'other';
    shares.set(label, (shares.get(label) ?? 0) + ms);
  }
  const rows = [...folded].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(
    `${file}: ${all.toFixed(0)} ms sampled, ${kept.toFixed(0)} ms kept${under ? ` (under ${under})` : ''}${skip.length ? ` (without ${skip.join(', ')})` : ''}; top ${rows.length} stacks by self time, share of what was kept`,
  );
  for (const [stack, ms] of rows)
    console.log(`${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / (kept || 1)).toFixed(1).padStart(5)}%  ${stack}`);
  if (buckets.length === 0) return;
  console.log(`shared out${per !== 1 ? `, ms per unit of ${per}` : ''}:`);
  for (const [label, ms] of [...shares].sort((a, b) => b[1] - a[1]))
    console.log(
      `${(ms / per).toFixed(per !== 1 ? 3 : 1).padStart(9)} ms ${((100 * ms) / (kept || 1)).toFixed(1).padStart(5)}%  ${label}`,
    );
}

main();
