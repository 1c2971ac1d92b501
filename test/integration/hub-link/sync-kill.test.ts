// The counter process is killed (SIGKILL) in the middle of sending its journal to the Hub, then
// started again on the same SQLite file: it resumes from the Hub's number and the Hub ends with
// exactly the counter's journal, no gap, no duplicate, whether the last batch was kept or not.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { createOutboxSink, HubOutbox } from '../../../core/hub-link';
import { OrderJournal } from '../../../core/orders';
import { readJournal } from '../../../hub/store/journal';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { linkCounter, stopHubNow, type LinkedCounter } from '../../helpers/hub-link';
import { sale } from '../../helpers/orders-db';

const ROOT = resolve(__dirname, '../../..');
const ORDERS = 700; // three events each
let hub: TestHub;
let dir: string;
let child: ChildProcess | null = null;
let counter: LinkedCounter | null = null;

beforeAll(async () => {
  hub = await startTestHub();
  dir = mkdtempSync(join(tmpdir(), 'counterpay-sync-kill-'));
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await counter?.close();
  await stopHubNow(hub);
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the first stdout match of `re` for which `accept` holds; rejects if the child exits first. */
function lineFrom(c: ChildProcess, re: RegExp, accept: (m: RegExpExecArray) => boolean): Promise<RegExpExecArray> {
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    c.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      for (const m of out.matchAll(new RegExp(re.source, 'g'))) if (accept(m)) ok(m);
    });
    c.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    c.once('exit', (code, signal) =>
      fail(new Error(`child exited (${code ?? signal}) early:\n${out.slice(-2000)}\n${err}`)),
    );
  });
}

describe('a counter killed mid-sync', () => {
  it("started again, resumes from the Hub's number: the Hub holds the journal exactly", async () => {
    const file = join(dir, 'counter.sqlite');
    // A day of sales written as the journal writes them (one outer transaction, to be quick).
    const db = openJournalDb(file);
    const journal = new OrderJournal(db, () => 1_738_310_400_000, createOutboxSink(new HubOutbox(db)));
    db.transaction(() => {
      for (let i = 0; i < ORDERS; i++) {
        const r = journal.insert({
          sale: sale({ seats: `A${i},B${i}` }),
          amountKobo: 710_000,
          counterCode: 'K1',
          businessDay: '250131',
          createdAt: 1_738_310_400_000 + i,
          expireSeconds: 300,
          state: 'creating',
          attempts: 1,
          headMerchantId: 'H1',
          merchantId: 'M1',
          note: 'Sale recorded',
        });
        journal.transition(r.id, 'waiting', 'On the terminal', { patch: { orderNo: `PO-${i}` } });
        journal.transition(r.id, 'paid', 'Paid');
      }
    }).immediate();
    const total = new HubOutbox(db).headSeq();
    db.close();
    expect(total).toBe(ORDERS * 3);

    const enrollment = await enroll(hub, 'Killed Lane', 'BR-1');
    const conn = {
      url: hub.url,
      counterId: enrollment.counterId,
      credential: enrollment.credential,
      branch: enrollment.branch,
    };
    const argsFile = join(dir, 'child-args.json');
    writeFileSync(argsFile, JSON.stringify({ dbFile: file, conn, batchSize: 40 }));
    // tsx as a loader in this one process, so the kill reaches the process that syncs.
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/hub-sync-child.ts'), argsFile], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((r) => child!.once('exit', (_c, s) => r(s)));
    const m = await lineFrom(child, /SEQ (\d+)\n/, (x) => Number(x[1]) >= 600);
    child.kill('SIGKILL'); // its next batch is on its way, or just stored
    expect(await exited).toBe('SIGKILL');
    const keptByChild = Number(m[1]);
    const atKill = await readJournal(hub.db, enrollment.counterId);
    expect(atKill.length).toBeGreaterThanOrEqual(keptByChild);
    expect(atKill.length).toBeLessThan(total);

    counter = linkCounter({ file, hubUrl: hub.url, enrollment });
    expect(counter.outbox.lastSeq(enrollment.counterId)).toBeGreaterThanOrEqual(keptByChild);
    await counter.synced();
    const held = await readJournal(hub.db, enrollment.counterId);
    expect(held).toEqual(counter.events());
    expect(held.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });
});
