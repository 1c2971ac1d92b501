// A counter behind a real CounterPay Hub: the real sandbox sends its POS webhooks to the Hub
// (PGlite), the Hub relays them over SSE, the counter (checkout, the webhook module's ingest, the
// relay consumer, a real SQLite file) verifies, records and acts on them. Paid comes through the
// relay with at most one status query, and only to the counter that owns the order (its journal
// synced); the stream dropping brings the fast schedule back; a
// counter off for a day gets what it missed, once; repeats and late copies are handled once; a
// forged body that a compromised Hub relays changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { rsaEncryptChunked, rsaSign } from '../../../protocol/crypto';
import { listWebhookEvents } from '../../../core/webhook';
import { createWebhookIngest } from '../../../core/webhook';
import { ingestNotification } from '../../../hub/store/notifications';
import type { OrderView } from '../../../shared/orders';
import { startHubCounter, startSandboxHub, type HubCounter } from '../../helpers/hub-counter';
import {
  FAST_TUNING,
  inState,
  startOrdersSandbox,
  waitForOrder,
  type OrdersSandbox,
} from '../../helpers/orders-sandbox';
import type { TestHub } from '../../hub/helpers/hub-harness';
import { SALE_INPUT } from '../../helpers/orders-db';

const DAY = 24 * 60 * 60 * 1000;
let s: OrdersSandbox;
let hub: TestHub | null;
let dir: string;
const counters: HubCounter[] = [];

beforeAll(async () => {
  s = await startOrdersSandbox();
});
afterAll(async () => s?.sandbox.close());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cp-hub-link-'));
  hub = await startSandboxHub(s);
});
afterEach(async () => {
  s.sandbox.setClock({ offsetMs: 0 });
  for (const c of counters.splice(0)) await c.close();
  await hub?.stop();
  hub = null;
  rmSync(dir, { recursive: true, force: true });
});

// Each counter its own name, hence its own outOrderNo series (the sandbox outlives the tests).
let named = 0;
async function counter(o: Partial<Parameters<typeof startHubCounter>[0]> = {}): Promise<HubCounter> {
  const c = await startHubCounter({
    dir,
    name: `Counter ${++named}`,
    provider: s.providerConfig(),
    hubUrl: hub!.url,
    ...o,
  });
  counters.push(c);
  return c;
}

async function sellWaiting(c: HubCounter): Promise<OrderView> {
  const v = await c.svc.sell({ ...SALE_INPUT, sn: s.merchant.terminalSn });
  return inState(c.svc, v.id, 'waiting');
}

const hubDeliveries = async () =>
  (await hub!.db.query<{ id: unknown; acked_at: unknown }>('select id, acked_at from deliveries order by id')).map(
    (r) => ({ id: String(r.id), acked: r.acked_at !== null }),
  );

