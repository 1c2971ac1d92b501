// A chain's load on one Hub (issue 21): 500 counters with their relay streams open at once, 20 sales
// a second spread over them (provider POST -> that counter has it), the Hub's memory meanwhile, and a
// counter's sync while one anonymous client floods the Hub as fast as it can.
import { readFileSync } from 'node:fs';
import type { SyncEvent } from '../../../shared/hub-contract';
import { ADMIN_TOKEN, bearer, post, posWebhook, type TestMerchant } from '../../hub/helpers/hub-harness';
import { RelayClient } from '../../hub/helpers/sse-client';
import { percentile, round } from '../bench-stats';

export interface ChainFigures {
  countersConnected: number;
  relayP95MsAt500: number;
  hubRssMbAt500: number;
  anonFloodCounterP95Ms: number;
  /** Its floor, same run, same counter, same pace: the sync's p95 just before the flood (no flood). */
  anonFloodQuietP95Ms: number;
}

/** Syncs timed before the flood, its floor (100 ms apart, as under the flood). */
const QUIET_SYNCS = 60;

const status = () => ({ appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 });

/** A call the Hub may answer 429 (enrolling 500 counters from one address): waits as told, then again. */
async function patient(
  f: () => Promise<{ status: number; json: Record<string, unknown> }>,
): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await f();
    if (r.status === 200) return r.json;
    if (r.status !== 429) throw new Error(`refused: ${JSON.stringify(r.json)}`);
    const wait = Number((r.json.details as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 500);
    await new Promise((res) => setTimeout(res, Math.max(50, wait)));
  }
}

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

export async function chainBench(
  hub: { url: string; merchant: TestMerchant; posUrl: string; pid: number },
  o: { counters: number; sales: number; log: (s: string) => void },
): Promise<ChainFigures> {
  o.log(`chain: enrolling ${o.counters} counters and opening their relay streams ...`);
  const creds: string[] = [];
  for (let i = 0; i < o.counters; i++) {
    const code = await patient(() =>
      post(`${hub.url}/api/v1/admin/enroll-codes`, { ttlMinutes: 60, branch: `BR-${i % 40}` }, bearer(ADMIN_TOKEN)),
    );
    const e = await patient(() =>
      post(`${hub.url}/api/v1/enroll`, {
        code: code.code,
        counterName: `Chain ${i}`,
        branch: `BR-${i % 40}`,
        appVersion: '0.1.0',
      }),
    );
    creds.push(String(e.credential));
  }
  // Each counter owns the orders it will be paid for (its order.created came first).
  const perCounter = Math.ceil(o.sales / o.counters);
  await Promise.all(
    creds.map(async (cred, i) => {
      const events: SyncEvent[] = Array.from({ length: perCounter }, (_, k) => ({
        seq: k + 1,
        kind: 'order.created',
        at: Date.now(),
        payload: { reference: `CH-${i}-${k}`, orderNo: `CHP-${i}-${k}`, amountKobo: 250_000, sn: 'SN' },
      }));
      await patient(() => post(`${hub.url}/api/v1/sync`, { events, status: status() }, bearer(cred)));
    }),
  );
  const streams = creds.map((c) => new RelayClient(hub.url, c));
  await Promise.all(streams.map((s) => s.connect()));
  const countersConnected = streams.filter((s) => s.status === 200).length;

  o.log(`chain: ${o.sales} sales at 20 a second over ${countersConnected} open streams ...`);
  const lat: number[] = [];
  let rss = rssMb(hub.pid);
  const sends: Promise<void>[] = [];
  const t0 = performance.now();
  for (let n = 0; n < o.sales; n++) {
    const i = n % o.counters;
    const k = Math.floor(n / o.counters);
    const w = posWebhook(hub.merchant, { tranId: `CHP-${i}-${k}`, branch: `BR-${i % 40}` });
    // 20 a second: the n-th sale leaves at n x 50 ms (a load generator's pace, not a wait for a result).
    const due = t0 + n * 50 - performance.now();
    if (due > 0) await new Promise((res) => setTimeout(res, due));
    const s = streams[i]!;
    const have = s.notifications.length;
    const start = performance.now();
    sends.push(
      (async () => {
        await fetch(hub.posUrl, { method: 'POST', headers: w.headers, body: w.body }).then((r) => r.text());
        await s.until(() => s.notifications.some((x, j) => j >= have && x.body === w.body));
        lat.push(performance.now() - start);
      })(),
    );
    if (n % 20 === 0) rss = Math.max(rss, rssMb(hub.pid));
  }
  await Promise.all(sends);
  rss = Math.max(rss, rssMb(hub.pid));
  o.log(
    `chain: relay with ${countersConnected} streams open: p50 ${round(percentile(lat, 50))} ms, p95 ${round(percentile(lat, 95))} ms, max ${round(Math.max(...lat))} ms`,
  );
  await Promise.all(streams.map((s) => s.disconnect()));

  const cred = creds[0]!;
  // The counter syncs as its pusher does on a busy till: a call each 100 ms (its debounce after an append).
  const syncs = async (from: number, count: number, tag: string): Promise<number[]> => {
    const out: number[] = [];
    const s0 = performance.now();
    for (let k = 0; k < count; k++) {
      const due = s0 + k * 100 - performance.now();
      if (due > 0) await new Promise((res) => setTimeout(res, due));
      const t = performance.now();
      const r = await post(
        `${hub.url}/api/v1/sync`,
        {
          events: [
            {
              seq: from + k,
              kind: 'order.created',
              at: Date.now(),
              payload: { reference: `${tag}-${k}`, amountKobo: 1000, sn: 'SN' },
            },
          ],
          status: status(),
        },
        bearer(cred),
      );
      if (r.status !== 200) throw new Error(`a counter's sync was refused (${tag}): ${JSON.stringify(r.json)}`);
      out.push(performance.now() - t);
    }
    return out;
  };
  o.log('chain: a counter syncs with no flood (the floor) ...');
  const quiet = await syncs(perCounter + 1, QUIET_SYNCS, 'QT');
  o.log('chain: a counter syncs while one anonymous client floods /api/v1/me ...');
  let flooding = true;
  let flooded = 0;
  const flood = Promise.all(
    Array.from({ length: 16 }, async () => {
      while (flooding) {
        await fetch(`${hub.url}/api/v1/me`).then((r) => r.arrayBuffer());
        flooded++;
      }
    }),
  );
  const syncLat = await syncs(perCounter + QUIET_SYNCS + 1, 200, 'FL');
  flooding = false;
  await flood;
  o.log(`chain: the anonymous client sent ${flooded} requests meanwhile`);
  return {
    countersConnected,
    relayP95MsAt500: round(percentile(lat, 95)),
    hubRssMbAt500: round(rss),
    anonFloodCounterP95Ms: round(percentile(syncLat, 95)),
    anonFloodQuietP95Ms: round(percentile(quiet, 95)),
  };
}
