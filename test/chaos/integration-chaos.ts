// The box-office part of the chaos run: a box office asks a counter (its own process, SIGKILLed at
// seeded moments) for charges through the integration API, retrying at random — after a lost
// answer, and sometimes twice at once — while the provider injects its seeded faults and a
// simulated customer taps, fails, cancels or walks away. Then every booking reference must have
// exactly one order (no second order for a retry) and its final outcome told to the callback.
// integrationDuplicates: references with more than one order (journal or provider);
// integrationLost: references the box office was answered for whose final outcome never reached
// its callback (or that have no charge at all).
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRng } from '../helpers/chaos-random';
import type { IntegrationChildArgs } from '../helpers/integration-counter-child';
import { api, startCallbackReceiver, twoSeats } from '../helpers/integration-kit';
import { chaosTuning, startChaosSandbox, type ChaosOptions } from './chaos-setup';
import { TerminalSimulator } from './terminal-simulator';

export interface IntegrationChaosReport {
  references: number;
  integrationDuplicates: number;
  integrationLost: number;
  problems: string[];
}

const ROOT = resolve(__dirname, '../..');
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runIntegrationChaos(
  o: ChaosOptions & { charges: number; integrationKills: number },
  print: (line: string) => void,
): Promise<IntegrationChaosReport> {
  const rng = createRng(o.seed).fork('integration');
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-chaos-'));
  const cs = await startChaosSandbox({ ...o, terminals: 1 });
  let key = '';
  const receiver = await startCallbackReceiver(() => key);
  const sim = new TerminalSimulator(cs.sandbox, { rng: rng.fork('terminal'), maxTapMs: 1_500, lateWebhookMs: 2_000 });
  let child: ChildProcess | null = null;
  let base = '';
  /** What the counter of the moment wrote (its last lines say why, if it left by itself). */
  let out = '';
  const tail = () => out.slice(-800);
  const start = (pair: boolean) =>
    new Promise<void>((ok, fail) => {
      const args: IntegrationChildArgs = {
        dir,
        provider: cs.provider,
        sn: cs.terminals[0]!,
        tuning: chaosTuning(o.expireSeconds),
        settings: {
          counterName: 'Chaos BO',
          headMerchantId: cs.merchant.headMerchantId,
          merchantId: cs.merchant.merchantId,
          orderExpireSeconds: o.expireSeconds,
        },
        ...(pair ? { pairWithCallback: receiver.url } : {}),
      };
      writeFileSync(join(dir, 'args.json'), JSON.stringify(args));
      const c = spawn(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'test/helpers/integration-counter-child.ts'), join(dir, 'args.json')],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = c;
      out = '';
      c.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /READY (\S+) (\S+)\n/.exec(out);
        if (m) {
          base = m[1]!;
          if (pair) key = m[2]!;
          ok();
        }
      });
      c.stderr.on('data', (b: Buffer) => (out += b.toString()));
      c.once('exit', (code, sig) =>
        fail(new Error(`counter exited (${code ?? sig}) before it was ready: ${out.slice(-500)}`)),
      );
    });
  const kill = async () => {
    const c = child!;
    // A counter that already left (it crashed) is said, not waited for: its exit came and went.
    if (c.exitCode !== null || c.signalCode !== null) {
      print(`integration: the counter had already exited (${c.exitCode ?? c.signalCode}): ${tail()}`);
      return;
    }
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };

  const answered = new Set<string>();
  /** The box office: asks until it gets an answer (a kill loses some), sometimes twice at once; gives up after two minutes. */
  const charge = async (reference: string) => {
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const twice = rng.chance(0.2) ? 2 : 1;
      const tries = await Promise.all(
        Array.from({ length: twice }, () =>
          api(base, key, 'POST', '/v1/charges', twoSeats(reference)).catch(() => null),
        ),
      );
      if (tries.some((t) => t && (t.status === 200 || t.status === 201))) {
        answered.add(reference);
        return;
      }
      await pause(rng.int(50, 400));
    }
  };

  const problems: string[] = [];
  try {
    await start(true);
    const refs = Array.from({ length: o.charges }, (_, i) => `CHAOS-${o.seed}-${i}`);
    const killAt = new Set(Array.from({ length: o.integrationKills }, () => rng.int(1, Math.max(1, o.charges - 1))));
    const inFlight: Promise<void>[] = [];
    for (const [i, ref] of refs.entries()) {
      inFlight.push(charge(ref));
      await pause(rng.int(20, 200));
      if (killAt.has(i)) {
        await kill();
        print(`integration: kill before charge ${i + 2}`);
        await start(false);
      }
    }
    await Promise.all(inFlight);
    // Every answered reference ends final and told (bounded by the orders' life and retries).
    const deadline = Date.now() + o.expireSeconds * 1000 + 30_000;
    const told = () =>
      refs.filter((r) =>
        receiver
          .acked()
          .some((c) => c.body.charge.reference === r && c.body.charge.final && c.body.event.to === c.body.charge.state),
      );
    while (Date.now() < deadline && told().length < answered.size) await pause(200);
    await kill();

    const db = new Database(join(dir, 'journal.sqlite'), { readonly: true });
    const linked = db
      .prepare(
        'SELECT c.reference AS reference, o.out_order_no AS outOrderNo, o.state AS state FROM integration_charges c JOIN orders o ON o.id = c.order_id',
      )
      .all() as { reference: string; outOrderNo: string; state: string }[];
    const orders = (db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
    db.close();
    const byRef = new Map(linked.map((l) => [l.reference, l]));
    // Every order of this run was asked by the box office: one not linked to a reference is a second order for some reference.
    let duplicates = orders - linked.length;
    const provider = cs.sandbox.listPosOrders();
    for (const l of linked) if (provider.filter((p) => p.outOrderNo === l.outOrderNo).length > 1) duplicates++;
    let lost = 0;
    const toldSet = new Set(told());
    for (const r of answered) {
      const l = byRef.get(r);
      if (!l) {
        lost++;
        problems.push(`${r}: answered but no charge in the journal`);
      } else if (!toldSet.has(r)) {
        lost++;
        problems.push(`${r}: final outcome (${l.state}) never acknowledged by the callback`);
      }
    }
    if (answered.size < refs.length)
      problems.push(`${refs.length - answered.size} references never answered in two minutes of retrying`);
    print(
      `integration: ${refs.length} references, ${answered.size} answered, ${linked.length} charges, ${orders} orders, ${provider.length} provider orders, ${receiver.all.length} callbacks (${receiver.acked().length} acked), signatures ok=${receiver.all.every((r) => r.signatureOk)}`,
    );
    for (const p of problems.slice(0, 20)) print(`PROBLEM ${p}`);
    // A reference the box office could never get answered counts as lost: it could not charge it.
    return {
      references: refs.length,
      integrationDuplicates: duplicates,
      integrationLost: lost + (refs.length - answered.size),
      problems,
    };
  } finally {
    sim.close();
    const c = child as ChildProcess | null;
    if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await receiver.close();
    await cs.sandbox.close();
    if (problems.length === 0 && !o.keep) rmSync(dir, { recursive: true, force: true });
  }
}
