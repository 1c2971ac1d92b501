// Issue 26, Low: one address cannot take head office's turn to log in; live streams are capped per
// manager; numbers too large for the Hub's columns are a 400 that says so; the audit log has failed
// logins, enrollment codes issued and the first-start setup. Real Hubs (PGlite in memory) over
// loopback HTTP; a reverse proxy is played by sending X-Forwarded-For from loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INT32_MAX } from '../../../shared/hub-contract';
import type { AuditEntry } from '../../../shared/hub-dashboard-contract';
import { createManager, issueSetupToken, passwordGate } from '../../../hub/store/managers';
import { Manager } from '../helpers/dashboard-client';
import { ADMIN_TOKEN, bearer, enroll, post, startTestHub, type TestHub } from '../helpers/hub-harness';

const PW = 'manager password 1';
const fwd = (ip: string) => ({ 'x-forwarded-for': ip });

describe('Low: logins get fair shares per address', () => {
  it("one address's wrong-password logins, within its own limit, cannot make head office's right password get 429", async () => {
    const hub = await startTestHub({ trustProxy: ['127.0.0.1'] });
    try {
      await createManager(hub.db, { name: 'Head Office', password: PW, role: 'head-office', branch: null }, Date.now());
      const guesser = '203.0.113.50';
      // 12 at once: the address's whole login burst (60 a minute, bursts of 12), each a different name.
      let arrived = 0;
      let allArrived = () => undefined as void;
      const inPlace = new Promise<void>((resolve) => (allArrived = resolve));
      const onArrived = (from: string) => from === guesser && ++arrived === 12 && allArrived();
      passwordGate.on('arrived', onArrived);
      const guesses = Array.from({ length: 12 }, (_, i) =>
        post(`${hub.url}/api/v1/dashboard/login`, { name: `guess ${i}`, password: 'wrong password 1' }, fwd(guesser)),
      );
      await inPlace;
      passwordGate.off('arrived', onArrived);
      // While the guesses are checked or waiting, head office logs in four times from its own address.
      const head: number[] = [];
      for (let i = 0; i < 4; i++)
        head.push(
          (await post(`${hub.url}/api/v1/dashboard/login`, { name: 'Head Office', password: PW }, fwd('198.51.100.10')))
            .status,
        );
      expect(head).toEqual([200, 200, 200, 200]);
      const answers = await Promise.all(guesses);
      // The guesser's own share: at most 2 checked at once; the rest told to wait for them.
      expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(2);
      expect(
        answers.filter((a) => a.status === 429).every((a) => String(a.json.message).includes('from this address')),
      ).toBe(true);
    } finally {
      await hub.stop();
    }
  });
});

describe('Low: live dashboard streams are capped per manager, not per session', () => {
  it('twelve logins of one manager, a stream each: at most 8 stay open, the oldest told why; another manager is not touched', async () => {
    const hub = await startTestHub({ dashboard: { loginsPerMinute: 100_000 } });
    try {
      await createManager(hub.db, { name: 'Many Tabs', password: PW, role: 'head-office', branch: null }, Date.now());
      await createManager(
        hub.db,
        { name: 'Someone Else', password: PW, role: 'head-office', branch: null },
        Date.now(),
      );
      const other = new Manager(hub.url);
      expect((await other.login('Someone Else', PW)).status).toBe(200);
      const theirs = await other.live();
      const streams = [];
      for (let i = 0; i < 12; i++) {
        const m = new Manager(hub.url);
        expect((await m.login('Many Tabs', PW)).status).toBe(200);
        streams.push(await m.live());
      }
      expect(streams.map((s) => s.res.status)).toEqual(Array(12).fill(200));
      for (const s of streams.slice(0, 4)) await s.done;
      for (const s of streams.slice(0, 4))
        expect(s.events.at(-1)).toMatchObject({
          event: 'closed',
          data: { reason: expect.stringContaining('at most 8') },
        });
      for (const s of [...streams.slice(4), theirs]) expect(s.events.some((e) => e.event === 'closed')).toBe(false);
      expect(hub.ctx.dashboard.live.count()).toBe(9);
      for (const s of [...streams, theirs]) s.close();
    } finally {
      await hub.stop();
    }
  });
});

