// The counter's side of a manager's approval code against a real Hub (PGlite in memory, HTTP on
// loopback) with the real Hub client: `hubApprovalCodes` redeems a code issued on the dashboard once
// (the manager's name back), says the Hub's words when the code is used or of another branch (an
// AppError the engine passes to the cashier), and names the admin PIN when the Hub cannot be reached;
// without a Hub there are no codes (null).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubClient, hubApprovalCodes, type HubConnection } from '../../../core/hub-link';
import { createManager } from '../../../hub/store/managers';
import type { IssuedApprovalCode } from '../../../shared/hub-refunds-contract';
import { Manager } from '../../hub/helpers/dashboard-client';
import { enroll, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';
import { freePort } from '../../hub/helpers/pg-cluster';

const what = { kind: 'cancel' as const, reference: 'COU1-261207-0004', amountKobo: 450_000, cashier: 'Ada' };

describe('approval codes through the Hub, from the counter', () => {
  let hub: TestHub;
  const conn: Record<string, HubConnection> = {};
  const client = createHubClient();
  let m: Manager;
  const codes = (who: string) => hubApprovalCodes({ connection: () => conn[who]!, client })!;
  const issue = async () => (await m.post('/approval-codes', {})).json as unknown as IssuedApprovalCode;

  beforeAll(async () => {
    hub = await startTestHub();
    await createManager(
      hub.db,
      { name: 'Bisi', password: 'manager password 1', role: 'branch', branch: 'B1' },
      hub.ctx.now(),
    );
    m = new Manager(hub.url);
    expect((await m.login('Bisi', 'manager password 1')).status).toBe(200);
    for (const [k, name, branch] of [
      ['c1', 'Counter 1', 'B1'],
      ['z1', 'Zed 1', 'B2'],
    ] as const) {
      const e = await enroll(hub, name, branch);
      conn[k] = { url: hub.url, counterId: e.counterId, credential: e.credential, branch: e.branch };
    }
  });
  afterAll(() => hub.stop());

  it('redeems once: the manager who issued it; the second use is refused in the Hub words', async () => {
    const c = await issue();
    expect(await codes('c1').redeem(c.code, what)).toEqual({ by: 'Bisi' });
    await expect(codes('c1').redeem(c.code, what)).rejects.toMatchObject({
      name: 'AppError',
      code: 'HUB_REFUSED',
      message: expect.stringContaining('already used'),
      details: { reason: 'used' },
    });
    // The Hub's audit says what it was for.
    const rows = await hub.db.query<{ detail: string }>(
      "select detail from manager_audit where action = 'approval.redeemed'",
    );
    expect(rows.map((r) => r.detail)).toEqual([
      expect.stringContaining('cancel COU1-261207-0004, ₦4,500.00, asked by Ada'),
    ]);
  });

  it("another branch's counter is refused", async () => {
    const c = await issue();
    await expect(codes('z1').redeem(c.code, what)).rejects.toMatchObject({ details: { reason: 'other-branch' } });
  });

  it('no Hub: no codes; a Hub gone: the cashier is told to use the admin PIN', async () => {
    expect(hubApprovalCodes({ connection: () => null, client })).toBeNull();
    const gone = { ...conn.c1!, url: `http://127.0.0.1:${await freePort()}` };
    await expect(hubApprovalCodes({ connection: () => gone, client })!.redeem('ABCD-2345', what)).rejects.toMatchObject(
      {
        code: 'HUB_UNREACHABLE',
        message: expect.stringContaining('admin PIN'),
      },
    );
  });
});
