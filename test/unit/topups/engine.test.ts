// The engine's decisions on a scripted provider and fake time: a resend the provider refuses as
// "already used" is settled by asking, a reference the provider never records ends as not sent,
// checks of a pending top-up slow down, a callback that beats the answer is not undone, and an
// unreachable provider makes a batch wait and try again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { openJournalDb } from '../../../core/schema';
import { silentLogger } from '../../../shared/logger';
import { timeoutError, unreachableError } from '../../../core/provider/provider-errors';
import type { BillsClient, TopupResult } from '../../../core/provider/types';
import { memoryStore } from '../../../core/settings/kv-store';
import { createTopupService } from '../../../core/topups/topup-service';
import { fakeTime } from '../../helpers/orders-fake-time';

type Step = (items: { reference: string }[]) => TopupResult[] | Error;

/** A provider that answers each call with the next scripted step (the last one repeats). */
function scripted(bills: Step[], status: Step[]) {
  const calls: { op: 'bulkBills' | 'bulkStatus'; at: number; refs: string[] }[] = [];
  const take = (list: Step[], n: number) => list[Math.min(n, list.length - 1)]!;
  let b = 0;
  let s = 0;
  const run = async (step: Step, items: { reference: string }[]) => {
    const r = step(items);
    if (r instanceof Error) throw r;
    return r;
  };
  return {
    calls,
    client: (t: { now: number }): BillsClient => ({
      bettingProviders: async () => [],
      validate: async () => {
        throw new AppError('PROVIDER_REFUSED', 'no');
      },
      bulkBills: async (i) => {
        calls.push({ op: 'bulkBills', at: t.now, refs: i.items.map((x) => x.reference) });
        return run(take(bills, b++), i.items);
      },
      bulkStatus: async (i) => {
        calls.push({ op: 'bulkStatus', at: t.now, refs: i.items.map((x) => x.reference) });
        return run(take(status, s++), i.items);
      },
    }),
  };
}

const each =
  (status: TopupResult['status'], errorMsg = '') =>
  (items: { reference: string }[]): TopupResult[] =>
    items.map((i) => ({ reference: i.reference, orderNo: status ? `O-${i.reference}` : null, status, errorMsg }));

function rig(bills: Step[], status: Step[]) {
  const t = fakeTime();
  const p = scripted(bills, status);
  const db = openJournalDb(join(mkdtempSync(join(tmpdir(), 'topups-engine-')), 'j.db'));
  const service = createTopupService({
    db,
    store: memoryStore(),
    bills: p.client(t),
    logger: silentLogger,
    clock: t.clock,
    timers: t.timers,
    identity: () => ({ profile: 'demo', billsMerchantId: 'BM-1', counterName: 'Counter 1' }),
    callBackUrl: () => 'https://callback.invalid/webhook/bills',
  });
  service.start();
  return { t, calls: p.calls, service };
}

const AIRTIME = { serviceType: 'airtime', provider: 'MTN', customerId: '08031234567', amount: '500' };