describe('Low: a number too large for the Hub is a 400 that names the field, not a 500', () => {
  let hub: TestHub;
  let cred: string;
  beforeAll(async () => {
    hub = await startTestHub();
    cred = (await enroll(hub, 'Big Numbers', 'BR-N')).credential;
  });
  afterAll(() => hub.stop());
  const status = (o: Record<string, unknown> = {}) => ({
    appVersion: '0.1.0',
    profile: 'production',
    sentAt: Date.now(),
    queueLength: 0,
    openPayments: 0,
    ...o,
  });
  const sync = (events: unknown[], st = status()) =>
    post(`${hub.url}/api/v1/sync`, { status: st, events }, bearer(cred));
  const sale = (tickets: number) => ({
    filmName: 'F',
    filmTitle: 'T',
    showDate: '2026-11-27',
    showTime: '19:30',
    seats: 'A1',
    tickets,
    priceKobo: 100,
    bookingFeeKobo: 0,
  });
  const zreport = (reportNo: number, count = 1) => ({
    reportNo,
    from: Date.now() - 1000,
    to: Date.now(),
    totalKobo: 100,
    count,
    lines: [],
  });

  it.each([
    ['status.queueLength', () => sync([], status({ queueLength: 2 ** 31 }))],
    ['status.openPayments', () => sync([], status({ openPayments: 2 ** 40 }))],
    [
      'events.0.payload.sale.tickets',
      () =>
        sync([
          {
            seq: 1,
            kind: 'order.created',
            at: Date.now(),
            payload: { reference: 'COU1-N1', amountKobo: 100, sn: 'SN', sale: sale(2 ** 31) },
          },
        ]),
    ],
    ['events.0.payload.reportNo', () => sync([{ seq: 1, kind: 'zreport', at: Date.now(), payload: zreport(2 ** 31) }])],
    ['events.0.payload.count', () => sync([{ seq: 1, kind: 'zreport', at: Date.now(), payload: zreport(1, 9e15) }])],
  ])('%s', async (field, send) => {
    const r = await send();
    expect([r.status, r.json.code]).toEqual([400, 'HUB_BAD_REQUEST']);
    expect(String(r.json.message)).toContain(`${field}: too large: at most 2,147,483,647`);
  });

  it('the largest that fits is stored', async () => {
    const r = await sync(
      [
        {
          seq: 1,
          kind: 'order.created',
          at: Date.now(),
          payload: { reference: 'COU1-N2', amountKobo: 100, sn: 'SN', sale: sale(INT32_MAX) },
        },
        { seq: 2, kind: 'zreport', at: Date.now(), payload: zreport(INT32_MAX, INT32_MAX) },
      ],
      status({ queueLength: INT32_MAX, openPayments: INT32_MAX }),
    );
    expect(r.status).toBe(200);
  });
});

describe('Low: the audit log has failed logins, enrollment codes issued and the first-start setup', () => {
  it('each is an entry with who (or the name tried), from where, and what', async () => {
    const hub = await startTestHub({ trustProxy: ['127.0.0.1'] });
    try {
      const setup = await issueSetupToken(hub.db, Date.now());
      const head = new Manager(hub.url);
      const first = await head.req(
        'POST',
        '/api/v1/dashboard/setup',
        { token: setup!.token, name: 'First Head', password: PW },
        fwd('198.51.100.1'),
      );
      expect(first.status).toBe(200);
      head.csrf = String(first.json.csrfToken);
      await createManager(hub.db, { name: 'Gone', password: PW, role: 'head-office', branch: null }, Date.now());
      const gone = (await head.get('/managers')).json.managers as { id: string; name: string }[];
      expect((await head.post(`/managers/${gone.find((m) => m.name === 'Gone')!.id}/disable`)).status).toBe(200);
      expect(
        (
          await post(
            `${hub.url}/api/v1/dashboard/login`,
            { name: 'First Head', password: 'wrong password 1' },
            fwd('203.0.113.7'),
          )
        ).status,
      ).toBe(401);
      expect(
        (
          await post(
            `${hub.url}/api/v1/dashboard/login`,
            { name: 'No Such Name', password: 'wrong password 1' },
            fwd('203.0.113.8'),
          )
        ).status,
      ).toBe(401);
      expect(
        (await post(`${hub.url}/api/v1/dashboard/login`, { name: 'Gone', password: PW }, fwd('203.0.113.9'))).status,
      ).toBe(403);
      expect((await head.post('/counters/enroll-codes', { ttlMinutes: 30, branch: 'BR-A' })).status).toBe(200);
      expect(
        (
          await post(
            `${hub.url}/api/v1/admin/enroll-codes`,
            { ttlMinutes: 45, branch: 'BR-B' },
            { ...bearer(ADMIN_TOKEN), ...fwd('192.0.2.5') },
          )
        ).status,
      ).toBe(200);
      const entries = ((await head.get('/audit')).json.entries as AuditEntry[])
        .map((e) => [e.action, e.actorName, e.target, e.address, e.detail])
        .reverse();
      expect(entries).toEqual([
        ['setup', 'First Head', 'First Head', '198.51.100.1', null],
        // The setup link signs the first manager in: their first login (Managers shows it).
        ['login', 'First Head', null, '198.51.100.1', 'with the setup link'],
        ['manager.disabled', 'First Head', 'Gone', '127.0.0.1', null],
        ['login.failed', 'First Head', null, '203.0.113.7', 'wrong name or password'],
        ['login.failed', 'No Such Name', null, '203.0.113.8', 'wrong name or password'],
        ['login.failed', 'Gone', null, '203.0.113.9', 'the account is disabled'],
        ['counter.code-issued', 'First Head', 'BR-A', '127.0.0.1', 'valid 30 minutes'],
        ['counter.code-issued', 'Admin API', 'BR-B', '192.0.2.5', 'valid 45 minutes'],
      ]);
    } finally {
      await hub.stop();
    }
  });
});
