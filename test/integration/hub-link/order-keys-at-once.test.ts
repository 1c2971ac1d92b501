// Issue 28: the relay's detection regression. The Hub holds a POS webhook whose order no counter
// owns yet (hub/store/quarantine.ts) until the owner's sync names the provider's orderNo; the
// counter learns that orderNo from the create answer, moments before the customer can tap. When
// the sync pusher sent it only after its debounce (100 ms), every relayed Paid waited for that
// timer (tap -> Paid 28 -> 88 ms p50 in bench:hub). Counted here, not timed: the sync that names
// the orderNo leaves with none of the pusher's timers fired (they are held: none ever fires), and the sale's
// Paid then comes through the relay routed to its owner at once (never held).
// Real parts: the sandbox provider, a Hub (PGlite) over loopback HTTP, the counter's SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHubClient, type HubClient } from '../../../core/hub-link';
import type { Timers } from '../../../core/lib';
import { startHubCounter, startSandboxHub, type HubCounter } from '../../helpers/hub-counter';
import { inState, startOrdersSandbox, type OrdersSandbox } from '../../helpers/orders-sandbox';
import type { TestHub } from '../../hub/helpers/hub-harness';

let s: OrdersSandbox;
let hub: TestHub | null;
let dir: string;
let c: HubCounter | null = null;

beforeAll(async () => {
  s = await startOrdersSandbox();
});
afterAll(async () => s?.sandbox.close());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cp-order-keys-'));
  hub = await startSandboxHub(s);
});
afterEach(async () => {
  await c?.close();
  c = null;
  await hub?.stop();
  hub = null;
  rmSync(dir, { recursive: true, force: true });
});

const SALE = {
  filmName: 'Lagos Nights',
  filmTitle: 'Hall 2',
  showDate: '2025-01-31',
  showTime: '19:30',
  seats: 'F7',
  tickets: 1,
  priceKobo: 350_000,
  bookingFeeKobo: 0,
};

/**
 * The pusher's timers, counted and held: none ever fires (its debounce, its status tick, a backoff),
 * so what the pusher sends here it sends with zero timer firings. Before the fix the sync naming the
 * orderNo waited for the debounce's firing and so never left (the test then fails on its timeout).
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

interface SyncSent {
  orderNos: string[];
  /** The pusher's timers fired when this sync left. */
  firedBefore: number;
  answered: Promise<unknown>;
}

/** The real Hub client; every POST /sync noted with the orderNos its events name. */
function watchingClient(timers: { fired: number }, sent: SyncSent[], onSent: () => void): HubClient {
  const real = createHubClient();
  return {
    ...real,
    call(conn, method, path, body, answer, o) {
      const p = real.call(conn, method, path, body, answer, o);
      if (path === '/sync') {
        const events = (body as { events: { payload: { orderNo?: string } }[] }).events;
        sent.push({
          orderNos: events.map((e) => e.payload.orderNo ?? '').filter(Boolean),
          firedBefore: timers.fired,
          answered: p.catch(() => null),
        });
        onSent();
      }
      return p;
    },
  };
}

describe('the orderNo reaches the Hub before the customer can tap (issue 28)', () => {
  it(
    'the sync naming a new orderNo leaves with no pusher timer fired; the Paid is routed to its owner at once and comes through the relay',
    { timeout: 30_000 },
    async () => {
      const timers = heldTimers();
      const sent: SyncSent[] = [];
      let heard = () => {};
      c = await startHubCounter({
        dir,
        name: 'Keys Counter',
        provider: s.providerConfig(),
        hubUrl: hub!.url,
        pusher: { timers, client: watchingClient(timers, sent, () => heard()) },
      });
      await c.health(true);
      const v = await c.svc.sell({ ...SALE, sn: s.merchant.terminalSn });
      const waiting = await inState(c.svc, v.id, 'waiting');
      expect(waiting.orderNo).toBeTruthy();
      // The sync that tells the Hub this orderNo (already left, or about to: resolved when it does).
      const named = () => sent.find((x) => x.orderNos.includes(waiting.orderNo!));
      const sync =
        named() ??
        (await new Promise<SyncSent>((resolve) => {
          heard = () => {
            const x = named();
            if (x) resolve(x);
          };
        }));
      // The count that failed before the fix: the debounce timer (100 ms) had to fire first.
      expect(sync.firedBefore).toBe(0);
      expect(timers.armed).toBeGreaterThan(0); // the debounce of order.created was armed, and not needed
      await sync.answered;

      // The Hub owns the order before the tap: its webhook is routed to this counter on arrival.
      const delivered = new Promise<void>((resolve) => {
        const off = c!.relay.onDelivered(() => {
          off();
          resolve();
        });
      });
      s.sandbox.present(s.merchant.terminalSn, 'SUCCESS');
      const paid = await inState(c.svc, v.id, 'paid');
      expect(paid.state).toBe('paid');
      await delivered;
      expect(c.outcomes.map((x) => x.outcome)).toEqual([expect.stringMatching(/^(recorded|repeat)$/)]);
      const log = await hub!.db.query<{ step: string; detail: string }>(
        `select l.step, l.detail from delivery_log l join notifications n on n.id = l.notification_id where n.order_no = $1 and l.step = 'routed'`,
        [waiting.orderNo],
      );
      expect(log.map((r) => r.detail)).toEqual([
        expect.stringMatching(new RegExp(`^owner of order ${waiting.orderNo}`)),
      ]);
      expect(log.map((r) => r.detail).join()).not.toMatch(/once its counter synced/);
      const held = await hub!.db.query<{ n: unknown }>('select count(*) as n from quarantine');
      expect(Number(held[0]!.n)).toBe(0);
    },
  );
});