describe('topup engine', () => {
  it('a resend refused as "already used" is asked about and takes the provider’s status', async () => {
    const { t, calls, service } = rig(
      [
        () => timeoutError({ op: 'bills.bulkBills' }, 'timeout'),
        each('FAIL', 'reference "x" was already used by this merchant'),
      ],
      [each(null), each('SUCCESS')],
    );
    const v = await service.submit(AIRTIME);
    await t.until(() => service.get(v.id).state === 'success');
    expect(calls.map((c) => c.op)).toEqual(['bulkBills', 'bulkStatus', 'bulkBills', 'bulkStatus']);
    // The unknown send was asked about only after the grace.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(3000);
    expect(service.get(v.id)).toMatchObject({ state: 'success', attempts: 2, errorMsg: '' });
  });

  it('"already used" on a first attempt is a failure: the reference belonged to someone else', async () => {
    const { t, service } = rig([each('FAIL', 'reference "x" was already used by this merchant')], [each('SUCCESS')]);
    const v = await service.submit(AIRTIME);
    await t.until(() => service.get(v.id).state === 'fail');
    expect(service.get(v.id).errorMsg).toMatch(/already used/);
  });

  it('a reference the provider never records ends as not sent after the last attempt', async () => {
    const { t, calls, service } = rig(
      [() => new AppError('PROVIDER_HTTP', '502', { outcomeUnknown: true })],
      [each(null)],
    );
    const v = await service.submit(AIRTIME);
    await t.until(() => service.get(v.id).state === 'not_sent');
    expect(calls.filter((c) => c.op === 'bulkBills')).toHaveLength(5);
    expect(service.get(v.id)).toMatchObject({
      attempts: 5,
      errorMsg: expect.stringMatching(/no record of this top-up after 5 attempts/),
    });
  });

  it('checks a pending top-up less and less often, up to the ceiling', async () => {
    const { t, calls, service } = rig(
      [each('INITIAL')],
      [
        each('PENDING'),
        each('PENDING'),
        each('PENDING'),
        each('PENDING'),
        each('PENDING'),
        each('PENDING'),
        each('PENDING'),
        each('SUCCESS'),
      ],
    );
    const v = await service.submit(AIRTIME);
    await t.until(() => service.get(v.id).state === 'success', 10 * 60_000, 100);
    const at = calls.map((c) => c.at);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(2000);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(gaps[i - 1]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000 + 600);
  });

  it('a callback that beats the answer settles the top-up; the late answer does not undo it', async () => {
    let release: (() => void) | null = null;
    const t = fakeTime();
    const db = openJournalDb(join(mkdtempSync(join(tmpdir(), 'topups-engine-')), 'j.db'));
    const service = createTopupService({
      db,
      store: memoryStore(),
      logger: silentLogger,
      clock: t.clock,
      timers: t.timers,
      identity: () => ({ profile: 'demo', billsMerchantId: 'BM-1', counterName: 'Counter 1' }),
      callBackUrl: () => 'x',
      bills: {
        bettingProviders: async () => [],
        validate: async () => {
          throw new Error('no');
        },
        bulkStatus: async () => [],
        bulkBills: (i) => new Promise((ok) => (release = () => ok(each('PENDING')(i.items)))),
      },
    });
    const v = await service.submit(AIRTIME);
    service.onCallback({
      reference: v.reference,
      orderNo: 'O-1',
      status: 'SUCCESS',
      errorMsg: '',
      serviceType: 'airtime',
      amountKobo: 50_000,
    });
    expect(service.get(v.id)).toMatchObject({ state: 'success', orderNo: 'O-1' });
    release!();
    await t.advance(10);
    expect(service.get(v.id).state).toBe('success');
  });

  it('an unreachable provider makes a batch wait, say so, and try again', async () => {
    const { t, calls, service } = rig(
      [() => unreachableError({ op: 'bills.bulkBills' }, 'refused'), each('SUCCESS')],
      [each('SUCCESS')],
    );
    const csv = 'type,provider,customerId,amount\nairtime,MTN,08031234567,100\nairtime,MTN,08031234568,100\n';
    const { batch } = await service.importBatch(csv, 'b.csv');
    service.startBatch(batch!.id, 10);
    await t.until(() => service.batchView(batch!.id).notice !== null);
    expect(service.batchView(batch!.id)).toMatchObject({
      state: 'running',
      notice: expect.stringMatching(/cannot be reached. Trying again at/),
      counts: { queued: 2 },
    });
    await t.until(() => service.batchView(batch!.id).state === 'done');
    expect(calls.filter((c) => c.op === 'bulkBills').map((c) => c.refs.length)).toEqual([2, 2]);
    expect(service.batchView(batch!.id).notice).toBeNull();
  });

  it.each([1, -1])(
    'a callback whose amount is %i kobo off does not settle the top-up; the status answer does',
    async (off) => {
      let release: (() => void) | null = null;
      const t = fakeTime();
      const db = openJournalDb(join(mkdtempSync(join(tmpdir(), 'topups-engine-')), 'j.db'));
      const statusAsked: number[] = [];
      const service = createTopupService({
        db,
        store: memoryStore(),
        logger: silentLogger,
        clock: t.clock,
        timers: t.timers,
        identity: () => ({ profile: 'demo', billsMerchantId: 'BM-1', counterName: 'Counter 1' }),
        callBackUrl: () => 'x',
        bills: {
          bettingProviders: async () => [],
          validate: async () => {
            throw new Error('no');
          },
          bulkStatus: async (i) => (statusAsked.push(t.now), each('FAIL', 'declined')(i.items)),
          bulkBills: (i) => new Promise((ok) => (release = () => ok(each('PENDING')(i.items)))),
        },
      });
      service.start();
      const v = await service.submit(AIRTIME);
      service.onCallback({
        reference: v.reference,
        orderNo: 'O-1',
        status: 'SUCCESS',
        errorMsg: '',
        serviceType: 'airtime',
        amountKobo: 50_000 + off,
      });
      expect(service.get(v.id).state).not.toBe('success');
      release!();
      await t.until(() => service.get(v.id).state === 'fail');
      expect(statusAsked.length).toBeGreaterThan(0);
      await service.stop();
    },
  );
});

