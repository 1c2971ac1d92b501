// The complaint desk in the composed core (Demo profile, the embedded sandbox over loopback HTTP,
// the journal on a real SQLite file, a loopback receipt printer): a customer says they were
// debited for a sale the counter closed; the desk finds it by the last four and the amount, asks
// the provider, records the payment after closing as the sweep would, opens a case, prints its
// slip, and resolves it with the tickets given — the late payment handled with it, both events in
// the Hub's outbox.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { CaseView } from '../../../shared/cases';
import type { CaseCandidate, CaseCheck } from '../../../shared/contract-cases';
import type { OrderView } from '../../../shared/orders';
import type { PrintJobView } from '../../../shared/records';
import { journalPath } from '../../../core/data-folder/journal-file';
import { escposText } from '../../helpers/loopback-printer';
import { call, callError, perTest, sell } from '../records/records-harness';

const each = perTest();

describe('the complaint desk', () => {
  it('finds a sale paid after closing by last four and amount, says so, opens, prints and resolves its case', async () => {
    const { core, dir } = await each.boot();
    const printer = await each.printer();
    await call(core, 'settings.setPin', { newPin: '2468' });
    await call(core, 'receipts.saveSettings', {
      printing: { kind: 'network', host: printer.host, port: printer.port, paper: '80' },
      cinema: { name: 'Filmhouse Lekki', branch: 'Admiralty Way' },
    });

    // A sale of the same amount paid by another card, one of another amount, and the one complained about.
    const other = await sell(core, 'SUCCESS');
    await sell(core, 'SUCCESS', { priceKobo: 200_000 });
    const closed = await sell(core, 'CANCEL');
    expect(closed.amountKobo).toBe(other.amountKobo);
    // The provider takes the money after the counter closed it; no webhook tells the counter.
    const sandbox = core.demo()!.sandbox;
    const orderNo = sandbox.listPosOrders().find((o) => o.outOrderNo === closed.outOrderNo)!.orderNo;
    sandbox.reportLate(orderNo, 'SUCCESS', { cardPan: '5399831234564321' });
    expect((await call<OrderView>(core, 'orders.get', { id: closed.id })).late).toBeUndefined();

    // The last four alone find nothing yet: the closed sale has no card on it.
    const byCard = await call<{ candidates: CaseCandidate[] }>(core, 'cases.search', { last4: '4321' });
    expect(byCard.candidates.map((c) => c.outOrderNo)).not.toContain(closed.outOrderNo);
    const found = await call<{ candidates: CaseCandidate[]; searchedBranch: boolean }>(core, 'cases.search', {
      last4: '4321',
      amountKobo: closed.amountKobo,
      around: closed.createdAt,
    });
    expect(found.searchedBranch).toBe(false);
    expect(found.candidates.map((c) => c.outOrderNo)).toEqual([closed.outOrderNo]);
    expect(found.candidates[0]).toMatchObject({ where: 'this-counter', state: 'cancelled', counterName: 'Counter 1' });

    const check = await call<CaseCheck>(core, 'cases.check', { outOrderNo: closed.outOrderNo });
    expect(check.truth).toBe('paid-after-closing');
    expect(check.providerStatus).toBe('SUCCESS');
    expect(check.line).toMatch(
      /^Paid after closing: hand over the tickets \(the provider says SUCCESS at \d\d:\d\d\)\.$/,
    );
    // Recorded as the sweep would: the order's late outcome, found by a query.
    const late = (await call<OrderView>(core, 'orders.get', { id: closed.id })).late;
    expect(late).toMatchObject({ kind: 'paid-after-closing', source: 'query', handled: null });
    // Its card is known now: the last four alone find it.
    const again = await call<{ candidates: CaseCandidate[] }>(core, 'cases.search', { last4: '4321' });
    expect(again.candidates.map((c) => c.outOrderNo)).toEqual([closed.outOrderNo]);
    expect(again.candidates[0]?.senderAccount).toMatch(/4321$/);

    const opened = await call<CaseView>(core, 'cases.open', {
      search: { last4: '4321', amountKobo: closed.amountKobo },
      customer: 'Mrs Adebayo',
      outOrderNo: closed.outOrderNo,
      openedBy: 'Ngozi',
    });
    expect(opened).toMatchObject({
      caseNo: 'COU1-C0001',
      orderId: closed.id,
      truth: 'paid-after-closing',
      proof: { providerStatus: 'SUCCESS', askedAt: check.askedAt },
      resolution: null,
    });
    // A second Open case for the same sale gives the first back.
    expect(
      (
        await call<CaseView>(core, 'cases.open', {
          search: { amountKobo: closed.amountKobo },
          outOrderNo: closed.outOrderNo,
          openedBy: 'Ngozi',
        })
      ).id,
    ).toBe(opened.id);

    const job = await call<PrintJobView>(core, 'cases.printSlip', { id: opened.id });
    expect(job).toMatchObject({ kind: 'case-slip', status: 'printed', orderId: null, title: 'Case slip COU1-C0001' });
    const slip = escposText(await printer.job(0)).join('\n');
    for (const words of [
      'Filmhouse Lekki',
      'Case COU1-C0001',
      closed.outOrderNo,
      'We will resolve this within 72 hours',
    ])
      expect(slip).toContain(words);

    const resolved = await call<CaseView>(core, 'cases.resolve', {
      id: opened.id,
      resolution: 'tickets-given',
      by: 'Ngozi',
    });
    expect(resolved).toMatchObject({ resolution: 'tickets-given', resolvedBy: 'Ngozi' });
    expect((await call<OrderView>(core, 'orders.get', { id: closed.id })).late?.handled).toMatchObject({
      how: 'tickets-given',
      by: 'Ngozi',
    });
    expect(
      (await callError(core, 'cases.resolve', { id: opened.id, resolution: 'refund-owed', by: 'Tunde' })).code,
    ).toBe('CONFLICT');

    // A sale the customer was not debited for: the provider's word says so; the next case number follows.
    const declined = await sell(core, 'FAIL', { priceKobo: 310_000 });
    const no = await call<CaseCheck>(core, 'cases.check', { outOrderNo: declined.outOrderNo });
    expect(no.truth).toBe('not-paid');
    expect(no.line).toMatch(/^Not paid: nothing was taken by this merchant \(the provider says \w+ at \d\d:\d\d\)\.$/);
    const second = await call<CaseView>(core, 'cases.open', {
      search: { amountKobo: declined.amountKobo },
      outOrderNo: declined.outOrderNo,
      openedBy: 'Tunde',
    });
    expect(second.caseNo).toBe('COU1-C0002');
    expect((await call<{ open: number; items: CaseView[] }>(core, 'cases.list', {})).open).toBe(1);
    await call(core, 'cases.resolve', {
      id: second.id,
      resolution: 'not-debited',
      by: 'Tunde',
      note: 'Bank alert was for another shop',
    });
    const list = await call<{ open: number; items: CaseView[] }>(core, 'cases.list', {});
    expect(list.open).toBe(0);
    expect(list.items.map((c) => c.caseNo)).toEqual(['COU1-C0002', 'COU1-C0001']);

    // Journal first, the Hub's outbox in the same transaction.
    const db = new Database(journalPath(dir), { readonly: true });
    try {
      const events = (
        db.prepare("SELECT kind, payload_json FROM hub_outbox WHERE kind LIKE 'case.%' ORDER BY seq").all() as {
          kind: string;
          payload_json: string;
        }[]
      ).map((r) => ({ kind: r.kind, ...(JSON.parse(r.payload_json) as object) }));
      expect(events).toEqual([
        {
          kind: 'case.opened',
          caseNo: 'COU1-C0001',
          openedBy: 'Ngozi',
          reference: closed.outOrderNo,
          amountKobo: closed.amountKobo,
          last4: '4321',
          truth: 'paid-after-closing',
          profile: 'demo',
        },
        { kind: 'case.resolved', caseNo: 'COU1-C0001', resolution: 'tickets-given', by: 'Ngozi' },
        expect.objectContaining({ kind: 'case.opened', caseNo: 'COU1-C0002', truth: 'not-paid' }),
        {
          kind: 'case.resolved',
          caseNo: 'COU1-C0002',
          resolution: 'not-debited',
          by: 'Tunde',
          note: 'Bank alert was for another shop',
        },
      ]);
    } finally {
      db.close();
    }
  });
});
