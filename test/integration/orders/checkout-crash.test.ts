// The process dies (kill -9) while a sale waits on the terminal, or during the create call (before
// the provider got it, or after the provider took it but before the answer came back); started
// again on the same SQLite file, the checkout resumes the order and ends it paid, with one
// provider order.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../shared/clock';
import { openJournalDb } from '../../../core/schema';
import { memoryLogger } from '../../../shared/logger';
import { createCheckoutService } from '../../../core/orders/checkout-service';
import { createPosClient } from '../../../core/provider';
import { SALE_INPUT, tempDbFile } from '../../helpers/orders-db';
import { FAST_TUNING, inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';

const ROOT = resolve(__dirname, '../../..');
let sb: OrdersSandbox;
let tmp: ReturnType<typeof tempDbFile>;
let child: ChildProcess | null = null;

beforeAll(async () => {
  sb = await startOrdersSandbox();
  tmp = tempDbFile('counterpay-orders-crash-');
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sb.sandbox.close();
  tmp.cleanup();
});

/** Resolves with the first stdout line matching `re`; rejects if the child exits first. */
function lineFrom(child: ChildProcess, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = re.exec(out);
      if (m) ok(m);
    });
    child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    child.once('exit', (code, signal) =>
      fail(new Error(`child exited (${code ?? signal}) before "${re}":\n${out}\n${err}`)),
    );
  });
}