describe('topup engine resume after a kill', () => {
  /** A counter killed while its send was on the wire: the journal says `sending`, nobody knows if it arrived. */
  async function killedWhileSending() {
    const dir = mkdtempSync(join(tmpdir(), 'topups-resume-'));
    const t = fakeTime();
    const first = createTopupService({
      db: openJournalDb(join(dir, 'j.db')),
      store: memoryStore(),
      logger: silentLogger,
      clock: t.clock,
      timers: t.timers,
      identity: () => ({ profile: 'demo', billsMerchantId: 'BM-1', counterName: 'Counter 1' }),
      callBackUrl: () => 'x',
      bills: {
        bettingProviders: async () => [],
        validate: async () => {
          throw new Error('no');
        },
        bulkStatus: async () => [],
        bulkBills: () => new Promise(() => {}),
      },
    });
    first.start();
    const v = await first.submit(AIRTIME);
    expect(first.get(v.id).state).toBe('sending');
    return { dir, v }; // the first process is never stopped: it was killed
  }

  function restart(dir: string, status: Step) {
    const t = fakeTime();
    const p = scripted([each('SUCCESS')], [status]);
    const service = createTopupService({
      db: openJournalDb(join(dir, 'j.db')),
      store: memoryStore(),
      bills: p.client(t),
      logger: silentLogger,
      clock: t.clock,
      timers: t.timers,
      identity: () => ({ profile: 'demo', billsMerchantId: 'BM-1', counterName: 'Counter 1' }),
      callBackUrl: () => 'x',
    });
    service.start();
    return { t, calls: p.calls, service };
  }

  it('asks the provider before anything else and takes its answer: nothing is sent twice', async () => {
    const { dir, v } = await killedWhileSending();
    const { t, calls, service } = restart(dir, each('SUCCESS'));
    expect(service.get(v.id).state).toBe('unknown');
    await t.until(() => service.get(v.id).state === 'success');
    expect(calls.map((c) => c.op)).toEqual(['bulkStatus']);
    expect(calls[0]!.refs).toEqual([v.reference]);
    expect(service.history(v.id).map((e) => e.to)).toEqual(expect.arrayContaining(['sending', 'unknown', 'success']));
    await service.stop();
  });

  it('when the provider never got it, sends it again under the same reference, once', async () => {
    const { dir, v } = await killedWhileSending();
    const { t, calls, service } = restart(dir, each(null));
    await t.until(() => service.get(v.id).state === 'success');
    expect(calls.map((c) => c.op).slice(0, 2)).toEqual(['bulkStatus', 'bulkBills']);
    expect(calls.filter((c) => c.op === 'bulkBills').flatMap((c) => c.refs)).toEqual([v.reference]);
    await service.stop();
  });
});
