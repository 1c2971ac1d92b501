// Where a create's time goes (issue 28), in one process: its floor and its overhead as `npm run bench`
// measures them, then, given a CPU profile of that run, the sale's call tree by time spent.
//   node_modules/.bin/node --cpu-prof --cpu-prof-dir /tmp/create-prof --import tsx test/bench/create-profile.ts
//   npx tsx test/bench/create-profile.ts --summarise /tmp/create-prof
//   npx tsx scripts/cpuprofile-top.ts /tmp/create-prof --under newSale   (the top stacks by self time)
// Use the project's Node 22 (node_modules/.bin/node): the system's Node 20.20 ends --cpu-prof in a
// segmentation fault on these machines. Options: --creates N (default 200), --dir DIR (the journal's
// disk; default the system's temporary folder).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCreateFloor } from './create-floor';
import { runCreateOverhead } from './create-overhead-bench';

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

const arg = (name: string): string | null => {
  const i = process.argv.indexOf(name);
  return i < 0 ? null : (process.argv[i + 1] ?? null);
};

/** The newest profile in `dir`: the sale's call tree (merged by function), 3 levels, in ms over all creates. */
function summarise(dir: string): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${dir}: run with --cpu-prof --cpu-prof-dir ${dir} first`);
  const p = JSON.parse(readFileSync(files[0], 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const total = new Map<number, number>();
  const inclusive = (id: number): number => {
    const have = total.get(id);
    if (have !== undefined) return have;
    const t = (self.get(id) ?? 0) + (byId.get(id)!.children ?? []).reduce((a, c) => a + inclusive(c), 0);
    total.set(id, t);
    return t;
  };
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|work\/wt\/[^/]+)\//, '')}:${n.callFrame.lineNumber + 1}`;
  const print = (ids: number[], depth: number, indent: string) => {
    const groups = new Map<string, number[]>();
    for (const id of ids)
      for (const c of byId.get(id)!.children ?? [])
        groups.set(name(byId.get(c)!), [...(groups.get(name(byId.get(c)!)) ?? []), c]);
    const rows = [...groups].map(([k, cs]) => ({ k, cs, t: cs.reduce((a, c) => a + inclusive(c), 0) }));
    for (const r of rows.sort((a, b) => b.t - a.t).filter((r) => r.t >= 20)) {
      const s = r.cs.reduce((a, c) => a + (self.get(c) ?? 0), 0);
      console.log(`${indent}${r.t.toFixed(0).padStart(6)} ms (self ${s.toFixed(0)}) ${r.k}`);
      if (depth > 1) print(r.cs, depth - 1, indent + '  ');
    }
  };
  // The sale's synchronous start (sell: validate, write, sign, send) and what runs when the answer
  // comes (read it, decrypt it, move the order to waiting), each merged over every create.
  const roots: [string, string][] = [
    ['newSale', 'checkout-sales'],
    ['create', 'order-calls'],
  ];
  console.log(`${files[0]}: where the creates' time went, all creates together`);
  for (const [fn, file] of roots) {
    const ids = p.nodes
      .filter((n) => n.callFrame.functionName === fn && n.callFrame.url.includes(file))
      .map((n) => n.id);
    console.log(`${fn} (${file}): ${ids.reduce((a, id) => a + inclusive(id), 0).toFixed(0)} ms`);
    print(ids, 3, '  ');
  }
}

async function main(): Promise<void> {
  const dir = arg('--summarise');
  if (dir) return summarise(dir);
  const creates = Number(arg('--creates') ?? 200);
  const baseDir = arg('--dir') ?? tmpdir();
  const floor = runCreateFloor({ baseDir, n: creates });
  const over = await runCreateOverhead({ creates, warmup: 20, baseDir, withRecords: true });
  console.log(
    `${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}; ${creates} creates, journal in ${baseDir}\n` +
      `floor (sign + encrypt + one commit): p50 ${floor.p50} ms (RSA ${floor.cryptoP50}, commit ${floor.commitP50}), p95 ${floor.p95} ms\n` +
      `create overhead: p50 ${over.p50} ms = ${(over.p50 / floor.p50).toFixed(1)} x floor, p95 ${over.p95} ms = ${(over.p95 / floor.p95).toFixed(1)} x floor (whole create p50 ${over.totalP50} ms, its HTTP ${over.httpP50} ms)`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