describe('the relay as the way Paid arrives', () => {
  it('the customer pays on the sandbox terminal: Paid arrives through the Hub and is acknowledged; once it did, the next sale costs at most one status query', async () => {
    const c = await counter();
    await c.health(true);
    // The first sale: the relay has not earned the counter's trust yet, so the counter may check it itself.
    const v = await sellWaiting(c);
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    const paid = await inState(c.svc, v.id, 'paid');
    expect(paid.state).toBe('paid');
    // No webhook receiver runs on this counter: the event came through the relay, once (recorded, or a
    // repeat of what a status check had already found).
    await vi.waitFor(
      () => expect(c.outcomes.map((x) => x.outcome)).toEqual([expect.stringMatching(/^(recorded|repeat)$/)]),
      { timeout: 5_000 },
    );
    expect(listWebhookEvents(c.db, 'pos').map((e) => [e.orderNo, e.status])).toEqual([[v.orderNo, 'SUCCESS']]);
    await vi.waitFor(async () => expect(await hubDeliveries()).toEqual([{ id: c.outcomes[0]!.eventId, acked: true }]), {
      timeout: 5_000,
    });
    expect(c.relay.lastEventId()).toBe(c.outcomes[0]!.eventId);
    // The relay delivered: the next sale's follow-up for the payment number is its only status query (polling held off).
    const before = c.queries.length;
    const w = await sellWaiting(c);
    // Trusted: its first check is the relay schedule's, ~20 s after the terminal (the fast schedule's is 1 s).
    expect(c.svc.get(w.id)!.nextActionAt! - Date.now()).toBeGreaterThan(10_000);
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await inState(c.svc, w.id, 'paid');
    await vi.waitFor(() => expect(c.outcomes).toHaveLength(2), { timeout: 5_000 });
    expect(c.outcomes[1]!.outcome).toBe('recorded');
    expect(c.queries.length - before).toBeLessThanOrEqual(1);
  });

  it('an order of another counter of the branch is not sent to this one; one relayed to it anyway (an older Hub sent unknown orders to the whole branch) is ignored quietly', async () => {
    const a = await counter();
    const b = await counter();
    await Promise.all([a.health(true), b.health(true)]);
    const v = await sellWaiting(a);
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await inState(a.svc, v.id, 'paid');
    await vi.waitFor(() => expect(a.outcomes.map((x) => x.outcome)).toEqual(['recorded']), { timeout: 5_000 });
    const to = await hub!.db.query<{ counter_id: string }>('select distinct counter_id from deliveries');
    expect(to).toEqual([{ counter_id: a.conn.counterId }]);
    // Relayed to B all the same: B verifies it, does not have the order, ignores it quietly.
    await hub!.db.query(
      'insert into deliveries (notification_id, counter_id, created_at) select notification_id, $1, $2 from deliveries where counter_id = $3',
      [b.conn.counterId, Date.now(), a.conn.counterId],
    );
    await vi.waitFor(() => expect(b.outcomes.map((x) => x.outcome)).toEqual(['ignored']), { timeout: 5_000 });
    expect(listWebhookEvents(b.db)).toEqual([]);
    expect(b.logger.lines.filter((l) => l.level !== 'info')).toEqual([]);
    await vi.waitFor(async () => expect((await hubDeliveries()).every((d) => d.acked)).toBe(true), { timeout: 5_000 });
  });
});

describe('polling as the safety net', () => {
  it('the Hub stops: the stream is unhealthy at once and the waiting order is checked within 2 s, then on the fast schedule', async () => {
    const c = await counter({ tuning: FAST_TUNING });
    await c.health(true);
    // The relay earns trust by delivering a notification for one of this counter's orders.
    const first = await sellWaiting(c);
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await inState(c.svc, first.id, 'paid');
    await vi.waitFor(() => expect(c.outcomes.map((x) => x.outcome)).toContain('recorded'), { timeout: 5_000 });
    const v = await sellWaiting(c);
    // Trusted: the next check is the relay schedule's first point, ~20 s after the terminal.
    expect(c.svc.get(v.id)!.nextActionAt! - Date.now()).toBeGreaterThan(10_000);
    const before = c.queries.length;
    await hub!.stop();
    hub = null;
    await c.health(false);
    const droppedAt = Date.now();
    expect(c.svc.get(v.id)!.nextActionAt! - droppedAt).toBeLessThanOrEqual(2_000);
    await vi.waitFor(() => expect(c.queries.length).toBeGreaterThanOrEqual(before + 3), { timeout: 10_000 });
    // The fast schedule also finds the payment by itself.
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await inState(c.svc, v.id, 'paid');
  });
});

