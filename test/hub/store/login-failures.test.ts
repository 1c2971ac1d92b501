// A failed login counts only after its password hash ran (issue 36): a login the password gate
// refuses (every place held) is not a failed attempt — neither the account's count nor the address's
// wait grows — so a flood of other logins cannot lengthen head office's wait. Then a wrong password
// counts once, a right one forgives. On PGlite and on real PostgreSQL (the account's count is SQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubDb } from '../../../hub/db/adapter';
import { openHubDb } from '../../../hub/db/open';
import { checkLogin, loginFailures } from '../../../hub/store/login-throttle';
import { createManager, passwordGate } from '../../../hub/store/managers';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster';

const PW = 'manager password 1';
const HO = '198.51.100.10';

if (pgUnavailable) console.log(`login failures on real PostgreSQL skipped: ${pgUnavailable}`);

/** Holds every place of the gate, one per address (so no newcomer can take one), until released. */
function fillGate() {
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const places = passwordGate.max + passwordGate.queue;
  const runs = Array.from({ length: places }, (_, i) =>
    passwordGate.run(() => held, `203.0.113.${i + 1}`).catch(() => undefined),
  );
  expect(passwordGate.occupied()).toBe(places);
  return async () => {
    release();
    await Promise.all(runs);
  };
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { status?: number; code?: string }) => `${e.status} ${e.code}`,
  );

function failuresSuite(name: string, open: () => Promise<HubDb>) {
  describe(name, () => {
    let db: HubDb;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(() => db?.close());

    it('10 logins refused by a full gate count for nothing; then one wrong password counts once and the right one gets in', async () => {
      const m = await createManager(db, { name: 'Head', password: PW, role: 'head-office', branch: null }, Date.now());
      const now = Date.now();
      const done = fillGate();
      const refused: string[] = [];
      for (let i = 0; i < 10; i++) refused.push(await outcome(checkLogin(db, 'Head', PW, now, undefined, HO)));
      for (let i = 0; i < 10; i++)
        refused.push(await outcome(checkLogin(db, 'Nobody Here', 'wrong password 1', now, undefined, HO)));
      await done();
      expect(refused).toEqual(Array(20).fill('429 HUB_RATE_LIMITED'));
      expect(await loginFailures(db, m.id)).toEqual({ failures: 0, lockedUntil: 0 });
      // Nothing left to wait: the right password gets in at once, from the same address.
      expect(await outcome(checkLogin(db, 'Head', 'wrong password 2', now, undefined, HO))).toBe(
        '401 HUB_LOGIN_FAILED',
      );
      expect((await loginFailures(db, m.id)).failures).toBe(1);
      expect(await outcome(checkLogin(db, 'Head', PW, now, undefined, HO))).toBe('ok');
      expect(await loginFailures(db, m.id)).toEqual({ failures: 0, lockedUntil: 0 });
    });
  });
}

failuresSuite('login failures on PGlite', () => openHubDb({ dataDir: null }));

describe.skipIf(!!pgUnavailable)('real PostgreSQL', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());
  failuresSuite('login failures on real PostgreSQL', () =>
    openHubDb({ databaseUrl: cluster.createDatabase('login_failures'), dataDir: null }),
  );
});
