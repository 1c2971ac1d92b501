// Detection with the relay (bench:hub): a counter behind the Hub sells on the sandbox's terminal,
// the customer taps, the sandbox posts its webhook to the Hub, which relays it to the counter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../../sandbox';
import { startHubCounter } from '../../helpers/hub-counter';
import type { sandboxProviderConfig } from '../../helpers/sandbox-provider-config';
import { inState, waitForOrder } from '../../helpers/orders-sandbox';

/**
 * A counter behind the Hub (checkout, webhook ingest, relay consumer, SQLite) sells on the
 * sandbox's terminal one order after another; the customer taps; the sandbox posts its webhook
 * to the Hub, which relays it. Per order: the status queries it cost until its payment number
 * was in the journal, and the time from the tap to Paid in the journal.
 */
export async function relayDetection(
  sandbox: Sandbox,
  provider: ReturnType<typeof sandboxProviderConfig>,
  sn: string,
  hubUrl: string,
  n: number,
): Promise<{ queries: number[]; lat: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-bench-counter-'));
  const c = await startHubCounter({ dir, name: 'Bench Counter', provider, hubUrl });
  const queries: number[] = [];
  const lat: number[] = [];
  try {
    await c.health(true);
    // The relay earns the counter's trust by delivering a notification for one of its orders; until
    // then the counter checks its sales on the fast schedule. One sale, not measured, earns it: the
    // figures are of a counter that trusts its relay (as it does after its first sale of the day).
    const earn = await c.svc.sell({
      filmName: 'Bench Film',
      filmTitle: 'Hall 1',
      showDate: '2025-03-31',
      showTime: '19:30',
      seats: 'A1',
      tickets: 1,
      priceKobo: 250_000,
      bookingFeeKobo: 0,
      sn,
    });
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
    for (let i = 0; i < n; i++) {
      const q0 = c.queries.length;
      const v = await c.svc.sell({
        filmName: 'Bench Film',
        filmTitle: 'Hall 1',
        showDate: '2025-03-31',
        showTime: '19:30',
        seats: 'A1',
        tickets: 1,
        priceKobo: 250_000,
        bookingFeeKobo: 0,
        sn,
      });
      await inState(c.svc, v.id, 'waiting');
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
  return { queries, lat };
}
