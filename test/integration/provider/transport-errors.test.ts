// Every way the wire can fail, over real loopback HTTP: the client maps each to the right
// PROVIDER_* code, says whether the outcome is unknown, and never sends a second request.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import { createBillsClient, createPosClient, isOutcomeUnknown } from '../../../core/provider';
import { testConfig } from '../../unit/provider/fixtures';
import { posAnswer } from './fake-provider';
import { closedPort, rejection, sendJson, startTestServer, type Handler, type TestServer } from './test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const order = { outOrderNo: 'CP-1', amountKobo: 350000, orderExpireSeconds: 300, sn: 'PB0123456789' };

async function clients(handler: Handler, timeoutMs = 2000) {
  server = await startTestServer(handler);
  const cfg = testConfig({ billsBaseUrl: `${server.url}/api/v3`, posBaseUrl: server.url, requestTimeoutMs: timeoutMs });
  const logger = memoryLogger();
  return { pos: createPosClient(cfg, { logger }), bills: createBillsClient(cfg, { logger }), logger, server };
}

describe('transport failures', () => {
  it('refused connection: PROVIDER_UNREACHABLE, outcome known (nothing sent)', async () => {
    const port = await closedPort();
    const cfg = testConfig({ billsBaseUrl: `http://127.0.0.1:${port}/api/v3`, posBaseUrl: `http://127.0.0.1:${port}` });
    const e = await rejection(createPosClient(cfg, { logger: memoryLogger() }).createOrder(order));
    expect(e.code).toBe('PROVIDER_UNREACHABLE');
    expect(e.details).toMatchObject({ causeCode: 'ECONNREFUSED', outcomeUnknown: false });
    expect(isOutcomeUnknown(e)).toBe(false);
    const b = await rejection(createBillsClient(cfg, { logger: memoryLogger() }).bettingProviders());
    expect(b.code).toBe('PROVIDER_UNREACHABLE');
  });

  it('a redirect is refused, never followed: one request, outcome unknown', async () => {
    const { pos, server } = await clients((_req, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const e = await rejection(pos.createOrder(order));
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(isOutcomeUnknown(e)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('no answer in time: PROVIDER_TIMEOUT, outcome unknown, one request only', async () => {
    const { pos, server } = await clients(() => undefined, 300);
    const e = await rejection(pos.createOrder(order));
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(e.message).toMatch(/may or may not have reached the provider/);
    expect(e.details).toMatchObject({ reason: 'timeout', outcomeUnknown: true });
    expect(server.requests).toHaveLength(1);
  });

  it('headers sent but the body stalls: the deadline still applies', async () => {
    const { bills } = await clients((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[');
    }, 300);
    const e = await rejection(bills.bettingProviders());
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(isOutcomeUnknown(e)).toBe(true);
  });

  it('connection reset after the request was read: PROVIDER_TIMEOUT, outcome unknown, no retry', async () => {
    const { pos, server } = await clients((_req, _res, raw) => void raw.socket.destroy());
    const e = await rejection(pos.createOrder(order));
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(e.details).toMatchObject({ reason: 'connection-dropped', outcomeUnknown: true });
    expect(server.requests).toHaveLength(1);
  });

  it('TCP RST after the request: outcome unknown', async () => {
    const { bills, server } = await clients((_req, _res, raw) => void raw.socket.resetAndDestroy());
    const e = await rejection(
      bills.bulkBills({
        serviceType: 'airtime',
        callBackUrl: 'http://127.0.0.1/cb',
        items: [{ reference: 'r1', provider: 'MTN', customerId: '+2348012345678', amountKobo: 10000 }],
      }),
    );
    expect(e.code).toBe('PROVIDER_TIMEOUT');
    expect(e.details?.outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('HTTP 500 without an envelope: PROVIDER_HTTP with the status, never retried', async () => {
    const { pos, bills, server } = await clients((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>Internal Server Error</html>');
    });
    const e = await rejection(pos.createOrder(order));
    expect(e).toMatchObject({ code: 'PROVIDER_HTTP', details: { httpStatus: 500, outcomeUnknown: true } });
    const b = await rejection(bills.validate({ provider: 'BET9JA', customerId: '1' }));
    expect(b).toMatchObject({ code: 'PROVIDER_HTTP', details: { httpStatus: 500 } });
    expect(server.requests).toHaveLength(2);
  });

  it('malformed JSON: PROVIDER_BAD_RESPONSE', async () => {
    const { pos, bills } = await clients((_req, res) => sendJson(res, 200, '{"code":"00000",'));
    expect((await rejection(pos.queryOrder({ orderNo: '1' }))).details).toMatchObject({ reason: 'malformed-json' });
    expect((await rejection(bills.bettingProviders())).code).toBe('PROVIDER_BAD_RESPONSE');
  });

  it('a POS answer whose signature does not verify is refused (verify mode)', async () => {
    const { pos, logger } = await clients((_req, res) =>
      sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { orderNo: '2401' }, { badSign: true })),
    );
    const e = await rejection(pos.createOrder(order));
    expect(e).toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      details: { reason: 'unauthenticated', outcomeUnknown: true },
    });
    expect(isOutcomeUnknown(e)).toBe(true);
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(true);
  });

  it('an oversized answer is refused without holding it', async () => {
    const { bills } = await clients((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[' + '"x",'.repeat(700_000) + '"x"]');
    });
    expect((await rejection(bills.bettingProviders())).details).toMatchObject({ reason: 'too-large' });
  });
});

describe('nothing leaks into the logs', () => {
  it('no key, signature or body in any log line', async () => {
    const { pos, bills, logger } = await clients((_req, res) =>
      sendJson(res, 200, posAnswer('00000', 'SUCCESSFUL', { orderNo: '2401' })),
    );
    await pos.createOrder(order);
    await rejection(
      bills.bulkBills({
        serviceType: 'betting',
        callBackUrl: 'http://x/cb',
        items: [{ reference: 'r', provider: 'BET9JA', customerId: '1', amountKobo: 100 }],
      }),
    );
    const text = JSON.stringify(logger.lines);
    const cfg = testConfig();
    for (const secret of Object.values(cfg.secrets)) {
      const probe = String(secret)
        .replace(/-----[A-Z ]+-----/g, '')
        .trim()
        .slice(0, 40);
      expect(text).not.toContain(probe);
    }
    expect(text).not.toMatch(/paramContent|Bearer/);
  });
});