describe('crash and restart', () => {
  it('killed while waiting, started again: resumes and ends paid, one provider order', async () => {
    const settings = {
      counterName: 'Crash Lane 1',
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    };
    const argsFile = join(tmp.file, '..', 'child-args.json');
    writeFileSync(
      argsFile,
      JSON.stringify({
        dbFile: tmp.file,
        provider: sb.providerConfig(),
        settings,
        sale: { ...SALE_INPUT, sn: sb.merchant.terminalSn },
      }),
    );

    // tsx as a loader in this one process (its CLI would run the script in a grandchild that a
    // kill of the CLI leaves alive).
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/orders-child.ts'), argsFile], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((r) => child!.once('exit', (_c, s) => r(s)));
    const m = await lineFrom(child, /WAITING (\d+) (\S+)\n/);
    const id = Number(m[1]);
    const outOrderNo = m[2]!;
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // While nobody watches, the customer pays.
    expect(sb.sandbox.listPosOrders().map((o) => o.outOrderNo)).toEqual([outOrderNo]);
    sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');

    const db = openJournalDb(tmp.file);
    const svc = createCheckoutService({
      db,
      pos: createPosClient(() => sb.providerConfig(), { logger: memoryLogger() }),
      clock: systemClock,
      logger: memoryLogger(),
      settings: () => settings,
      tuning: FAST_TUNING,
    });
    try {
      const before = svc.get(id);
      expect(before).toMatchObject({ state: 'waiting', outOrderNo });
      svc.resume();
      const paid = await inState(svc, id, 'paid');
      expect(paid.payNo).toBe(sb.sandbox.listPosOrders()[0]!.payNo);
      expect(sb.sandbox.listPosOrders()).toHaveLength(1);
      expect(svc.history(id).map((e) => e.to)).toEqual(['creating', 'waiting', 'paid']);
      // The next sale of this counter continues the sequence the dead process used.
      const next = await svc.sell({ ...SALE_INPUT, sn: sb.merchant.terminalSn });
      expect(next.outOrderNo).toBe(outOrderNo.replace(/-0001$/, '-0002'));
    } finally {
      await svc.stop();
      db.close();
    }
  });

  /** The child sells; `killWhen` kills it (kill -9) during the create call. Returns the journal's order id and number. */
  async function killDuringCreate(killWhen: (kill: () => void) => void, counterName: string) {
    const settings = {
      counterName,
      headMerchantId: sb.merchant.headMerchantId,
      merchantId: sb.merchant.merchantId,
      orderExpireSeconds: 300,
    };
    const t = tempDbFile('counterpay-orders-crash-create-');
    const argsFile = join(t.file, '..', 'child-args.json');
    writeFileSync(
      argsFile,
      JSON.stringify({
        dbFile: t.file,
        provider: sb.providerConfig(),
        settings,
        sale: { ...SALE_INPUT, sn: sb.merchant.terminalSn },
      }),
    );
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/orders-child.ts'), argsFile], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const c = child;
    const exited = new Promise<NodeJS.Signals | null>((r) => c.once('exit', (_code, s) => r(s)));
    const waiting = lineFrom(c, /WAITING /).then(
      () => 'waiting' as const,
      () => 'exited' as const,
    );
    killWhen(() => c.kill('SIGKILL'));
    expect(await exited).toBe('SIGKILL');
    expect(await waiting).toBe('exited'); // it never heard the answer
    const db = openJournalDb(t.file);
    const svc = createCheckoutService({
      db,
      pos: createPosClient(() => sb.providerConfig(), { logger: memoryLogger() }),
      clock: systemClock,
      logger: memoryLogger(),
      settings: () => settings,
      tuning: FAST_TUNING,
    });
    return { db, svc, t };
  }

  it('killed during the create call after the provider took the order: asks first, finds it, ends paid, one provider order', async () => {
    sb.sandbox.reset();
    const { db, svc, t } = await killDuringCreate((kill) => {
      // The provider has committed the order; its answer has not been written yet.
      sb.sandbox.events.once('pos-order-created', () => kill());
    }, 'Crash Lane 2');
    try {
      const [rec] = svc.listOpen();
      expect(rec).toMatchObject({ state: 'creating' });
      const orders = sb.sandbox.listPosOrders();
      expect(orders.map((o) => o.outOrderNo)).toEqual([rec!.outOrderNo]);
      svc.resume();
      await inState(svc, rec!.id, 'waiting');
      sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
      const paid = await inState(svc, rec!.id, 'paid');
      expect(paid.orderNo).toBe(orders[0]!.orderNo);
      expect(sb.sandbox.listPosOrders()).toHaveLength(1);
      expect(svc.history(rec!.id).map((e) => e.to)).toEqual(['creating', 'unknown', 'waiting', 'paid']);
    } finally {
      await svc.stop();
      db.close();
      t.cleanup();
    }
  });

  it('killed during the create call before it reached the provider: asks first, then sends the same order once, ends paid', async () => {
    sb.sandbox.reset();
    const path = '/openApi/order/checkout/createOrder';
    sb.sandbox.setFaults([{ path, kind: 'latency', latencyMs: 60_000, times: 1 }]);
    const { db, svc, t } = await killDuringCreate((kill) => {
      // The request is held at the provider's door (before it is read): kill once it is there.
      const check = () => ((sb.sandbox.listFaults()[0]?.hits ?? 0) > 0 ? kill() : setImmediate(check));
      check();
    }, 'Crash Lane 3');
    try {
      sb.sandbox.clearFaults();
      const [rec] = svc.listOpen();
      expect(rec).toMatchObject({ state: 'creating' });
      expect(sb.sandbox.listPosOrders()).toEqual([]);
      svc.resume();
      await inState(svc, rec!.id, 'waiting');
      expect(sb.sandbox.listPosOrders().map((o) => o.outOrderNo)).toEqual([rec!.outOrderNo]);
      sb.sandbox.present(sb.merchant.terminalSn, 'SUCCESS');
      await inState(svc, rec!.id, 'paid');
      expect(svc.history(rec!.id).map((e) => e.to)).toEqual(['creating', 'unknown', 'creating', 'waiting', 'paid']);
      expect(sb.sandbox.listPosOrders()).toHaveLength(1);
    } finally {
      await svc.stop();
      db.close();
      t.cleanup();
    }
  });
});
