// Detection with the relay (bench:hub): a counter behind the Hub sells on the sandbox's terminal,
// the customer taps, the sandbox posts its webhook to the Hub, which relays it to the counter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../../sandbox';
import { createHubClient, HubCallError, type HubClient } from '../../../core/hub-link';
import { ORDER_CLAIM_PATH } from '../../../shared/hub-contract';
import { BENCH_SALE } from '../bench-lane';
import { startHubCounter } from '../../helpers/hub-counter';
import type { sandboxProviderConfig } from '../../helpers/sandbox-provider-config';
import { inState, waitForOrder } from '../../helpers/orders-sandbox';

/**
 * The Hub's per-counter rate a detection run needs: it sells about 25 sales a second (a real
 * counter, one a minute), at about 4 Hub calls a sale, so the default 600 calls a minute would
 * answer 429 after the first 30 sales and the run would measure the rate limiter, not the path.
 * The calls a sale costs are reported beside the figure (`hubCallsPerSale`).
 */
export const DETECTION_COUNTER_RATE = 60_000;

/** The counter's Hub calls, counted: every call of its sync pusher (syncs, claims) and relay (stream, acks). */
function countingHub(): {
  client: HubClient;
  fetch: typeof fetch;
  calls: () => number;
  refused: () => number;
  /** Resolves when a claim naming this orderNo has been answered (taken or not). */
  claimAnswered(orderNo: string): Promise<void>;
} {
  const real = createHubClient();
  let calls = 0;
  let refused = 0;
  const answered = new Set<string>();
  const waiting = new Map<string, () => void>();
  const note = (orderNos: string[]) => {
    for (const n of orderNos) {
      answered.add(n);
      waiting.get(n)?.();
      waiting.delete(n);
    }
  };
  return {
    client: {
      ...real,
      call(conn, method, path, body, answer, o) {
        calls += 1;
        const p = real.call(conn, method, path, body, answer, o);
        const named = path === ORDER_CLAIM_PATH ? (body as { orders: { orderNo: string }[] }).orders : [];
        p.then(
          () => note(named.map((x) => x.orderNo)),
          (e: unknown) => {
            if (e instanceof HubCallError && e.code === 'HUB_RATE_LIMITED') refused += 1;
            note(named.map((x) => x.orderNo));
          },
        );
        return p;
      },
    },
    fetch: async (input, init) => {
      calls += 1;
      const r = await fetch(input, init);
      if (r.status === 429) refused += 1;
      return r;
    },
    calls: () => calls,
    refused: () => refused,
    claimAnswered: (orderNo) =>
      answered.has(orderNo) ? Promise.resolve() : new Promise((resolve) => waiting.set(orderNo, resolve)),
  };
}

/**
 * A counter behind the Hub (checkout, webhook ingest, relay consumer, SQLite) sells on the
 * sandbox's terminal one order after another; the customer taps once the counter has told the Hub
 * the sale's order number (its claim answered: a customer needs seconds to read the amount and
 * tap, the claim a few milliseconds); the sandbox posts its webhook to the Hub, which relays it.
 * Per order: the status queries it cost until its payment number was in the journal, and the time
 * from the tap to Paid in the journal. Over the run: the counter's Hub calls per sale, and how many
 * of them the Hub refused for the counter's rate (429: none is expected at DETECTION_COUNTER_RATE).
 */
export async function relayDetection(
  sandbox: Sandbox,
  provider: ReturnType<typeof sandboxProviderConfig>,
  sn: string,
  hubUrl: string,
  n: number,
): Promise<{ queries: number[]; lat: number[]; hubCallsPerSale: number; refused: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-bench-counter-'));
  const hub = countingHub();
  const c = await startHubCounter({
    dir,
    name: 'Bench Counter',
    provider,
    hubUrl,
    pusher: { client: hub.client },
    relay: { fetch: hub.fetch, client: hub.client },
  });
  const queries: number[] = [];
  const lat: number[] = [];
  let calls0 = 0;
  try {
    await c.health(true);
    // The relay earns the counter's trust by delivering a notification for one of its orders; until
    // then the counter checks its sales on the fast schedule. One sale, not measured, earns it: the
    // figures are of a counter that trusts its relay (as it does after its first sale of the day).
    const earn = await c.svc.sell({ ...BENCH_SALE, sn });
    await inState(c.svc, earn.id, 'waiting');
    const delivered = new Promise<void>((resolve) => {
      const off = c.relay.onDelivered(() => {
        off();
        resolve();
      });
    });
    sandbox.present(sn, 'SUCCESS');
    await waitForOrder(c.svc, earn.id, (x) => x.state === 'paid' && !!x.payNo);
    await delivered;
    calls0 = hub.calls();
    for (let i = 0; i < n; i++) {
      const q0 = c.queries.length;
      const v = await c.svc.sell({ ...BENCH_SALE, sn });
      const waiting = await inState(c.svc, v.id, 'waiting');
      await hub.claimAnswered(waiting.orderNo!);
      const paid = new Promise<number>((resolve) => {
        const off = c.svc.on('order', (x) => {
          if (x.id !== v.id || x.state !== 'paid') return;
          off();
          resolve(performance.now());
        });
      });
      const t0 = performance.now();
      sandbox.present(sn, 'SUCCESS');
      lat.push((await paid) - t0);
      await waitForOrder(c.svc, v.id, (x) => x.state === 'paid' && !!x.payNo);
      queries.push(c.queries.length - q0);
    }
    if (!c.relay.healthy())
      throw new Error('the relay was not healthy at the end of the run: the figures would not be "with relay"');
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { queries, lat, hubCallsPerSale: (hub.calls() - calls0) / Math.max(1, n), refused: hub.refused() };
}
