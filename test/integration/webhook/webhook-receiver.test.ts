// The webhook receiver over real loopback HTTP with a real SQLite file: valid events are recorded
// before the success answer and handed on once; every failed check gets a non-success answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournalDb } from '../../../core/schema';
import { type Db } from '../../../core/db';
import { memoryLogger } from '../../../shared/logger';
import type { ProviderConfig } from '../../../core/provider/types';
import {
  listUnhandledWebhookEvents,
  listWebhookEvents,
  startWebhookReceiver,
  WEBHOOK_PATHS,
  type BillsCallbackEvent,
  type PosNotification,
  type WebhookReceiver,
} from '../../../core/webhook';
import { testConfig } from '../../unit/provider/fixtures';
import { billsCallbackBody, posWebhookBody } from '../../unit/webhook/fixtures';

const NOW = 1763726500000;
let dir: string;
let db: Db;
let receiver: WebhookReceiver | undefined;
let pos: PosNotification[];
let bills: BillsCallbackEvent[];
let logger: ReturnType<typeof memoryLogger>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cp-webhook-'));
  db = openJournalDb(join(dir, 'app.db'));
  pos = [];
  bills = [];
  logger = memoryLogger();
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(
  over: { onPos?: (n: PosNotification) => void; maxBodyBytes?: number; config?: ProviderConfig; host?: string } = {},
) {
  receiver = await startWebhookReceiver({
    host: over.host ?? '127.0.0.1',
    port: 0,
    db,
    logger,
    clock: { now: () => NOW },
    getConfig: () => over.config ?? testConfig(),
    ...(over.maxBodyBytes ? { maxBodyBytes: over.maxBodyBytes } : {}),
    onPosNotification: over.onPos ?? ((n) => pos.push(n)),
    onBillsCallback: (c) => bills.push(c),
  });
  return receiver;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(`${receiver!.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'X-Opay-Tranid': '240101000000000001',
      merchantId: '256621000000002',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as { code: string; message: string } };
}

const SUCCESS = { code: '00000', message: 'SUCCESSFUL' };
const NOT_AUTHENTICATED = { code: '40100', message: 'not authenticated' };

describe('POS notifications', () => {
  it('valid: recorded, handed on, answered success', async () => {
    await start();
    const r = await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW - 2000 }));
    expect(r).toEqual({ status: 200, body: SUCCESS });
    expect(pos).toHaveLength(1);
    expect(pos[0]).toMatchObject({
      orderNo: '240101000000000001',
      outOrderNo: 'CP-20261121-0001',
      status: 'SUCCESS',
      amountKobo: 350000,
    });
    const stored = listWebhookEvents(db, 'pos');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      dedupeKey: 'pos:240101000000000001:SUCCESS',
      handledAt: NOW,
      handlerError: null,
    });
  });

  it('replay: the same event twice answers success both times and is handled once', async () => {
    await start();
    const body = posWebhookBody({ timestamp: NOW });
    expect((await post(WEBHOOK_PATHS.pos, body)).body).toEqual(SUCCESS);
    expect((await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW + 1000 }))).body).toEqual(SUCCESS);
    expect(pos).toHaveLength(1);
    expect(listWebhookEvents(db)).toHaveLength(1);
  });

  it('the same order with a new status is a new event', async () => {
    await start();
    const { notification } = await import('../../unit/webhook/fixtures');
    await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW, data: { ...notification, status: 'PENDING' } }));
    await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW }));
    expect(pos.map((n) => n.status)).toEqual(['PENDING', 'SUCCESS']);
  });

  it.each([
    ['wrong clientAuthKey', () => posWebhookBody({ timestamp: NOW, clientAuthKey: 'not-ours' }), 401, /clientAuthKey/],
    ['stale timestamp', () => posWebhookBody({ timestamp: NOW - 6 * 60 * 1000 }), 401, /5 minutes/],
    [
      'bad signature',
      () => ({ ...posWebhookBody({ timestamp: NOW }), sign: posWebhookBody({ timestamp: NOW - 1 }).sign }),
      401,
      /sign/,
    ],
    ['malformed JSON', () => '{"clientAuthKey":', 400, /JSON/],
    ['missing fields', () => ({ clientAuthKey: 'client-auth-key-test' }), 400, /fields/],
  ])('%s: non-success answer, nothing recorded, reason logged', async (_name, body, status, reason) => {
    await start();
    const r = await post(WEBHOOK_PATHS.pos, body());
    expect(r.status).toBe(status);
    expect(r.body.code).not.toBe('00000');
    // Authentication failures all get the same answer, so a caller cannot tell which check it passed.
    if (status === 401) expect(r.body).toEqual(NOT_AUTHENTICATED);
    else expect(r.body.message).toMatch(reason);
    expect(pos).toHaveLength(0);
    expect(listWebhookEvents(db)).toHaveLength(0);
    expect(
      logger.lines.some(
        (l) => l.level === 'warn' && l.msg === 'webhook refused' && reason.test(String(l.fields?.reason)),
      ),
    ).toBe(true);
  });

  it('a handler that throws does not lose the event', async () => {
    await start({
      onPos: () => {
        throw new Error('journal busy');
      },
    });
    expect((await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW }))).body).toEqual(SUCCESS);
    const unhandled = listUnhandledWebhookEvents(db);
    expect(unhandled).toHaveLength(1);
    expect(unhandled[0]).toMatchObject({
      kind: 'pos',
      orderNo: '240101000000000001',
      handlerError: 'journal busy',
      payload: { amountKobo: 350000 },
    });
    expect(logger.lines.some((l) => l.level === 'error')).toBe(true);
  });

  it('cannot record (database gone): non-success, so the provider sends it again; handler not called', async () => {
    await start();
    db.close();
    const r = await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW }));
    expect(r.status).toBe(500);
    expect(r.body.code).not.toBe('00000');
    expect(pos).toHaveLength(0);
    db = openJournalDb(join(dir, 'app.db'));
  });

  it('survives a restart: an event recorded before is not handled again', async () => {
    await start();
    await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW }));
    await receiver!.close();
    db.close();
    db = openJournalDb(join(dir, 'app.db'));
    await start();
    expect((await post(WEBHOOK_PATHS.pos, posWebhookBody({ timestamp: NOW }))).body).toEqual(SUCCESS);
    expect(pos).toHaveLength(1);
  });

  it('no secret or decrypted body in the logs', async () => {
    await start();
    const body = posWebhookBody({ timestamp: NOW });
    await post(WEBHOOK_PATHS.pos, body);
    await post(WEBHOOK_PATHS.pos, { ...body, clientAuthKey: 'not-ours' });
    const text = JSON.stringify(logger.lines);
    expect(text).not.toContain('client-auth-key-test');
    expect(text).not.toContain(body.sign.slice(0, 30));
    expect(text).not.toContain(body.paramContent.slice(0, 30));
    expect(text).not.toContain('ADA OBI');
  });
});

describe('limits and routing', () => {
  function rawPost(
    path: string,
    chunks: Buffer[],
    headers: Record<string, string | number>,
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const url = new URL(receiver!.url);
      const req = request({ host: url.hostname, port: url.port, path, method: 'POST', headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      });
      req.on('error', (e: NodeJS.ErrnoException) =>
        e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
      );
      for (const c of chunks) req.write(c);
      req.end();
    });
  }

  it('a declared oversized body is refused with 413 before it is read', async () => {
    await start({ maxBodyBytes: 1024 });
    const r = await rawPost(WEBHOOK_PATHS.pos, [Buffer.alloc(100, 0x20)], {
      'content-type': 'application/json',
      'content-length': 10 * 1024 * 1024,
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).code).not.toBe('00000');
  });

  it('a chunked body that grows past the limit is refused with 413', async () => {
    await start({ maxBodyBytes: 1024 });
    const r = await rawPost(WEBHOOK_PATHS.bills, [Buffer.alloc(800, 0x20), Buffer.alloc(800, 0x20)], {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    expect(r.status).toBe(413);
  });

  it('the default limit is 64 KiB', async () => {
    await start();
    const r = await post(WEBHOOK_PATHS.pos, JSON.stringify({ pad: 'x'.repeat(65 * 1024) }));
    expect(r.status).toBe(413);
  });

  it('listening beyond this computer is logged as a warning; loopback is not', async () => {
    await start();
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
    await receiver!.close();
    await start({ host: '0.0.0.0' });
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(/reachable from other computers/),
        fields: expect.objectContaining({ host: '0.0.0.0' }),
      }),
    ]);
  });

  it('unknown paths and other methods are refused', async () => {
    await start();
    expect((await post('/webhook/other', {})).status).toBe(404);
    const g = await fetch(`${receiver!.url}${WEBHOOK_PATHS.pos}`);
    expect(g.status).toBe(405);
  });
});

describe('bills callbacks', () => {
  it('valid: recorded and handed on once; repeats acknowledged', async () => {
    await start();
    expect(await post(WEBHOOK_PATHS.bills, billsCallbackBody())).toEqual({ status: 200, body: SUCCESS });
    expect(await post(WEBHOOK_PATHS.bills, billsCallbackBody())).toEqual({ status: 200, body: SUCCESS });
    expect(bills).toEqual([
      {
        reference: 'ref-0001',
        orderNo: '211004140885521681',
        status: 'SUCCESS',
        errorMsg: '',
        serviceType: 'betting',
        amountKobo: 50000,
      },
    ]);
    expect(listWebhookEvents(db, 'bills')).toHaveLength(1);
  });

  it('bad sha512 or another merchant: 401, nothing recorded', async () => {
    await start();
    expect(await post(WEBHOOK_PATHS.bills, billsCallbackBody({ secret: 'wrong' }))).toEqual({
      status: 401,
      body: NOT_AUTHENTICATED,
    });
    expect(await post(WEBHOOK_PATHS.bills, billsCallbackBody({ merchantId: '1' }))).toEqual({
      status: 401,
      body: NOT_AUTHENTICATED,
    });
    expect(logger.lines.filter((l) => l.msg === 'webhook refused').map((l) => l.fields?.reason)).toEqual([
      'sha512 does not verify',
      'merchantId is not ours',
    ]);
    expect(bills).toHaveLength(0);
    expect(listWebhookEvents(db)).toHaveLength(0);
  });
});
