// Branch names on a real Hub (PGlite in memory, HTTP on loopback): head office names the branches
// its counters joined with; a branch manager reads only their own and names none; a name is
// checked (not empty, not too long, no control characters) and kept as the text typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManager } from '../../../hub/store/managers';
import type { BranchesView } from '../../../shared/hub-branches-contract';
import { Manager } from '../helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../helpers/hub-harness';

const PW = 'manager password 1';

describe('branch names', () => {
  let hub: TestHub;
  let HO: Manager;
  let M1: Manager;

  beforeAll(async () => {
    hub = await startTestHub();
    for (const [name, role, branch] of [
      ['HO', 'head-office', null],
      ['M1', 'branch', 'B1'],
    ] as const) {
      await createManager(hub.db, { name, password: PW, role, branch }, hub.ctx.now());
    }
    await enroll(hub, 'A1', 'B1');
    await enroll(hub, 'Z1', 'B2');
    HO = new Manager(hub.url);
    M1 = new Manager(hub.url);
    expect((await HO.login('HO', PW)).status).toBe(200);
    expect((await M1.login('M1', PW)).status).toBe(200);
  });
  afterAll(() => hub.stop());

  it('lists every branch a counter joined with, unnamed at first', async () => {
    const r = await HO.get('/branches');
    expect(r.status).toBe(200);
    expect((r.json as unknown as BranchesView).branches).toEqual([
      { branch: 'B1', name: null },
      { branch: 'B2', name: null },
    ]);
  });

  it('head office names a branch; the name is kept as typed text (trimmed), markup and all', async () => {
    const r = await HO.put('/branches/B1', { name: '  Ikeja <b>City</b> Mall  ' });
    expect(r.status).toBe(200);
    expect((r.json as unknown as BranchesView).branches).toContainEqual({
      branch: 'B1',
      name: 'Ikeja <b>City</b> Mall',
    });
    expect(((await HO.get('/branches')).json as unknown as BranchesView).branches).toEqual([
      { branch: 'B1', name: 'Ikeja <b>City</b> Mall' },
      { branch: 'B2', name: null },
    ]);
    expect((await HO.put('/branches/B1', { name: 'Ikeja City Mall' })).status).toBe(200);
  });

  it('refuses an empty, overlong or multi-line name, and a branch no counter joined, saying what to fix', async () => {
    for (const name of ['   ', 'x'.repeat(61), 'Ikeja\nLekki']) {
      const r = await HO.put('/branches/B2', { name });
      expect(r.status).toBe(400);
    }
    const r = await HO.put('/branches/NOPE', { name: 'Nowhere' });
    expect(r.status).toBe(404);
    expect(r.text).toContain('No counter has joined branch NOPE');
    expect(
      ((await HO.get('/branches')).json as unknown as BranchesView).branches.find((b) => b.branch === 'B2')!.name,
    ).toBeNull();
  });

  it('a branch manager sees only their own branch and names none', async () => {
    expect(((await M1.get('/branches')).json as unknown as BranchesView).branches).toEqual([
      { branch: 'B1', name: 'Ikeja City Mall' },
    ]);
    for (const b of ['B1', 'B2']) {
      const r = await M1.put(`/branches/${b}`, { name: 'Mine now' });
      expect(r.status).toBe(403);
    }
    expect(((await HO.get('/branches')).json as unknown as BranchesView).branches).toEqual([
      { branch: 'B1', name: 'Ikeja City Mall' },
      { branch: 'B2', name: null },
    ]);
  });

  it('refuses a session-less caller', async () => {
    expect((await new Manager(hub.url).get('/branches')).status).toBe(401);
  });
});
