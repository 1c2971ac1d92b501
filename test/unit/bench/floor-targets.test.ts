// Targets read "<= k x floor" (issue 28): the verdict follows the ratio of a figure to its floor
// measured in the same run, so a machine twice as slow (figure and floor both doubled) gets the same
// verdict, and a figure that grew while its floor did not fails. Older runs' JSON without a floor
// keeps the absolute target of before.
import { describe, expect, it } from 'vitest';
import { APP_FLOOR_K, checkTargets, type BenchResults } from '../../bench/bench-report';
import { chainChecks, FLOOR_K, type HubFloors } from '../../bench/hub/floors';

const det = (p95Ms: number) => ({ p50Ms: p95Ms / 2, p95Ms, queriesPerOrder: 1, orders: 10 });
const over = { p50: 1, p95: 1, bareRoundTripP50: 0.3, totalP50: 3, httpP50: 2, creates: 10 };

function results(slow: number, o: { webhook?: number; search?: number; floors?: boolean } = {}): BenchResults {
  const floors = o.floors ?? true;
  return {
    detection: {
      app: det(1000),
      fixed1s: { ...det(900), queriesPerOrder: 30 },
      fixed2s: det(2000),
      fixed3s: det(3000),
      fixed5s: det(5000),
      webhook: { p50Ms: 5 * slow, p95Ms: (o.webhook ?? 10) * slow, orders: 10, byWebhook: 1, paidWithoutPayNo: 1 },
    },
    createOverheadMs: over,
    createOverheadCheckoutOnlyMs: over,
    journal: {
      writeP95MsAt0: 1,
      writeP95MsAt100k: 1,
      searchP95MsAt100k: (o.search ?? 50) * slow,
      diskCommitP95Ms: 0.3,
      searchP95ByKind: {},
      lookupP95ByKind: {},
      indexSeconds: 1,
      stored: 100_000,
      populateSeconds: 1,
      ...(floors ? { pageReadP95Ms: 0.25 * slow } : {}),
    },
    integration: {
      charges: 10,
      acceptP50Ms: 20 * slow,
      acceptP95Ms: 80 * slow,
      callbackP50Ms: 3 * slow,
      callbackP95Ms: 7 * slow,
    },
    ...(floors ? { loopbackFloorMs: { p50: 0.5 * slow, p95: 0.7 * slow } } : {}),
    meta: {},
  };
}

const verdicts = (r: BenchResults) => Object.fromEntries(checkTargets(r).map((c) => [c.name, c.pass]));

describe('bench targets against their floors', () => {
  it('gives a machine 5 x slower (figures and floors alike) the same verdicts', () => {
    expect(verdicts(results(5))).toEqual(verdicts(results(1)));
    expect(Object.values(verdicts(results(5))).every(Boolean)).toBe(true);
  });

  it('fails webhook detection and search when they grow past k x floor, whatever the machine', () => {
    const hook = checkTargets(results(3, { webhook: APP_FLOOR_K.webhook * 0.7 + 1 })).find((c) =>
      c.name.startsWith('webhook detection'),
    )!;
    expect(hook).toMatchObject({ pass: false, target: `<= ${APP_FLOOR_K.webhook} x floor` });
    expect(hook.value).toContain(' x 2.1 ms');
    const search = checkTargets(results(1, { search: APP_FLOOR_K.search * 0.25 + 1 })).find((c) =>
      c.name.startsWith('journal search'),
    )!;
    expect(search.pass).toBe(false);
  });

  it('keeps the absolute targets of before for a run without floors (an older JSON)', () => {
    const c = checkTargets(results(5, { floors: false }));
    expect(c.find((x) => x.name === 'webhook detection p95')).toMatchObject({ target: '<= 100 ms', pass: true });
    expect(c.find((x) => x.name.startsWith('journal search'))).toMatchObject({ target: '<= 50 ms', pass: false });
  });

  it('judges the chain against its bare round trip at 500 streams and its sync before the flood', () => {
    const fl: HubFloors = {
      sseRoundTripP50Ms: 1,
      sseRoundTripP95Ms: 2,
      dbCommitsPerSec: 4000,
      sseRoundTripP95MsAt500: 2,
    };
    const ok = chainChecks(
      { relayP95MsAt500: 2 * FLOOR_K.chainRelay, anonFloodCounterP95Ms: 60, anonFloodQuietP95Ms: 20 },
      fl,
    );
    expect(ok.map((r) => r[3])).toEqual([true, true]);
    const bad = chainChecks(
      { relayP95MsAt500: 2 * FLOOR_K.chainRelay + 1, anonFloodCounterP95Ms: 61, anonFloodQuietP95Ms: 20 },
      fl,
    );
    expect(bad.map((r) => r[3])).toEqual([false, false]);
    const old = chainChecks(
      { relayP95MsAt500: 45, anonFloodCounterP95Ms: 90 },
      { ...fl, sseRoundTripP95MsAt500: undefined },
    );
    expect(old.map((r) => r[2])).toEqual(['<= 50 ms', '<= 100 ms']);
  });
});
