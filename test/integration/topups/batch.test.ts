// Batches against the sandbox: a 1,000-row file with bad rows (refused before sending), failing
// items and injected faults ends with every good row sent exactly once and final; the results
// CSV round-trips; request-level refusals pause and resume; stopping cancels what was not sent.
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../shared/csv-parse';
import { EXPORT_COLUMNS } from '../../../shared/topups';
import { bigFile, HEADER, phone } from './files';
import { rigsClosedAfterEach, until } from './harness';

const rig = rigsClosedAfterEach();

describe('a 1,000-row batch with bad rows, failing items and faults', () => {
  it('sends every good row exactly once, follows each to a final state, and exports the results', async () => {
    const r = await rig({ sandbox: (c) => void (c.bills.settleAfterMs = 30) });
    await r.service.refreshProviders();
    const file = bigFile();
    const imported = await r.service.importBatch(file.csv, 'payroll airtime.csv');
    expect(imported.totalRows).toBe(1000);
    expect([...new Set(imported.errors.map((e) => e.line))]).toEqual(file.badLines);
    expect(imported.batch).toMatchObject({
      state: 'draft',
      totalRows: 1000,
      badRows: file.badLines.length,
      items: 1000 - file.badLines.length,
    });
    const batchId = imported.batch!.id;
    expect(r.bulkBills()).toEqual([]); // nothing is sent on import

    r.sandbox.setFaults([
      { path: '/api/v3/bills/bulk-bills', kind: 'http500', rate: 0.15, seed: 7 },
      { path: '/api/v3/bills/bulk-bills', kind: 'http502', rate: 0.05, seed: 8 },
      { path: '/api/v3/bills/bulk-bills', kind: 'commitThenDrop', rate: 0.15, seed: 11 },
      { path: '/api/v3/bills/bulk-status', kind: 'http503', rate: 0.1, seed: 5 },
      { path: '/api/v3/bills/bulk-status', kind: 'drop', rate: 0.05, seed: 6 },
    ]);
    r.service.startBatch(batchId, 40);
    await until(r.service, () => r.service.batchView(batchId).state === 'done', 'the batch to finish', 50_000);

    const view = r.service.batchView(batchId);
    const items = r.service.journal.allOfBatch(batchId);
    expect(items).toHaveLength(1000 - file.badLines.length);
    expect(view.finished).toBe(items.length);
    expect(view.counts.fail).toBe(file.failLines.length);
    expect(view.counts.success).toBe(items.length - file.failLines.length);

    // Faults really happened, on both paths.
    const faults = r.sandbox.listFaults();
    expect(faults.filter((f) => f.path.endsWith('bulk-bills')).every((f) => f.hits > 0)).toBe(true);
    expect(faults.filter((f) => f.path.endsWith('bulk-status')).some((f) => f.hits > 0)).toBe(true);

    // Exactly once: each good reference is in exactly one request the provider processed (an answer,
    // or a connection dropped after the commit); requests refused with 5xx were not processed.
    const processed = new Map<string, number>();
    for (const s of r.bulkBills()) {
      expect(s.answer).not.toMatch(/already used/);
      if (s.status === 200 || s.status === null)
        for (const ref of s.refs) processed.set(ref, (processed.get(ref) ?? 0) + 1);
    }
    const records = new Map(r.sandbox.listTopups().map((t) => [t.reference, t]));
    expect(records.size).toBe(items.length); // no bad row reached the provider
    for (const it of items) {
      expect(processed.get(it.reference), it.reference).toBe(1);
      const t = records.get(it.reference)!;
      expect(t).toMatchObject({
        serviceType: it.serviceType,
        provider: it.provider,
        customerId: it.customerId,
        amountKobo: it.amountKobo,
        rejected: false,
      });
      expect(it.state).toBe(t.status === 'SUCCESS' ? 'success' : 'fail');
      expect(it.orderNo).toBe(t.orderNo);
      if (it.state === 'fail') expect(it.errorMsg).toMatch(/barred|suspended/);
    }
    expect(items.filter((i) => i.state === 'fail').map((i) => i.line)).toEqual(file.failLines);
    expect(items.some((i) => i.attempts > 1)).toBe(true); // 5xx made some go again, after an inquiry

    // The results CSV: one line per row of the file, refused rows included.
    const out = r.service.exportBatch(batchId);
    expect(out.fileName).toBe(`payroll-airtime-results-${batchId}.csv`);
    const parsed = parseCsv(out.csv);
    expect(parsed.errors).toEqual([]);
    const [head, ...rows] = parsed.records.map((x) => x.fields);
    expect(head).toEqual([...EXPORT_COLUMNS]);
    expect(rows).toHaveLength(1000);
    const byLine = new Map(items.map((i) => [i.line, i]));
    for (const [row, reference, orderNo, status, errorMsg] of rows as string[][]) {
      const it = byLine.get(Number(row));
      if (!it) {
        expect(file.badLines).toContain(Number(row));
        expect([reference, orderNo, status]).toEqual(['', '', 'REFUSED']);
        expect(errorMsg).toMatch(/^(amount|customerId|provider|type): /);
        continue;
      }
      expect([reference, orderNo, status, errorMsg]).toEqual([
        it.reference,
        it.orderNo,
        it.state === 'success' ? 'SUCCESS' : 'FAIL',
        it.errorMsg,
      ]);
    }
  }, 60_000);
});