describe('a counter off while notifications arrive', () => {
  it('comes back a day later and gets what it missed through Last-Event-ID, each once; a direct webhook that old would be refused', async () => {
    let offsetMs = 0;
    const clock = { now: () => Date.now() + offsetMs };
    const first = await counter({ clock });
    await first.health(true);
    // Two sales on the terminal, one after the other; both paid while the counter is off.
    const a = await sellWaiting(first);
    // Its journal reached the Hub (the order is its own there) before it goes off.
    await vi.waitFor(
      async () =>
        expect(await hub!.db.query('select 1 from order_owners where order_key = $1', [a.orderNo])).toHaveLength(1),
      { timeout: 5_000 },
    );
    await first.close();
    counters.splice(counters.indexOf(first), 1);
    const enrolled = { counterId: first.conn.counterId, credential: first.conn.credential, branch: first.conn.branch };
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await vi.waitFor(async () => expect((await hubDeliveries()).length).toBe(1), { timeout: 5_000 });

    // The next day, for everyone: the provider, the Hub and the counter that comes back.
    offsetMs = DAY;
    s.sandbox.setClock({ offsetMs: DAY });
    hub!.clock.offsetMs = DAY;
    const back = await counter({ name: first.name, clock, enrolled, noResume: true });
    const paid = await inState(back.svc, a.id, 'paid');
    expect(paid.state).toBe('paid');
    expect(back.outcomes.map((x) => x.outcome)).toEqual(['recorded']);
    expect(back.queries.length).toBeLessThanOrEqual(1);
    await vi.waitFor(async () => expect((await hubDeliveries()).every((d) => d.acked)).toBe(true), { timeout: 5_000 });

    // Reconnecting again brings nothing twice.
    back.relay.reconnect();
    await back.health(true);
    const b = await sellWaiting(back);
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await inState(back.svc, b.id, 'paid');
    expect(back.outcomes.map((x) => x.outcome)).toEqual(['recorded', 'recorded']);
    expect(listWebhookEvents(back.db, 'pos')).toHaveLength(2);

    // The same day-old body sent straight to the counter's receiver would be stale: only the relay widens the window.
    const [n] = await hub!.db.query<{ body: string }>('select body from notifications order by id limit 1');
    const direct = createWebhookIngest({
      db: back.db,
      logger: back.logger,
      clock,
      getConfig: () => s.providerConfig(),
      onPosNotification: () => {},
      onBillsCallback: () => {},
    });
    expect(direct({ kind: 'pos', body: n!.body, via: 'direct' })).toMatchObject({ outcome: 'refused', code: '40102' });
  });
});

describe('repeats, late copies and forgeries', () => {
  it('duplicate and late provider notifications are relayed but handled once', async () => {
    const c = await counter();
    await c.health(true);
    const v = await sellWaiting(c);
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await inState(c.svc, v.id, 'paid');
    await s.sandbox.redeliverWebhook(v.orderNo!); // a duplicate, freshly signed
    await s.sandbox.redeliverWebhook(v.orderNo!, { timestampOffsetMs: -4 * 60_000 }); // late, still in the Hub's window
    await vi.waitFor(() => expect(c.outcomes.map((x) => x.outcome)).toEqual(['recorded', 'repeat', 'repeat']), {
      timeout: 5_000,
    });
    expect(listWebhookEvents(c.db, 'pos')).toHaveLength(1);
    expect(c.svc.history(v.id).filter((e) => e.to === 'paid')).toHaveLength(1);
  });

  it('a forged body relayed by a compromised Hub changes nothing, is refused and acknowledged', async () => {
    const c = await counter();
    await c.health(true);
    const v = await sellWaiting(c);
    // The Hub stores and routes a body it never verified: signed by someone else's key, correctly
    // encrypted to the merchant, saying SUCCESS for our waiting order.
    const m = hub!.merchant;
    const timestamp = String(Date.now());
    const data = {
      outOrderNo: v.outOrderNo,
      orderNo: v.orderNo!,
      status: 'SUCCESS',
      amount: '3700.00',
      transactionTime: String(Date.now()),
      completedTime: String(Date.now()),
    };
    const paramContent = rsaEncryptChunked(m.merchantPublicPem, JSON.stringify({ data }));
    const body = JSON.stringify({
      clientAuthKey: m.clientAuthKey,
      version: 'V1.0.1',
      bodyFormat: 'JSON',
      timestamp,
      paramContent,
      sign: rsaSign(m.providerPrivatePem, paramContent + timestamp),
    });
    await ingestNotification(hub!.db, {
      kind: 'pos',
      headers: { 'X-Opay-Tranid': v.orderNo!, merchantId: s.merchant.merchantId },
      body,
      contentKey: body,
      orderKeys: [v.orderNo!],
      branch: s.merchant.merchantId,
      verifiedDetail: 'compromised: not verified',
      now: Date.now(),
    });
    await vi.waitFor(() => expect(c.outcomes.map((x) => x.outcome)).toEqual(['refused']), { timeout: 5_000 });
    expect(c.svc.get(v.id)!.state).toBe('waiting');
    expect(listWebhookEvents(c.db)).toEqual([]);
    await vi.waitFor(async () => expect((await hubDeliveries()).every((d) => d.acked)).toBe(true), { timeout: 5_000 });
    // The genuine payment still gets through.
    s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
    await waitForOrder(c.svc, v.id, (x) => x.state === 'paid');
  });
});
