// Head office disables, enables, removes and resets the password of a manager; a manager changes
// their own password; each ends the sessions it must (live feeds too) and is written to the audit
// log. Real Hub (PGlite in memory, HTTP on loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManager } from '../../../hub/store/managers';
import { sha256 } from '../../../hub/store/tokens';
import type {
  AuditEntry,
  ManagerRosterEntry,
  ManagerSession,
  ManagerView,
} from '../../../shared/hub-dashboard-contract';
import { lagosDate } from '../../../shared/time';
import { Manager } from '../helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../helpers/hub-harness';

const PW = 'correct horse battery';
const NEW_PW = 'a brand new password';

describe('head office manages manager accounts', () => {
  let hub: TestHub;
  let head: Manager;
  let headView: ManagerView;
  const make = (name: string, role: 'branch' | 'head-office' = 'branch') =>
    createManager(hub.db, { name, password: PW, role, branch: role === 'branch' ? 'B1' : null }, Date.now());
  const loggedIn = async (name: string, password = PW) => {
    const m = new Manager(hub.url);
    expect((await m.login(name, password)).status).toBe(200);
    return m;
  };
  const audit = async () => (await head.get('/audit')).json.entries as AuditEntry[];

  beforeAll(async () => {
    hub = await startTestHub({ dashboard: { loginsPerMinute: 100_000 } });
    headView = await make('Head Office', 'head-office');
    head = await loggedIn('Head Office');
  });
  afterAll(async () => hub?.stop());

  it('a disabled manager: their open session answers 401 at once, their live feed closes, their login is refused with a clear message; enabled again, they log in', async () => {
    const ada = await make('Ada Branch');
    const m = await loggedIn('Ada Branch');
    const feed = await m.live();
    expect((await m.get('/session')).status).toBe(200);

    const r = await head.post(`/managers/${ada.id}/disable`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ disabled: ada.id, sessionsEnded: 1 });
    expect((await m.get('/session')).status).toBe(401);
    await feed.done; // the Hub ended the stream
    expect(feed.events.at(-1)).toMatchObject({
      event: 'closed',
      data: { reason: expect.stringContaining('disabled') },
    });

    const again = await new Manager(hub.url).login('Ada Branch', PW);
    expect(again.status).toBe(403);
    expect(again.text).toContain('disabled');
    // A wrong password still says only "wrong": the account's state is told only to whoever knows the password.
    expect((await new Manager(hub.url).login('Ada Branch', 'not the password')).text).not.toContain('disabled');
    expect(((await head.get('/managers')).json.managers as ManagerView[]).find((x) => x.id === ada.id)).toMatchObject({
      disabled: true,
    });

    expect((await head.post(`/managers/${ada.id}/enable`)).status).toBe(200);
    await loggedIn('Ada Branch');
  });

  it('a removed manager: sessions end, login is refused as for an unknown name, the list no longer shows them, the audit log still names them', async () => {
    const bo = await make('Bo Branch');
    const m = await loggedIn('Bo Branch');
    const r = await head.post(`/managers/${bo.id}/remove`);
    expect(r.json).toMatchObject({ removed: bo.id, sessionsEnded: 1 });
    expect((await m.get('/session')).status).toBe(401);
    expect((await new Manager(hub.url).login('Bo Branch', PW)).status).toBe(401);
    expect(((await head.get('/managers')).json.managers as ManagerView[]).map((x) => x.id)).not.toContain(bo.id);
    expect((await head.post(`/managers/${bo.id}/remove`)).status).toBe(404);
    expect((await audit()).find((e) => e.action === 'manager.removed')).toMatchObject({
      actorName: 'Head Office',
      target: 'Bo Branch',
    });
    // The name is free for a new account.
    await make('Bo Branch');
  });

  it('a password reset by head office ends every session of that manager; the new password works, the old one no longer', async () => {
    const cy = await make('Cy Branch');
    const a = await loggedIn('Cy Branch');
    const b = await loggedIn('Cy Branch');
    const r = await head.post(`/managers/${cy.id}/reset-password`, { password: NEW_PW });
    expect(r.json).toMatchObject({ sessionsEnded: 2 });
    expect((await a.get('/session')).status).toBe(401);
    expect((await b.get('/session')).status).toBe(401);
    expect((await new Manager(hub.url).login('Cy Branch', PW)).status).toBe(401);
    await loggedIn('Cy Branch', NEW_PW);
    expect((await head.post(`/managers/${cy.id}/reset-password`, { password: 'short' })).status).toBe(400);
  });

  it('a manager changes their own password only with the current one; their other sessions end, this one stays', async () => {
    await make('Di Branch');
    const here = await loggedIn('Di Branch');
    const there = await loggedIn('Di Branch');
    const wrong = await here.post('/password', { current: 'not my password', password: NEW_PW });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('current password');
    expect((await there.get('/session')).status).toBe(200);

    const ok = await here.post('/password', { current: PW, password: NEW_PW });
    expect(ok.json).toMatchObject({ changed: true, sessionsEnded: 1 });
    expect((await here.get('/session')).status).toBe(200);
    expect((await there.get('/session')).status).toBe(401);
    await loggedIn('Di Branch', NEW_PW);
    // Without the CSRF token, refused.
    expect((await here.post('/password', { current: NEW_PW, password: PW }, { 'x-csrf-token': 'nope' })).status).toBe(
      403,
    );
  });

  it('a branch manager cannot do head-office actions (403); head office cannot disable or remove themselves', async () => {
    const ed = await make('Ed Branch');
    const m = await loggedIn('Ed Branch');
    for (const path of [
      `/managers/${headView.id}/disable`,
      `/managers/${ed.id}/enable`,
      `/managers/${headView.id}/remove`,
    ]) {
      expect((await m.post(path)).status).toBe(403);
    }
    expect((await m.post(`/managers/${headView.id}/reset-password`, { password: NEW_PW })).status).toBe(403);
    expect((await m.get('/audit')).status).toBe(403);
    expect((await m.get('/session')).status).toBe(200);

    const self = await head.post(`/managers/${headView.id}/disable`);
    expect(self.status).toBe(400);
    expect(self.text).toContain('your own account');
    expect((await head.post(`/managers/${headView.id}/remove`)).status).toBe(400);
    expect((await head.get('/session')).status).toBe(200);
    expect((await head.post('/managers/mgr_000000000000/disable')).status).toBe(404);
  });

  it("head office lists managers with their last login and open sessions, lists one manager's sessions and ends one or all (live feeds too); never its own by ref", async () => {
    const fe = await make('Fe Branch');
    const roster = async () =>
      ((await head.get('/managers')).json.managers as ManagerRosterEntry[]).find((x) => x.id === fe.id)!;
    expect(await roster()).toMatchObject({
      name: 'Fe Branch',
      branch: 'B1',
      disabled: false,
      lastLoginAt: null,
      lastLoginAddress: null,
      sessions: 0,
    });
    const before = Date.now();
    const a = await loggedIn('Fe Branch');
    const b = await loggedIn('Fe Branch');
    const feedB = await b.live();
    const r = await roster();
    expect(r.sessions).toBe(2);
    expect(r.lastLoginAt).toBeGreaterThanOrEqual(before);
    expect(r.lastLoginAddress).toMatch(/127\.0\.0\.1/);

    const list = async () => (await head.get(`/managers/${fe.id}/sessions`)).json.sessions as ManagerSession[];
    const sessions = await list();
    expect(sessions).toHaveLength(2);
    expect(sessions.every((x) => /^[0-9a-f]{16}$/.test(x.ref) && !x.current && x.expiresAt > x.createdAt)).toBe(true);
    // b's session (its ref is the start of the SHA-256 of b's cookie): ending it ends b's live feed at once, a keeps working.
    const bRef = sha256(b.cookie!).slice(0, 16);
    expect(sessions.map((x) => x.ref)).toContain(bRef);
    const one = await head.post(`/managers/${fe.id}/sessions/end`, { ref: bRef });
    expect(one.json).toMatchObject({ sessionsEnded: 1 });
    await feedB.done;
    expect(feedB.events.at(-1)).toMatchObject({
      event: 'closed',
      data: { reason: expect.stringContaining('ended this session') },
    });
    expect((await b.get('/session')).status).toBe(401);
    expect((await a.get('/session')).status).toBe(200);
    expect((await head.post(`/managers/${fe.id}/sessions/end`, { ref: bRef })).status).toBe(404);
    expect((await head.post(`/managers/${fe.id}/sessions/end`, { ref: 'not a ref' })).status).toBe(400);

    const all = await head.post(`/managers/${fe.id}/sessions/end`, {});
    expect(all.json).toMatchObject({ sessionsEnded: 1 });
    expect((await a.get('/session')).status).toBe(401);
    expect(await list()).toEqual([]);
    expect((await audit()).find((e) => e.action === 'manager.sessions-ended')).toMatchObject({
      actorName: 'Head Office',
      target: 'Fe Branch',
      detail: '1 session',
    });

    // Head office's own list marks the session in use; it cannot end it by ref (Log out does that).
    const mine = (await head.get(`/managers/${headView.id}/sessions`)).json.sessions as ManagerSession[];
    const current = mine.find((x) => x.current)!;
    expect(current).toBeDefined();
    const self = await head.post(`/managers/${headView.id}/sessions/end`, { ref: current.ref });
    expect(self.status).toBe(400);
    expect(self.text).toContain('Log out');
    expect((await head.get('/session')).status).toBe(200);
    // A branch manager may do none of it.
    const fm = await loggedIn('Fe Branch');
    expect((await fm.get(`/managers/${fe.id}/sessions`)).status).toBe(403);
    expect((await fm.post(`/managers/${fe.id}/sessions/end`, {})).status).toBe(403);
    expect((await fm.get('/managers')).status).toBe(403);
  });

  it('the audit log names who did what to whom, and who logged in from which address, newest first', async () => {
    const counter = await enroll(hub, 'Till 1', 'B1');
    expect((await head.post(`/counters/${counter.counterId}/revoke`)).status).toBe(200);
    const ed = await loggedIn('Ed Branch');
    const csv = [
      'film,title,rating,screen,date,time,ticketType,price,bookingFee',
      `Dune 2,DUNE: PART TWO,12A,Screen 1,${lagosDate(Date.now())},19:30,Adult,4600,200`,
    ].join('\r\n');
    expect((await ed.post('/programme/import', { csv, fileName: 'week.csv' })).json).toMatchObject({ imported: true });
    const entries = await audit();
    const actions = entries.map((e) => e.action);
    expect(entries.find((e) => e.action === 'counter.revoked')).toMatchObject({
      actorName: 'Head Office',
      target: counter.counterId,
    });
    expect(entries.find((e) => e.action === 'programme.imported')).toMatchObject({
      actorName: 'Ed Branch',
      target: 'B1',
      detail: expect.stringContaining('week.csv'),
    });
    for (const a of [
      'login',
      'manager.disabled',
      'manager.enabled',
      'manager.removed',
      'manager.password-reset',
      'manager.password-changed',
    ] as const)
      expect(actions).toContain(a);
    expect(entries.find((e) => e.action === 'manager.disabled')).toMatchObject({
      actorId: headView.id,
      actorName: 'Head Office',
      target: 'Ada Branch',
      address: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(entries.find((e) => e.action === 'login' && e.actorName === 'Di Branch')).toMatchObject({
      address: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    // Refused actions write nothing.
    expect(entries.filter((e) => e.target === 'Head Office' && e.action !== 'login')).toEqual([]);
    const page = (await head.get(`/audit?limit=2&before=${entries[0]!.id}`)).json.entries as AuditEntry[];
    expect(page.map((e) => e.id)).toEqual(entries.slice(1, 3).map((e) => e.id));
  });
});
