// Issue 36, Medium: head office cannot be locked out by logins from several addresses (and, Low,
// a manager's sessions are capped so logins cannot push counters out of the credential memory). The password
// gate gives each address its share of its places (a newcomer takes a waiting place from the address
// holding the most), its 429s are not failed attempts (only a wrong password whose hash ran is), and
// behind the trusted proxy the address is the client's. Real Hubs (PGlite in memory) over loopback
// HTTP; the flooding addresses are real ones (127.0.0.2-7, each its own socket address) or, behind the
// proxy, named by X-Forwarded-For from 127.0.0.1. Time is the Hub's clock (moved, never waited for).
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createManager, MAX_SESSIONS_PER_MANAGER, passwordGate } from '../../../hub/store/managers';
import { Manager } from '../helpers/dashboard-client';
import { bearer, enroll, get, startTestHub, type TestHub } from '../helpers/hub-harness';

const PW = 'manager password 1';
const HEAD = 'Head Office';

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** A login over HTTP from socket address `local` (a 127.x.y.z of this machine), with extra headers. */
function login(hub: TestHub, local: string, name: string, password: string, headers: Record<string, string> = {}) {
  const url = new URL(`${hub.url}/api/v1/dashboard/login`);
  const body = JSON.stringify({ name, password });
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: local,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Resolves once every place of the password gate is held (running or waiting). */
function gateFull(): Promise<void> {
  const places = passwordGate.max + passwordGate.queue;
  return new Promise((resolve) => {
    const check = () => {
      if (passwordGate.occupied() < places) return;
      passwordGate.off('arrived', check);
      resolve();
    };
    passwordGate.on('arrived', check);
    check();
  });
}

/** Resolves when a login gives its place of the gate back. */
const placeFreed = () => new Promise<void>((resolve) => passwordGate.once('left', () => resolve()));

/**
 * Unknown names with wrong passwords from each `source`, `workers` at a time per source, each sent
 * again as soon as it is answered (after a 429, as soon as a place of the gate is free again, so the
 * flood keeps the gate full without spinning on refusals), until stopped. Returns the answers by status.
 */
function flood(sources: ((name: string) => Promise<Answer>)[], workers = 3) {
  passwordGate.setMaxListeners(sources.length * workers + 10);
  let stopped = false;
  const statuses = new Map<number, number>();
  let n = 0;
  const runs = sources.flatMap((send) =>
    Array.from({ length: workers }, async () => {
      while (!stopped) {
        const freed = placeFreed();
        const a = await send(`nobody ${n++}`);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        if (a.status === 429) await freed;
      }
    }),
  );
  return {
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(runs);
    },
  };
}

