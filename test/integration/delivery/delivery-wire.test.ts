// The delivery check's judgement of the provider's answer, over real HTTP to a small fake provider
// (for answers the sandbox never gives: a malformed httpCode, a signed refusal, a bare 502), and
// the meaning of every httpCode / httpMessage pair.
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryChecks, judgeDelivery } from '../../../core/delivery/delivery-check';
import { memoryLogger } from '../../../shared/logger';
import { OrderJournal, toView } from '../../../core/orders/order-journal';
import { createPosClient } from '../../../core/provider';
import { isAppError } from '../../../shared/errors';
import { openTempDb, sale } from '../../helpers/orders-db';
import { testConfig } from '../../unit/provider/fixtures';
import { posAnswer } from '../provider/fake-provider';
import { sendJson, startTestServer, type Handler, type TestServer } from '../provider/test-server';

let server: TestServer | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  while (cleanups.length) cleanups.pop()!();
});

async function checks(handler: Handler) {
  server = await startTestServer(handler);
  const t = openTempDb();
  cleanups.push(t.cleanup);
  const journal = new OrderJournal(t.db, () => 1000);
  const s = sale();
  const rec = journal.insert({
    sale: s,
    amountKobo: 710_000,
    counterCode: 'C1',
    businessDay: '261121',
    createdAt: 1000,
    expireSeconds: 300,
    state: 'creating',
    attempts: 1,
    headMerchantId: 'H',
    merchantId: 'M',
    note: 'sold',
    profile: 'sandbox',
  });
  journal.transition(rec.id, 'waiting', 'created', { patch: { orderNo: '2401' } });
  journal.transition(rec.id, 'paid', 'paid');
  const pos = createPosClient(() => testConfig({ posBaseUrl: server!.url }), { logger: memoryLogger() });
  const d = createDeliveryChecks({
    db: t.db,
    pos,
    clock: { now: () => 5000 },
    logger: memoryLogger(),
    order: (id) => {
      const r = journal.get(id);
      return r ? toView(r) : null;
    },
    activeProfile: () => 'sandbox',
  });
  return { d, id: rec.id };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('delivery check on the wire', () => {
  it('a numeric httpCode is read as the receiver’s status', async () => {
    const { d, id } = await checks((_q, res) =>
      sendJson(
        res,
        200,
        posAnswer('00000', 'SUCCESSFUL', { headMerchantId: 'H', httpCode: 200, httpMessage: '{"code":"00000"}' }),
      ),
    );
    expect(await d.checkLastPaid()).toMatchObject({
      orderId: id,
      orderNo: '2401',
      outcome: 'delivered',
      httpCode: '200',
      checkedAt: 5000,
      receivedHereAt: null,
    });
  });

  for (const bad of ['abc', '2000', '20', '-1', '600']) {
    it(`a malformed httpCode (${JSON.stringify(bad)}) is a clear error, not a guess`, async () => {
      const { d, id } = await checks((_q, res) =>
        sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { headMerchantId: 'H', httpCode: bad, httpMessage: 'x' })),
      );
      const e = await failure(d.check(id));
      expect(e.code).toBe('PROVIDER_BAD_RESPONSE');
      expect(e.message).toContain(`HTTP code this app cannot read (“${bad}”). Nothing was changed.`);
    });
  }

  it('a signed refusal names the provider’s code and words', async () => {
    const { d, id } = await checks((_q, res) =>
      sendJson(res, 200, posAnswer('00002', 'opayOrderNo is not valid', null)),
    );
    const e = await failure(d.check(id));
    expect(e.code).toBe('PROVIDER_REFUSED');
    expect(e.message).toBe(
      'The provider refused the question. The provider said: “opayOrderNo is not valid” (code 00002). Nothing was changed.',
    );
  });

  it('an unsigned credentials refusal says what the provider said and what to check', async () => {
    const { d, id } = await checks((_q, res) =>
      sendJson(res, 401, { code: '10001', message: 'invalid clientAuthKey', data: null }),
    );
    const e = await failure(d.check(id));
    expect(e.code).toBe('PROVIDER_AUTH');
    expect(e.message).toMatch(
      /refused the question because of our credentials\. The provider said: “invalid clientAuthKey” \(code 10001\)\. Check the keys/,
    );
  });

  it('an answer whose signature does not verify is not trusted', async () => {
    const { d, id } = await checks((_q, res) =>
      sendJson(
        res,
        200,
        posAnswer(
          '00000',
          'SUCCESSFUL',
          { headMerchantId: 'H', httpCode: '200', httpMessage: 'OK' },
          { badSign: true },
        ),
      ),
    );
    const e = await failure(d.check(id));
    expect(e.code).toBe('PROVIDER_BAD_RESPONSE');
    expect(e.message).toMatch(/was not signed with its key, so it was not trusted/);
  });
});

describe('what an answer means', () => {
  it.each([
    [{ httpCode: '200', httpMessage: 'OK' }, 'delivered', 'HTTP 200: our receiver accepted the notification (“OK”).'],
    [{ httpCode: ' 204 ', httpMessage: '' }, 'delivered', 'HTTP 204: our receiver accepted the notification.'],
    [
      { httpCode: '500', httpMessage: 'boom' },
      'refused',
      /^Not delivered: our receiver answered HTTP 500 \(“boom”\)\./,
    ],
    [{ httpCode: '', httpMessage: 'no webhook URL registered' }, 'not-registered', /^Not registered: /],
    [{ httpCode: '', httpMessage: 'callback url not configured' }, 'not-registered', /^Not registered: /],
    [
      { httpCode: '', httpMessage: 'not sent yet' },
      'not-delivered',
      'Not delivered: the provider has no answer from our receiver (“not sent yet”). Payments are still followed by status checks.',
    ],
    [{ httpCode: '', httpMessage: 'connect ECONNREFUSED 127.0.0.1:8787' }, 'not-delivered', /ECONNREFUSED/],
    [{ httpCode: '', httpMessage: '' }, 'not-delivered', /it has not tried yet/],
  ] as const)('%j is %s', (raw, outcome, summary) => {
    const j = judgeDelivery(raw);
    expect(j.outcome).toBe(outcome);
    if (typeof summary === 'string') expect(j.summary).toBe(summary);
    else expect(j.summary).toMatch(summary);
  });

  it('keeps the provider’s text short and on one line', () => {
    const j = judgeDelivery({ httpCode: '502', httpMessage: `<html>\n${'x'.repeat(1000)}</html>` });
    expect(j.httpMessage.length).toBe(300);
    expect(j.httpMessage).not.toContain('\n');
  });
});
