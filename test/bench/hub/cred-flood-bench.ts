// A counter's sync while one address floods the Hub with wrong credentials (issue 26, High): a Hub
// of its own behind a `--trust-proxy 127.0.0.1` front (played by X-Forwarded-For from loopback);
// one address holds 2,000 connections sending random Bearer tokens and random session cookies as
// fast as the Hub answers them, while a counter behind that same address syncs every 100 ms. The
// counter's sync p95 is measured, with its p95 on the quiet Hub just before as the floor.
import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE } from '../../../shared/hub-dashboard-contract';
import { bearer, enroll, post } from '../../hub/helpers/hub-harness';
import { spawnHub } from '../../hub/helpers/hub-process';
import { percentile, round } from '../bench-stats';

export interface CredFloodFigures {
  /** The counter's sync p95 while the flood runs (target <= 100 ms). */
  credFloodCounterP95Ms: number;
  credFloodCounterP50Ms: number;
  /** The same counter's sync p95 on the quiet Hub just before (the floor of this run). */
  credFloodQuietP95Ms: number;
  /** Flood requests answered while the counter synced. */
  credFloodRequests: number;
  credFloodConnections: number;
}

const FLOODER = '203.0.113.66';
const status = (queueLength = 0) => ({
  appVersion: '0.1.0',
  profile: 'live',
  sentAt: Date.now(),
  queueLength,
  openPayments: 0,
});
const token = () => randomBytes(32).toString('base64url');

/** `database`: the Hub's database arguments (`--database-url URL` or `--data-dir DIR`). */
export async function credFloodBench(o: {
  database: string[];
  log: (s: string) => void;
  connections?: number;
  syncs?: number;
}): Promise<CredFloodFigures> {
  const connections = o.connections ?? 2000;
  const syncs = o.syncs ?? 200;
  const proc = await spawnHub([...o.database, '--trust-proxy', '127.0.0.1']);
  try {
    const c = await enroll({ url: proc.url }, 'Cred Flood', 'BR-CF');
    let seq = 0;
    const sync = async (): Promise<number> => {
      seq++;
      const t = performance.now();
      const r = await post(
        `${proc.url}/api/v1/sync`,
        {
          events: [
            {
              seq,
              kind: 'order.created',
              at: Date.now(),
              payload: { reference: `CF-${seq}`, amountKobo: 1000, sn: 'SN' },
            },
          ],
          status: status(),
        },
        { ...bearer(c.credential), 'x-forwarded-for': FLOODER },
      );
      if (r.status !== 200) throw new Error(`a counter's sync was refused: ${JSON.stringify(r.json)}`);
      return performance.now() - t;
    };
    // The counter syncs as its pusher does on a busy till: a call each 100 ms (its debounce after an append).
    const paced = async (n: number): Promise<number[]> => {
      const out: number[] = [];
      const s0 = performance.now();
      for (let k = 0; k < n; k++) {
        const due = s0 + k * 100 - performance.now();
        if (due > 0) await new Promise((res) => setTimeout(res, due));
        out.push(await sync());
      }
      return out;
    };
    await paced(20); // warm-up, not counted
    const quiet = await paced(50);

    o.log(
      `cred flood: one address, ${connections} connections of random Bearer tokens and session cookies, through --trust-proxy ...`,
    );
    let flooding = true;
    let flooded = 0;
    let failed = 0;
    let warm = () => undefined as void;
    const warmed = new Promise<void>((resolve) => (warm = resolve));
    const paths = ['/api/v1/me', '/api/v1/programme', '/api/v1/dashboard/today', '/api/v1/dashboard/session'];
    const flood = Promise.all(
      Array.from({ length: connections }, async (_, i) => {
        let k = i;
        while (flooding) {
          const path = paths[k++ % paths.length]!;
          const cred = path.startsWith('/api/v1/dashboard')
            ? { cookie: `${SESSION_COOKIE}=${token()}` }
            : bearer(token());
          try {
            // fetch's pool has no cap per origin: 2,000 loops hold 2,000 connections.
            const r = await fetch(`${proc.url}${path}`, { headers: { ...cred, 'x-forwarded-for': FLOODER } });
            await r.arrayBuffer();
            if (++flooded === connections) warm();
          } catch {
            failed++; // a socket the Hub cut (its header timeout): the flooder opens another
          }
        }
      }),
    );
    await warmed;
    const mark = flooded;
    const lat = await paced(syncs);
    const during = flooded - mark;
    flooding = false;
    await flood;
    o.log(
      `cred flood: ${during} flood requests answered while the counter synced ${syncs} times (${failed} flood connections failed); sync p50 ${round(percentile(lat, 50))} ms, p95 ${round(percentile(lat, 95))} ms; quiet p95 ${round(percentile(quiet, 95))} ms`,
    );
    return {
      credFloodCounterP95Ms: round(percentile(lat, 95)),
      credFloodCounterP50Ms: round(percentile(lat, 50)),
      credFloodQuietP95Ms: round(percentile(quiet, 95)),
      credFloodRequests: during,
      credFloodConnections: connections,
    };
  } finally {
    await proc.kill();
  }
}
