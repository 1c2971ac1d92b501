// The counter is SIGKILLed while box-office charges are in flight: started again on the same
// folder, every booking reference still has exactly one provider order, and every state change
// reaches the callback, in order, none missing (a change being delivered at the kill may arrive
// twice, with the same eventId).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeView } from '../../../shared/integration';
import { openJournalDb } from '../../../core/schema';
import { api, startCallbackReceiver, twoSeats, type CallbackReceiver } from '../../helpers/integration-kit';
import type { IntegrationChildArgs } from '../../helpers/integration-counter-child';
import { FAST_TUNING, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

const ROOT = resolve(__dirname, '../../..');
let sb: OrdersSandbox;
let receiver: CallbackReceiver;
let key = '';
let child: ChildProcess | null = null;
const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-kill-'));

beforeAll(async () => {
  sb = await startOrdersSandbox();
  receiver = await startCallbackReceiver(() => key);
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver.close();
  await sb.sandbox.close();
});

/** Starts the counter process; resolves with its API address (and the key when it paired). */
function startCounter(pair: boolean): Promise<{ url: string; key: string }> {
  const args: IntegrationChildArgs = {
    dir,
    provider: sb.providerConfig(),
    sn: sb.merchant.terminalSn,
    tuning: FAST_TUNING,
    settings: {
      counterName: 'Kill Lane',
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    },
    ...(pair ? { pairWithCallback: receiver.url } : {}),
  };
  const file = join(dir, 'child-args.json');
  writeFileSync(file, JSON.stringify(args));
  child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/integration-counter-child.ts'), file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let out = '';
    child!.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /READY (\S+) (\S+)\n/.exec(out);
      if (m) ok({ url: m[1]!, key: m[2]! });
    });
    child!.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    child!.once('exit', (code, signal) =>
      fail(new Error(`counter exited (${code ?? signal}) before it was ready:\n${out}`)),
    );
  });
}

async function kill(): Promise<void> {
  const c = child!;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await exited;
}

async function untilState(base: string, ref: string, state: ChargeView['state']): Promise<ChargeView> {
  let v = (await api<ChargeView>(base, key, 'GET', `/v1/charges/${ref}`)).body;
  while (v.state !== state)
    v = (await api<ChargeView>(base, key, 'GET', `/v1/charges/${ref}/wait?after=${v.version}&timeoutSeconds=10`)).body;
  return v;
}

describe('SIGKILL of the counter', () => {
  it('one provider order per reference; every change delivered in order, none lost', async () => {
    let started = await startCounter(true);
    key = started.key;
    const refs = ['KILL-1', 'KILL-2', 'KILL-3'];
    let kills = 0;

    // 1. Killed with a request in flight: the retry after the restart gets the one charge (or makes it).
    const inFlight = api(started.url, key, 'POST', '/v1/charges', twoSeats(refs[0]!)).catch(() => null);
    await new Promise<void>((ok) => receiver.until((r) => r.body.charge.reference === refs[0]).then(() => ok()));
    await kill();
    kills++;
    await inFlight;
    started = await startCounter(false);
    const again = await api<ChargeView>(started.url, key, 'POST', '/v1/charges', twoSeats(refs[0]!));
    expect(again.status).toBe(200);
    await untilState(started.url, refs[0]!, 'waiting');

    // 2. Killed while the customer pays: the outcome is found and told after the restart.
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
    await kill();
    kills++;
    started = await startCounter(false);
    await untilState(started.url, refs[0]!, 'paid');

    // 3. Two more charges, with a kill between the answer and the customer.
    for (const ref of refs.slice(1)) {
      expect((await api(started.url, key, 'POST', '/v1/charges', twoSeats(ref))).status).toBe(201);
      await untilState(started.url, ref, 'waiting');
      await kill();
      kills++;
      sb.sandbox.present(sb.merchant.terminalSn, ref === 'KILL-2' ? 'SUCCESS' : 'FAIL');
      started = await startCounter(false);
      await untilState(started.url, ref, ref === 'KILL-2' ? 'paid' : 'failed');
    }
    for (const ref of refs)
      await receiver.until(
        (r) => r.body.charge.reference === ref && r.body.charge.final && r.body.event.to === r.body.charge.state,
      );

    // One provider order per reference.
    for (const ref of refs) {
      const out = (await api<ChargeView>(started.url, key, 'GET', `/v1/charges/${ref}`)).body.outOrderNo;
      expect(sb.sandbox.listPosOrders().filter((o) => o.outOrderNo === out)).toHaveLength(1);
    }
    expect(sb.sandbox.listPosOrders()).toHaveLength(3);

    // Every journaled change, delivered in order; a repeat only of the one in flight at a kill.
    await kill();
    const db = openJournalDb(join(dir, 'journal.sqlite'));
    let duplicates = 0;
    for (const ref of refs) {
      const histories = db
        .prepare(
          `SELECT e.to_state AS toState FROM order_events e JOIN integration_charges c ON c.order_id = e.order_id
        WHERE c.reference = ? ORDER BY e.id`,
        )
        .all(ref) as { toState: string }[];
      const acked = receiver
        .acked()
        .filter((r) => r.body.charge.reference === ref)
        .map((r) => r.body.event);
      const firsts: number[] = [];
      for (const e of acked) {
        if (firsts.includes(e.sequence)) duplicates++;
        else firsts.push(e.sequence);
      }
      expect(firsts).toEqual(histories.map((_h, i) => i + 1));
      expect(firsts.map((s) => acked.find((e) => e.sequence === s)!.to)).toEqual(histories.map((h) => h.toState));
    }
    db.close();
    expect(duplicates).toBeLessThanOrEqual(kills);
    expect(receiver.all.every((r) => r.signatureOk)).toBe(true);
  });
});
