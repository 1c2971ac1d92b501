// The complaint desk's search of the branch (counter credential; docs/refunds.md, "The complaint
// desk"): the synced sales of the counter's own branch (its credential's) that fit an amount and a
// window, bounded (HUB_CASES_MAX, a window of at most 30 days). Read-only; no other branch's sales.
import {
  HUB_CASES_SEARCH_PATH,
  HubCaseSearchAnswerSchema,
  HubCaseSearchSchema,
  type HubCaseSearchAnswer,
} from '../../shared/hub-cases-contract';
import type { HubContext } from '../context';
import { searchBranchSales } from '../store/case-search';
import { counterAudience, counterOf } from './audiences';
import type { HubApp } from './zod-provider';

export function caseRoutes(app: HubApp, ctx: HubContext): void {
  void app.register(async (counters: HubApp) => {
    counters.addHook('onRequest', counterAudience(ctx));
    counters.post(
      HUB_CASES_SEARCH_PATH,
      {
        bodyLimit: ctx.limits.otherBodyBytes,
        schema: { body: HubCaseSearchSchema, response: { 200: HubCaseSearchAnswerSchema } },
      },
      async (req): Promise<HubCaseSearchAnswer> => {
        const c = counterOf(req);
        return { sales: await searchBranchSales(ctx.db, c.branch, req.body) };
      },
    );
  });
}
