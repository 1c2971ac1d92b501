// Issue 28: the relay's detection regression. The Hub holds a POS webhook whose order no counter
// owns yet (hub/store/quarantine.ts) until the owner names the provider's orderNo, the only key the
// webhook carries that the Hub can read (its Tranid header; the outOrderNo is inside the encrypted
// paramContent, which the Hub cannot decrypt). The counter learns that orderNo from the create's
// answer, moments before the customer can tap. First it waited for the sync pusher's debounce
// (100 ms); then, sent at once in the journal's sync, it still waited whenever a sync with an
// earlier batch (the last sale's Paid, a status) was in flight: one call at a time, in order
// (bench:hub detection p50 29 against 12 ms before the Hub held webhooks). Now the orderNo goes on a
// claim of its own (core/hub-link/order-claim.ts, POST /api/v1/orders/claim). Counted here, not
// timed: with every one of the pusher's timers held (none fires) and its sync held in flight (never
// answered, so the Hub never receives the counter's journal), the sale's orderNo still reaches the
// Hub, on exactly one claim, with zero timer firings; the Paid is then routed to its owner on
// arrival (never held, never released by a later call) and comes through the relay.
//
// And its last cause: a counter that had spent its Hub burst (600 calls a minute, 120 at once;
// bench:hub sells 30 sales a second at about 4 calls a sale) had its sale's claim answered 429 with
// the wait to take; the claim gave up, the customer's webhook was held until the journal's sync,
// whose backoff is far longer, and detection with the relay read 550-950 ms for those sales (85 ms
// p50 once every call waited on the bucket: the 88 ms first reported). Now a claim refused for the rate
// is sent again after the wait the Hub named. Counted too, not timed: the Hub's clock is frozen
// while the counter's bucket is emptied, so the claim is refused (429) for certain; with the sync
// held in flight (never reaching the Hub), a second claim names the orderNo, and the Paid is routed
// to its owner on arrival, never held.
// Real parts: the sandbox provider, a Hub (PGlite) over loopback HTTP, the counter's SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHubClient, HubCallError, type HubClient } from '../../../core/hub-link';
import { MeResponseSchema, ORDER_CLAIM_PATH } from '../../../shared/hub-contract';
import type { Timers } from '../../../core/lib';
import { startHubCounter, startSandboxHub, type HubCounter } from '../../helpers/hub-counter';
import { inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';
import type { TestHub } from '../../hub/helpers/hub-harness';
import { SALE_INPUT } from '../../helpers/orders-db';

let s: OrdersSandbox;
let hub: TestHub | null = null;
let dir: string;
let c: HubCounter | null = null;

beforeAll(async () => {
  s = await startOrdersSandbox();
});
afterAll(async () => s?.sandbox.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cp-order-claim-'));
});
afterEach(async () => {
  await c?.close();
  c = null;
  await hub?.stop();
  hub = null;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The pusher's timers, counted and held: none ever fires (its debounce, its status tick, a backoff),
 * so what the pusher sends here it sends with zero timer firings.
 */
function heldTimers(): Timers & { fired: number; armed: number } {
  return {
    fired: 0,
    armed: 0,
    setTimeout(this: { armed: number }) {
      this.armed += 1;
      return {};
    },
    clearTimeout: () => {},
  };
}

interface Sent {
  path: string;
  orderNos: string[];
  /** The pusher's timers fired when this call left. */
  firedBefore: number;
  answered: Promise<unknown>;
}

/**
 * The real Hub client, every call noted; a journal sync is held in flight (never sent to the Hub,
 * never answered until the pusher aborts it): the sync the regression waited behind.
 */
function watchingClient(timers: { fired: number }, sent: Sent[], onSent: () => void): HubClient {
  const real = createHubClient();
  return {
    ...real,
    call(conn, method, path, body, answer, o) {
      const held = path === '/sync';
      const p = held
        ? new Promise<never>((_, reject) =>
            o?.signal?.addEventListener('abort', () => reject(new Error('aborted by the pusher'))),
          )
        : real.call(conn, method, path, body, answer, o);
      const items = held
        ? (body as { events: { payload: { orderNo?: string } }[] }).events.map((e) => e.payload)
        : ((body as { orders?: { orderNo: string }[] }).orders ?? []);
      sent.push({
        path,
        orderNos: items.map((x) => x.orderNo ?? '').filter(Boolean),
        firedBefore: timers.fired,
        answered: p.catch(() => null),
      });
      onSent();
      return p;
    },
  };
}

interface Claim {
  orderNos: string[];
  /** The Hub's answer: its body, or the code it refused with. */
  answer: Promise<unknown>;
}

/** The real Hub client; every claim noted with its answer; the journal's sync held in flight (never sent). */
function claimWatchingClient(claims: Claim[], onClaim: () => void): HubClient {
  const real = createHubClient();
  return {
    ...real,
    call(conn, method, path, body, answer, o) {
      if (path === '/sync')
        return new Promise<never>((_, reject) =>
          o?.signal?.addEventListener('abort', () => reject(new Error('aborted by the pusher'))),
        );
      const p = real.call(conn, method, path, body, answer, o);
      if (path === ORDER_CLAIM_PATH) {
        const orders = (body as { orders: { orderNo: string }[] }).orders;
        claims.push({
          orderNos: orders.map((x) => x.orderNo),
          answer: p.catch((e: unknown) => (e instanceof HubCallError ? e.code : String(e))),
        });
        void p.catch(() => null).then(onClaim);
      }
      return p;
    },
  };
}

/** Resolves at the relay's next delivery of a notification for one of this counter's orders. */
function nextDelivery(counter: HubCounter): Promise<void> {
  return new Promise<void>((resolve) => {
    const off = counter.relay.onDelivered(() => {
      off();
      resolve();
    });
  });
}

/** The Hub's delivery log of the notifications of one provider order, in order. */
const deliveryLog = (orderNo: string) =>
  hub!.db.query<{ step: string; detail: string }>(
    `select l.step, l.detail from delivery_log l join notifications n on n.id = l.notification_id where n.order_no = $1 order by l.id`,
    [orderNo],
  );

describe('the orderNo reaches the Hub before the customer can tap, whatever the sync is doing (issue 28)', () => {
  it(
    'with the sync held in flight and no pusher timer fired, one claim names the orderNo; the Paid is routed to its owner on arrival and comes through the relay',
    { timeout: 30_000 },
    async () => {
      hub = await startSandboxHub(s);
      const timers = heldTimers();
      const sent: Sent[] = [];
      let heard = () => {};
      c = await startHubCounter({
        dir,
        name: 'Keys Counter',
        provider: s.providerConfig(),
        hubUrl: hub!.url,
        pusher: { timers, client: watchingClient(timers, sent, () => heard()) },
      });
      await c.health(true);
      const v = await c.svc.sell({ ...SALE_INPUT, sn: s.merchant.terminalSn });
      const waiting = await inState(c.svc, v.id, 'waiting');
      expect(waiting.orderNo).toBeTruthy();
      // The claim that tells the Hub this orderNo (already left, or about to: resolved when it does).
      const named = () => sent.find((x) => x.path === ORDER_CLAIM_PATH && x.orderNos.includes(waiting.orderNo!));
      const claim =
        named() ??
        (await new Promise<Sent>((resolve) => {
          heard = () => {
            const x = named();
            if (x) resolve(x);
          };
        }));
      expect(claim.firedBefore).toBe(0);
      expect(await claim.answered).toEqual({ claimed: 1 });
      // The sync the claim did not wait for: in flight since the pusher started, never answered.
      const syncs = sent.filter((x) => x.path === '/sync');
      expect(syncs.length).toBe(1);
      const journal = await hub!.db.query<{ n: unknown }>('select count(*) as n from journal');
      expect(Number(journal[0]!.n)).toBe(0);

      // The Hub owns the order before the tap: its webhook is routed to this counter on arrival.
      const delivered = nextDelivery(c);
      s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
      const paid = await inState(c.svc, v.id, 'paid');
      expect(paid.state).toBe('paid');
      await delivered;
      expect(c.outcomes.map((x) => x.outcome)).toEqual([expect.stringMatching(/^(recorded|repeat)$/)]);
      const log = await deliveryLog(waiting.orderNo!);
      // Never held, never released by a later call: routed on arrival, one hop.
      expect(log.map((r) => r.step)).toEqual(['received', 'verified', 'routed', 'relayed']);
      expect(log[2]!.detail).toMatch(new RegExp(`^owner of order ${waiting.orderNo}`));
      const held = await hub!.db.query<{ n: unknown }>('select count(*) as n from quarantine');
      expect(Number(held[0]!.n)).toBe(0);
      // Paid names the orderNo again: no second claim (one per sale).
      expect(sent.filter((x) => x.path === ORDER_CLAIM_PATH).length).toBe(1);
      expect(timers.fired).toBe(0);
    },
  );
});

describe('a claim refused for the counter rate is sent again after the wait the Hub names (issue 28)', () => {
  it(
    'with the bucket empty and the sync held in flight, the second claim names the orderNo and the Paid is routed on arrival',
    { timeout: 30_000 },
    async () => {
      // The Hub's clock, frozen while the counter's bucket is emptied and its first claim refused.
      let frozenAt: number | null = null;
      hub = await startSandboxHub(s, {
        rateLimits: { perCredential: 60 },
        now: () => frozenAt ?? Date.now(),
      });
      const claims: Claim[] = [];
      let heard = () => {};
      c = await startHubCounter({
        dir,
        name: 'Busy Counter',
        provider: s.providerConfig(),
        hubUrl: hub.url,
        pusher: { client: claimWatchingClient(claims, () => heard()) },
      });
      await c.health(true);

      frozenAt = Date.now();
      const me = createHubClient();
      let refused = false;
      for (let i = 0; i < 100 && !refused; i++)
        await me.call(c.conn, 'GET', '/me', undefined, MeResponseSchema).catch((e: unknown) => {
          refused = e instanceof HubCallError && e.code === 'HUB_RATE_LIMITED';
        });
      expect(refused).toBe(true);

      const answered = (n: number) =>
        new Promise<void>((resolve) => {
          heard = () => {
            if (claims.length >= n) void Promise.all(claims.map((x) => x.answer)).then(() => resolve());
          };
          heard();
        });
      const v = await c.svc.sell({ ...SALE_INPUT, sn: s.merchant.terminalSn });
      const waiting = await inState(c.svc, v.id, 'waiting');
      await answered(1);
      expect(await claims[0]!.answer).toBe('HUB_RATE_LIMITED');
      // Time moves again: the wait the Hub named passes, and the claim goes again.
      frozenAt = null;
      await answered(2);
      expect(claims.map((x) => x.orderNos)).toEqual([[waiting.orderNo], [waiting.orderNo]]);
      expect(await claims[1]!.answer).toEqual({ claimed: 1 });
      const journal = await hub.db.query<{ n: unknown }>('select count(*) as n from journal');
      expect(Number(journal[0]!.n)).toBe(0);

      const delivered = nextDelivery(c);
      s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
      expect((await inState(c.svc, v.id, 'paid')).state).toBe('paid');
      await delivered;
      const log = await deliveryLog(waiting.orderNo!);
      // Never held: routed to its owner on arrival.
      expect(log.map((r) => r.step).slice(0, 3)).toEqual(['received', 'verified', 'routed']);
      expect(claims.length).toBe(2);
    },
  );
});
