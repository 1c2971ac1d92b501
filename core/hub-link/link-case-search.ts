// The complaint desk's search of the branch through the Hub (docs/refunds.md, "The complaint
// desk"): the sales of this counter's branch, synced to the Hub, that fit an amount and a window.
// A Hub that does not answer within CASE_SEARCH_TIMEOUT_MS is not waited for: the desk then says it
// searched this counter only.
import {
  HUB_CASES_SEARCH_PATH,
  HubCaseSearchAnswerSchema,
  type HubCaseSale,
  type HubCaseSearch,
} from '../../shared/hub-cases-contract';
import type { HubClient } from './link-client';
import type { HubConnectionSource } from './link-types';

export const CASE_SEARCH_TIMEOUT_MS = 4_000;

/** The branch search, or null without a Hub. The answer leaves out this counter's own sales (the desk has them). */
export function hubCaseSearch(d: {
  connection: HubConnectionSource;
  client: HubClient;
  /** The counter sells in a practice profile (Demo, Sandbox): the Hub answers with practice sales only. */
  practice: () => boolean;
}): ((q: HubCaseSearch) => Promise<HubCaseSale[]>) | null {
  const c = d.connection();
  if (!c) return null;
  return async (q) => {
    const r = await d.client.call(
      c,
      'POST',
      HUB_CASES_SEARCH_PATH,
      { ...q, practice: d.practice() },
      HubCaseSearchAnswerSchema,
      {
        timeoutMs: CASE_SEARCH_TIMEOUT_MS,
      },
    );
    return r.sales.filter((s) => s.counterId !== c.counterId);
  };
}
