// What a credential costs its address, exactly (issue 36: a mutation probe showed these went
// untested). A right credential not known in memory gets its lookup back, however many there are; a
// wrong one keeps its lookup and costs the request plus exactly 4 more of the address's anonymous
// bucket. Real Hubs (PGlite in memory) over loopback HTTP. The address's buckets are set so that they
// do not refill during the test (a tenth of a token a day): the counts do not depend on time.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyedTokenBuckets } from '../../../shared/token-bucket';
import { sha256 } from '../../../hub/store/tokens';
import { bearer, enroll, get, startTestHub, type TestHub } from '../helpers/hub-harness';

const wrongToken = () => bearer(randomBytes(32).toString('base64url'));
const NO_REFILL_PER_MINUTE = 1e-4;

let hub: TestHub | null = null;
afterEach(async () => {
  await hub?.stop();
  hub = null;
});

describe('issue 36: the charges of credential lookups', () => {
  it('a right credential gives its lookup back: 6 lookups of right ones from an address with one lookup in hand are all answered; a wrong one then keeps it', async () => {
    // One lookup in hand (bursts of a third of 3 a minute), one more every 20 s.
    hub = await startTestHub({ credentials: { lookupsPerMinute: 3 } });
    const h = hub;
    const c = await enroll(h, 'Right', 'BR-1');
    const me = (headers: Record<string, string>) => get(`${h.url}/api/v1/me`, headers);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      // Not in memory (as after a restart under a flood, or pushed out): each call is a lookup.
      h.ctx.credentials.forget(sha256(c.credential));
      answers.push((await me(bearer(c.credential))).status);
    }
    expect(answers).toEqual(Array(6).fill(200));
    expect(h.ctx.credentials.lookupsDone).toBe(6);
    // A wrong one takes the lookup in hand and keeps it: the next unknown credential waits.
    expect((await me(wrongToken())).status).toBe(401);
    const refused = await me(wrongToken());
    expect([refused.status, refused.json.code]).toEqual([429, 'HUB_RATE_LIMITED']);
    expect(String(refused.json.message)).toContain('Too many unknown credentials from this address');
    expect(h.ctx.credentials.lookupsDone).toBe(7);
  });

  it("a wrong credential costs the request and exactly 4 more of its address's bucket", async () => {
    hub = await startTestHub();
    const h = hub;
    // The address's anonymous bucket: 12 requests, no refill during the test.
    (h.ctx as { perAddress: KeyedTokenBuckets }).perAddress = new KeyedTokenBuckets({
      perMinute: NO_REFILL_PER_MINUTE,
      burst: 12,
    });
    const me = (headers: Record<string, string> = {}) => get(`${h.url}/api/v1/me`, headers);
    // Two wrong credentials: 2 × (1 + 4) = 10 of the 12.
    expect((await me(wrongToken())).status).toBe(401);
    expect((await me(wrongToken())).status).toBe(401);
    // What is left is exactly 2 requests without a credential (1 each).
    const rest: number[] = [];
    for (let i = 0; i < 3; i++) rest.push((await me()).status);
    expect(rest).toEqual([401, 401, 429]);
  });
});