const retryAfter = (a: Answer) => (a.json.details as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? null;
const figure = (as: Answer[]) => as.map((a) => (a.status === 429 ? `429 (${retryAfter(a)} ms)` : String(a.status)));

let hub: TestHub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

describe('issue 36: head office logs in during and after a flood of logins from several addresses', () => {
  it("6 addresses (127.0.0.2-7) keep the gate full of unknown names: head office's 10 logins from its own address get in, and 2 s after the flood no 429 is left", async () => {
    // The flooders' own login limit lifted: the worst case is as many logins as the gate takes.
    hub = await startTestHub({ dashboard: { loginsPerMinute: 100_000 } });
    const h = hub;
    await createManager(h.db, { name: HEAD, password: PW, role: 'head-office', branch: null }, Date.now());
    const f = flood(
      [2, 3, 4, 5, 6, 7].map((i) => (name: string) => login(h, `127.0.0.${i}`, name, 'wrong password 1')),
    );
    await gateFull();
    const during: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      await gateFull();
      during.push(await login(h, '127.0.0.10', HEAD, PW));
    }
    await f.stop();
    h.clock.offsetMs += 2000;
    const after = await login(h, '127.0.0.10', HEAD, PW);
    console.info(
      `[issue 36 figures] 6-address flood: head office during ${figure(during).join(', ')}; 2 s after: ${figure([after])}; flood answers ${JSON.stringify([...f.statuses])}`,
    );
    expect(during.map((a) => a.status)).toEqual(Array(MAX_SESSIONS_PER_MANAGER).fill(200));
    expect(after.status).toBe(200);
    // The flood was answered: checked (401) or told to wait for its share (429), never let through.
    expect([...f.statuses.keys()].every((s) => s === 401 || s === 429)).toBe(true);
    // Each of head office's logins waits for at most one check per flooding address: minutes on a busy machine.
  }, 300_000);

  it("behind the trusted proxy the address is the client's: one client flooding through it (its own X-Forwarded-For too) does not lock head office out, nor do 6", async () => {
    hub = await startTestHub({ trustProxy: ['127.0.0.1'], dashboard: { loginsPerMinute: 100_000 } });
    const h = hub;
    await createManager(h.db, { name: HEAD, password: PW, role: 'head-office', branch: null }, Date.now());
    // The proxy appends the address it saw; what the client sent itself stays on the left.
    const viaProxy = (client: string, sent?: string) => ({
      'x-forwarded-for': sent ? `${sent}, ${client}` : client,
    });
    const one = flood(
      [
        (name: string) =>
          login(h, '127.0.0.1', name, 'wrong password 1', viaProxy('203.0.113.66', `10.0.0.${name.length}`)),
      ],
      12,
    );
    const duringOne: Answer[] = [];
    for (let i = 0; i < 4; i++) duringOne.push(await login(h, '127.0.0.1', HEAD, PW, viaProxy('198.51.100.10')));
    await one.stop();
    const six = flood(
      [1, 2, 3, 4, 5, 6].map(
        (i) => (name: string) => login(h, '127.0.0.1', name, 'wrong password 1', viaProxy(`203.0.113.${i}`)),
      ),
    );
    await gateFull();
    const duringSix: Answer[] = [];
    for (let i = 0; i < 2; i++) {
      await gateFull();
      duringSix.push(await login(h, '127.0.0.1', HEAD, PW, viaProxy('198.51.100.10')));
    }
    await six.stop();
    h.clock.offsetMs += 2000;
    const after = await login(h, '127.0.0.1', HEAD, PW, viaProxy('198.51.100.10'));
    console.info(
      `[issue 36 figures] behind the proxy: head office during one client's flood ${figure(duringOne).join(', ')}; during 6 clients' ${figure(duringSix).join(', ')}; 2 s after: ${figure([after])}`,
    );
    expect(duringOne.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(duringSix.map((a) => a.status)).toEqual([200, 200]);
    expect(after.status).toBe(200);
  }, 300_000);
});

describe('issue 36: sessions per manager are capped', () => {
  it(`12 logins of one manager keep the ${MAX_SESSIONS_PER_MANAGER} newest sessions (the oldest end, their live feed told why), so a counter stays in the credential memory`, async () => {
    // The memory of known credentials as small as a counter and a manager's capped sessions.
    hub = await startTestHub({
      dashboard: { loginsPerMinute: 100_000 },
      credentials: { maxEntries: MAX_SESSIONS_PER_MANAGER + 2 },
    });
    const h = hub;
    await createManager(h.db, { name: HEAD, password: PW, role: 'head-office', branch: null }, Date.now());
    const counter = await enroll(h, 'Kept', 'BR-1');
    const browsers: Manager[] = [];
    let firstFeed: Awaited<ReturnType<Manager['live']>> | null = null;
    for (let i = 0; i < 12; i++) {
      const m = new Manager(h.url);
      expect((await m.login(HEAD, PW)).status).toBe(200);
      // Used once: the session is now in the Hub's memory of known credentials.
      expect((await m.get('/session')).status).toBe(200);
      browsers.push(m);
      if (i === 0) firstFeed = await m.live();
    }
    const statuses = [];
    for (const m of browsers) statuses.push((await m.get('/session')).status);
    const ended = 12 - MAX_SESSIONS_PER_MANAGER;
    expect(statuses).toEqual([...Array(ended).fill(401), ...Array(MAX_SESSIONS_PER_MANAGER).fill(200)]);
    const open = await h.db.query<{ n: unknown }>('select count(*) as n from manager_sessions');
    expect(Number(open[0]!.n)).toBe(MAX_SESSIONS_PER_MANAGER);
    // The counter was never pushed out: its call reads no credential from the database.
    const lookups = h.ctx.credentials.lookupsDone;
    expect((await get(`${h.url}/api/v1/me`, bearer(counter.credential))).status).toBe(200);
    expect(h.ctx.credentials.lookupsDone).toBe(lookups);
    await firstFeed!.done;
    expect(firstFeed!.events.at(-1)).toMatchObject({
      event: 'closed',
      data: { reason: expect.stringContaining(`more than ${MAX_SESSIONS_PER_MANAGER} browsers`) },
    });
  }, 300_000);
});
