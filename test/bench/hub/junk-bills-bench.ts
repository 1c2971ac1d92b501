// Junk bills callbacks (issue 26): for a minute, 10 addresses post forged bills callbacks as fast as
// they are answered, bodies near the Hub's limit, half for references nobody could own and half in a
// live counter's code (guessable); the database's growth meanwhile. A Hub process of its own behind
// `--trust-proxy 127.0.0.1`, the addresses told apart by X-Forwarded-For (loopback only), its own
// database (a new one on the bench's PostgreSQL cluster, or a PGlite folder). Then the provider's
// real callback for the counter's top-up, and the counter's sync: it must still be routed to it.
// Alone: `npx tsx test/bench/hub/junk-bills-bench.ts [--seconds N]`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ADMIN_TOKEN, bearer, enroll, get, post } from '../../hub/helpers/hub-harness';
import { spawnHub } from '../../hub/helpers/hub-process';
import { pgUnavailable, startPgCluster } from '../../hub/helpers/pg-cluster';
import { round } from '../bench-stats';

export interface JunkBillsFigures {
  /** The database's growth over the junk (MB). */
  junkBillsDbGrowthMb: number;
  /** Junk callbacks answered 200 (stored or not: the Hub answers every well-formed one), and refused 429 by the per-address limit. */
  junkBillsAccepted: number;
  junkBillsRateLimited: number;
  /** The real callback sent after the junk was routed to its counter at its sync (the delivery log says so). */
  junkBillsRealDelivered: boolean;
}

const ADDRESSES = 10;
const MB = 1024 * 1024;

/** `pad` bytes of random base64 in an unsigned field: a stranger's junk does not compress. */
const billsBody = (merchantOrderNo: string, pad: number) =>
  JSON.stringify({
    payload: {
      orderNo: `BO-${merchantOrderNo}`,
      merchantOrderNo,
      merchantId: 'BILLS-1',
      orderAmount: '100.00',
      serviceType: 'AIRTIME',
      orderStatus: 'SUCCESS',
      note: randomBytes(Math.floor(pad * 0.75)).toString('base64'),
    },
    sha512: 'ab'.repeat(64),
  });

function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}

export async function junkBillsBench(o: {
  databaseUrl: string | null;
  seconds: number;
  log: (s: string) => void;
}): Promise<JunkBillsFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-junk-'));
  const proc = await spawnHub([
    '--trust-proxy',
    '127.0.0.1',
    ...(o.databaseUrl ? ['--database-url', o.databaseUrl] : ['--data-dir', dataDir]),
  ]);
  const size = async (): Promise<number> => {
    if (!o.databaseUrl) return folderBytes(dataDir);
    const c = new Client({ connectionString: o.databaseUrl });
    await c.connect();
    try {
      await c.query('checkpoint').catch(() => undefined);
      return Number((await c.query<{ n: string }>('select pg_database_size(current_database()) as n')).rows[0]!.n);
    } finally {
      await c.end();
    }
  };
  try {
    const counter = await enroll(proc, 'Counter 1', 'BR-JUNK'); // code COU1
    const bills = `${proc.url}/provider/bills-callback`;
    const before = await size();
    o.log(
      `junk bills: ${o.seconds} s of forged callbacks from ${ADDRESSES} addresses (database ${(before / MB).toFixed(1)} MB before) ...`,
    );
    let accepted = 0;
    let limited = 0;
    let n = 0;
    const end = performance.now() + o.seconds * 1000;
    await Promise.all(
      Array.from({ length: ADDRESSES * 2 }, async (_, w) => {
        const from = `10.66.0.${(w % ADDRESSES) + 1}`;
        while (performance.now() < end) {
          const i = n++;
          // Half nobody could own, half in the live counter's code: both near the 8 KiB body limit.
          const ref = i % 2 ? `JUNK-${i}` : `COU1-T251127-${String(1000 + (i % 9000)).padStart(4, '0')}${i}`;
          const r = await fetch(bills, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
            body: billsBody(ref, 7600),
          });
          await r.arrayBuffer();
          if (r.status === 200) accepted++;
          else if (r.status === 429) limited++;
          else throw new Error(`junk bills: answered ${r.status}`);
        }
      }),
    );
    const after = await size();
    // The provider's real callback for the counter's top-up, from its own address, then the counter's sync.
    const real = billsBody('COU1-T251127-0001', 0);
    const sent = await post(bills, real, { 'x-forwarded-for': '10.99.0.1' });
    const synced = await post(
      `${proc.url}/api/v1/sync`,
      {
        status: { appVersion: '0.1.0', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
        events: [
          {
            seq: 1,
            kind: 'topup.submitted',
            at: Date.now(),
            payload: {
              reference: 'COU1-T251127-0001',
              kind: 'airtime',
              amountKobo: 10_000,
              provider: 'MTN',
              customerId: '+2348030000000',
            },
          },
        ],
      },
      bearer(counter.credential),
    );
    // Its delivery log (the admin API): routed to the counter by its sync.
    const found = await get(
      `${proc.url}/api/v1/admin/notifications?orderNo=COU1-T251127-0001&limit=5`,
      bearer(ADMIN_TOKEN),
    );
    const ids = ((found.json.notifications ?? []) as { id: string }[]).map((x) => x.id);
    const logs = await Promise.all(
      ids.map((id) => get(`${proc.url}/api/v1/admin/notifications/${id}/log`, bearer(ADMIN_TOKEN))),
    );
    const routed = logs.some((l) =>
      (l.json.steps as { step: string; counterId: string | null }[]).some(
        (x) => x.step === 'routed' && x.counterId === counter.counterId,
      ),
    );
    const delivered = sent.status === 200 && synced.status === 200 && routed;
    o.log(
      `junk bills: ${accepted} answered 200, ${limited} refused 429; database ${(before / MB).toFixed(1)} -> ${(after / MB).toFixed(1)} MB (load ${loadavg()[0]!.toFixed(2)}); the real callback ${delivered ? 'reached' : 'did NOT reach'} its counter`,
    );
    return {
      junkBillsDbGrowthMb: round((after - before) / MB),
      junkBillsAccepted: accepted,
      junkBillsRateLimited: limited,
      junkBillsRealDelivered: delivered,
    };
  } finally {
    await proc.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const i = process.argv.indexOf('--seconds');
  const seconds = i > 0 ? Number(process.argv[i + 1]) : 60;
  void (async () => {
    const cluster = pgUnavailable ? null : await startPgCluster({ fsync: true });
    try {
      const f = await junkBillsBench({
        databaseUrl: cluster?.createDatabase('junk') ?? null,
        seconds,
        log: (s) => process.stderr.write(`bench:hub  ${s}\n`),
      });
      process.stdout.write(`${cluster ? 'PostgreSQL' : 'PGlite'}: ${JSON.stringify(f)}\n`);
    } finally {
      cluster?.stop();
    }
  })();
}
