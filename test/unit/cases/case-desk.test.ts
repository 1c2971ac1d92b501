// The desk's search and check with the branch (core/cases/case-desk.ts): the branch's sales come
// after this counter's own in one list, newest first, never twice; a Hub that cannot be asked is
// said ("this counter only"), never an error; the Hub is asked only with an amount; another
// counter's sale is asked of the provider by its number, and a provider that cannot be asked gives
// "try again" with why.
import { describe, expect, it } from 'vitest';
import { createCaseDesk, type CaseDeskDeps } from '../../../core/cases/case-desk';
import type { PosClient, PosOrderDetails } from '../../../core/provider';
import { ComplaintSearchSchema } from '../../../shared/cases';
import type { HubCaseSale, HubCaseSearch } from '../../../shared/hub-cases-contract';
import { memoryLogger } from '../../../shared/logger';

const NOW = Date.UTC(2026, 11, 7, 20, 0);
const H = 3_600_000;
const sale = (reference: string, createdAt: number, state = 'expired'): HubCaseSale => ({
  counterId: 'c2',
  counterName: 'Counter 2',
  reference,
  state,
  amountKobo: 400_000,
  totalKobo: 400_000,
  createdAt,
  filmTitle: 'Dune',
  seats: 'F7',
});

function desk(o: {
  branch?: ((q: HubCaseSearch) => Promise<HubCaseSale[]>) | null;
  query?: (outOrderNo: string) => Promise<PosOrderDetails | null>;
}) {
  const asked: HubCaseSearch[] = [];
  const deps: CaseDeskDeps = {
    createdBetween: () => [],
    checkout: {
      get: () => null,
      getByOutOrderNo: () => null,
      checkNow: () => Promise.reject(new Error('not this counter’s')),
    },
    pos: () => ({ queryOrder: (by: { outOrderNo: string }) => o.query!(by.outOrderNo) }) as unknown as PosClient,
    branch: () =>
      o.branch === undefined || o.branch === null
        ? null
        : (q) => {
            asked.push(q);
            return o.branch!(q);
          },
    counterName: () => 'Counter 1',
    now: () => NOW,
    logger: memoryLogger(),
  };
  return { d: createCaseDesk(deps), asked };
}

describe('the desk with the branch', () => {
  it("lists the branch's sales newest first, and asks the Hub only with an amount, in the window", async () => {
    const { d, asked } = desk({ branch: async () => [sale('COU2-1', NOW - 2 * H), sale('COU2-2', NOW - H)] });
    const r = await d.search(ComplaintSearchSchema.parse({ amountKobo: 400_000, around: NOW - 2 * H }));
    expect(r.searchedBranch).toBe(true);
    expect(r.candidates.map((c) => [c.outOrderNo, c.where, c.counterName])).toEqual([
      ['COU2-2', 'branch', 'Counter 2'],
      ['COU2-1', 'branch', 'Counter 2'],
    ]);
    expect(asked).toEqual([{ amountKobo: 400_000, from: NOW - 5 * H, to: NOW }]);
    expect((await d.search(ComplaintSearchSchema.parse({ last4: '4321' }))).searchedBranch).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('says it searched this counter only when the Hub cannot be asked', async () => {
    const { d } = desk({ branch: () => Promise.reject(new Error('HUB_UNREACHABLE')) });
    expect(await d.search(ComplaintSearchSchema.parse({ amountKobo: 400_000 }))).toEqual({
      candidates: [],
      searchedBranch: false,
    });
  });

  it("asks the provider about another counter's sale by its number; can't ask: try again, with why", async () => {
    let answer: () => Promise<PosOrderDetails | null> = async () =>
      ({ outOrderNo: 'COU2-1', status: 'SUCCESS' }) as PosOrderDetails;
    const { d } = desk({ branch: async () => [sale('COU2-1', NOW - H)], query: () => answer() });
    await d.search(ComplaintSearchSchema.parse({ amountKobo: 400_000 }));
    const paid = await d.check('COU2-1');
    expect(paid).toMatchObject({
      truth: 'paid-after-closing',
      providerStatus: 'SUCCESS',
      candidate: { outOrderNo: 'COU2-1', where: 'branch', counterName: 'Counter 2' },
    });
    expect(d.lastCheck('COU2-1')?.truth).toBe('paid-after-closing');
    answer = async () => null;
    expect((await d.check('COU2-1')).line).toMatch(
      /^Not paid: nothing was taken by this merchant \(the provider says it has no such order at \d\d:\d\d\)\.$/,
    );
    answer = () => Promise.reject(new Error('The provider did not answer in time.'));
    const unknown = await d.check('COU2-1');
    expect(unknown).toMatchObject({ truth: 'unknown', providerStatus: null });
    expect(unknown.line).toBe('The provider could not be asked: try again (The provider did not answer in time).');
  });
});