describe('batches', () => {
  it('bills callbacks through the verified webhook receiver settle items without polling', async () => {
    const { startWebhookReceiver, WEBHOOK_PATHS, listWebhookEvents } = await import('../../../core/webhook');
    let receiverUrl = '';
    const r = await rig({
      sandbox: (c) => void (c.bills.callbackOnFail = true),
      tuning: { firstCheckMs: 60_000, maxCheckMs: 60_000 },
      callBackUrl: () => receiverUrl,
    });
    const receiver = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      db: r.db,
      getConfig: () => r.config,
      logger: r.logger,
      onPosNotification: () => {},
      onBillsCallback: (cb) => r.service.onCallback(cb),
    });
    receiverUrl = `${receiver.url}${WEBHOOK_PATHS.bills}`;
    try {
      const lines = [HEADER];
      for (let i = 0; i < 30; i++)
        lines.push(i === 7 ? 'airtime,MTN,+2348000000404,100,' : `airtime,MTN,${phone(i)},100,`);
      const { batch } = await r.service.importBatch(lines.join('\n'), 'cb.csv');
      r.service.startBatch(batch!.id, 10);
      await until(r.service, () => r.service.batchView(batch!.id).state === 'done', 'callbacks to settle the batch');
      const v = r.service.batchView(batch!.id);
      expect([v.counts.success, v.counts.fail]).toEqual([29, 1]);
      expect(r.proxy.seen.filter((s) => s.path.endsWith('/bulk-status'))).toEqual([]);
      const events = listWebhookEvents(r.db, 'bills');
      expect(events).toHaveLength(30);
      expect(events.every((e) => e.handledAt !== null)).toBe(true);
      expect(r.service.journal.allOfBatch(batch!.id).find((i) => i.state === 'fail')?.errorMsg).toBe(
        'Recipient number is barred',
      );
    } finally {
      await receiver.close();
    }
  });

  it('"check all customers" validates each customer once and takes out the unknown ones before paying', async () => {
    const r = await rig();
    const csv = [
      HEADER,
      'betting,BET9JA,20001,100,',
      'betting,BET9JA,99999,100,',
      'betting,BET9JA,20001,200,',
      'airtime,MTN,08031234567,100,',
      'betting,SPORTYBET,8030000001,100,',
      'betting,BET9JA,99999,300,',
    ].join('\n');
    const { batch } = await r.service.importBatch(csv, 'bets.csv');
    const id = batch!.id;
    expect(batch!.bettingRows).toBe(5);
    r.service.checkCustomers(id);
    expect(() => r.service.startBatch(id, 10)).toThrow(/still being checked/);
    const checked = await r.service.checkDone(id);
    expect(checked.check).toEqual({ state: 'done', checked: 3, total: 3, notFound: 2, unchecked: 0 });
    expect(r.proxy.seen.filter((s) => s.path.endsWith('/validate'))).toHaveLength(3);
    expect(r.service.batchErrors(id, 0, 10).errors).toEqual([
      { line: 3, column: 'customerId', message: expect.stringMatching(/BET9JA does not know the customer 99999/) },
      { line: 7, column: 'customerId', message: expect.stringMatching(/BET9JA does not know the customer 99999/) },
    ]);
    const items = r.service.journal.allOfBatch(id);
    expect(items.map((i) => [i.line, i.state, i.customerName])).toEqual([
      [2, 'draft', 'Chinedu Okafor (chinedu01)'],
      [3, 'not_sent', null],
      [4, 'draft', 'Chinedu Okafor (chinedu01)'],
      [5, 'draft', null],
      [6, 'draft', 'Tunde Adeyemi (tundea)'],
      [7, 'not_sent', null],
    ]);
    r.service.startBatch(id, 10);
    await until(r.service, () => r.service.batchView(id).state === 'done', 'the batch to finish');
    expect(
      r.sandbox
        .listTopups()
        .map((t) => t.customerId)
        .sort(),
    ).toEqual(['+2348031234567', '20001', '20001', '8030000001']);
    expect(r.service.exportBatch(id).csv).toMatch(
      /\r\n3,[^,]+,,NOT_SENT,"Not sent: BET9JA does not know the customer 99999/,
    );
  });

  it('a request the provider refuses as a whole pauses the batch; a smaller chunk size resumes it', async () => {
    const r = await rig({ sandbox: (c) => void (c.bills.maxBatchItems = 10), tuning: { maxInFlight: 1 } });
    const lines = [HEADER];
    for (let i = 0; i < 25; i++) lines.push(`airtime,GLO,${phone(i)},100,`);
    const { batch } = await r.service.importBatch(lines.join('\n'), 'x.csv');
    const id = batch!.id;
    r.service.startBatch(id, 20);
    await until(r.service, () => r.service.batchView(id).state === 'paused', 'the pause');
    const paused = r.service.batchView(id);
    expect(paused.notice).toMatch(
      /^Paused: The payment provider refused the request: .*bulkData must be an array of 1 to 10 items/,
    );
    expect(paused.counts.queued).toBe(25);
    expect(r.sandbox.listTopups()).toEqual([]);
    r.service.resumeBatch(id, 10);
    await until(r.service, () => r.service.batchView(id).state === 'done', 'the batch to finish');
    expect(r.bulkBills().map((b) => [b.refs.length, b.status])).toEqual([
      [20, 200],
      [10, 200],
      [10, 200],
      [5, 200],
    ]);
    expect(r.service.batchView(id).counts.success).toBe(25);
  });

  it('refused credentials pause the batch; nothing is lost, and it finishes once the key is fixed', async () => {
    const r = await rig();
    const good = r.config;
    r.config = { ...good, secrets: { ...good.secrets, billsSecretKey: 'OPAYPRV-wrong-key' } };
    const { batch } = await r.service.importBatch(
      [HEADER, 'airtime,MTN,08031234567,100,', 'airtime,MTN,08031234568,100,'].join('\n'),
      'k.csv',
    );
    r.service.startBatch(batch!.id, 10);
    await until(r.service, () => r.service.batchView(batch!.id).state === 'paused', 'the pause');
    expect(r.service.batchView(batch!.id).notice).toMatch(/refused our credentials/);
    r.config = good;
    r.service.resumeBatch(batch!.id);
    await until(r.service, () => r.service.batchView(batch!.id).state === 'done', 'the batch to finish');
    expect(r.service.batchView(batch!.id).counts.success).toBe(2);
  });

  it('stopping a batch cancels what was not sent and still follows what was', async () => {
    const r = await rig({ tuning: { requestsPerSecond: 5, burst: 1, maxInFlight: 1 } });
    const lines = [HEADER];
    for (let i = 0; i < 30; i++) lines.push(`airtime,MTN,${phone(i)},100,`);
    const { batch } = await r.service.importBatch(lines.join('\n'), 's.csv');
    const id = batch!.id;
    r.service.startBatch(id, 5);
    await until(r.service, () => r.service.batchView(id).sent >= 5, 'the first chunk');
    const stopped = r.service.cancelBatch(id);
    expect(stopped.counts.cancelled).toBeGreaterThan(0);
    await until(r.service, () => r.service.batchView(id).state === 'done', 'the batch to finish');
    const v = r.service.batchView(id);
    expect(v.counts.success + v.counts.cancelled).toBe(30);
    expect(r.sandbox.listTopups()).toHaveLength(v.counts.success);
  });

  it('a re-import replaces the draft; a file that cannot be read creates no batch', async () => {
    const r = await rig();
    const first = await r.service.importBatch([HEADER, 'airtime,MTN,08031234567,100,MY-1'].join('\n'), 'a.csv');
    const second = await r.service.importBatch([HEADER, 'airtime,MTN,08031234567,100,MY-1'].join('\n'), 'a-fixed.csv');
    expect(second.errors).toEqual([]);
    expect(r.service.batchView(first.batch!.id).state).toBe('discarded');
    expect(r.service.listBatches().map((b) => b.id)).toEqual([second.batch!.id]);
    const broken = await r.service.importBatch('type;provider;customerId;amount\n', 'semi.csv');
    expect(broken).toMatchObject({ batch: null, errorCount: 1 });
  });
});
