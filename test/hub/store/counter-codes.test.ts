// Counter codes are unique among a Hub's live counters (real HTTP, PGlite): "Counter 1" in a second
// branch would make the same sale numbers and top-up references (COU1-…) as the first, so its orders
// would not be its own and their notifications would go to the other branch. Enrollment refuses it
// and says what to fix; a revoked counter's code is free again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBranchName } from '../../../hub/store/branches';
import { suggestName } from '../../../hub/store/counter-codes';
import { ADMIN_TOKEN, bearer, enroll, issueCode, post, startTestHub, type TestHub } from '../helpers/hub-harness';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub({ rateLimits: { perCredential: 600, perAddress: 100_000 } });
});
afterAll(async () => hub?.stop());

const enrollWith = (code: string, counterName: string, branch: string) =>
  post(`${hub.url}/api/v1/enroll`, { code, counterName, branch, appVersion: '0.1.0' });
const revoke = (id: string) => post(`${hub.url}/api/v1/admin/counters/${id}/revoke`, {}, bearer(ADMIN_TOKEN));

describe('a counter code is taken by one live counter', () => {
  it('"Counter 1" of a second branch is refused with what to fix; the code it brought stays good', async () => {
    const first = await enroll(hub, 'Counter 1', 'BR-A');
    await setBranchName(hub.db, 'BR-A', 'Ikeja Mall', 'test', Date.now());
    await setBranchName(hub.db, 'BR-B', 'Lekki', 'test', Date.now());
    const code = await issueCode(hub, 60, 'BR-B');
    const refused = await enrollWith(code, 'Counter 1', 'BR-B');
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('HUB_COUNTER_CODE_TAKEN');
    expect(refused.json.message).toBe(
      'The code COU1 is taken by "Counter 1" (branch Ikeja Mall, BR-A): choose a name that gives another code, e.g. "Lekki Counter 1" (code LC1), or revoke the old counter on the Counters screen first.',
    );
    expect(refused.json.details).toMatchObject({
      counterCode: 'COU1',
      takenBy: { name: 'Counter 1', branch: 'BR-A' },
      suggestion: 'Lekki Counter 1',
    });
    // Another spelling of the same code is the same code.
    expect((await enrollWith(code, 'COUNTER-1', 'BR-B')).json.code).toBe('HUB_COUNTER_CODE_TAKEN');
    // Nothing was written: the code was not used up, and the suggested name enrolls with it.
    const ok = await enrollWith(code, 'Lekki Counter 1', 'BR-B');
    expect(ok.status).toBe(200);
    expect(first.counterId).not.toBe(ok.json.counterId);
  });

  it('the same name enrolled again in its own branch is refused while the old counter is live, and enrolls once it is revoked', async () => {
    const old = await enroll(hub, 'Box Office 3', 'BR-C');
    const code = await issueCode(hub, 60, 'BR-C');
    const again = await enrollWith(code, 'Box Office 3', 'BR-C');
    expect(again.status).toBe(409);
    expect(again.json.message).toContain('The code BO3 is taken by "Box Office 3" (branch BR-C)');
    expect((await revoke(old.counterId)).status).toBe(200);
    const back = await enrollWith(code, 'Box Office 3', 'BR-C');
    expect(back.status).toBe(200);
    // Revoked counters never block: revoke the new one too, and the name enrolls a third time.
    expect((await revoke(String(back.json.counterId))).status).toBe(200);
    expect((await enrollWith(await issueCode(hub, 60, 'BR-C'), 'Box Office 3', 'BR-C')).status).toBe(200);
  });

  it('after the first branch revokes its counter, the second branch enrolls one of the same name', async () => {
    const a = await enroll(hub, 'Screen Desk 7', 'BR-A');
    const code = await issueCode(hub, 60, 'BR-B');
    expect((await enrollWith(code, 'Screen Desk 7', 'BR-B')).status).toBe(409);
    await revoke(a.counterId);
    expect((await enrollWith(code, 'Screen Desk 7', 'BR-B')).status).toBe(200);
  });

  it('two counters racing to enroll one code each with the same name: one wins, the other is refused', async () => {
    const [c1, c2] = [await issueCode(hub, 60, 'BR-D'), await issueCode(hub, 60, 'BR-E')];
    const answers = await Promise.all([enrollWith(c1, 'Kiosk 4', 'BR-D'), enrollWith(c2, 'Kiosk 4', 'BR-E')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });
});

describe('the suggested name', () => {
  it('puts the branch name first when that gives a free code, else takes the next free number', () => {
    expect(suggestName('Counter 1', 'Ikeja City Mall', new Set(['COU1']))).toBe('Ikeja Counter 1');
    expect(suggestName('Counter 1', null, new Set(['COU1', 'COU2']))).toBe('Counter 3');
    expect(suggestName('Counter 1', 'Ikeja', new Set(['COU1', 'IC1']))).toBe('Counter 2');
    expect(suggestName('Box Office', null, new Set(['BO']))).toBe('Box Office 2');
  });
});
