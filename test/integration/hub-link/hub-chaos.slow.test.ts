// The short Hub chaos run inside `npm test`: 3 counters, 40 sales, two Hub SIGKILLs, counter↔Hub cuts
// and two counter SIGKILLs (fixed seed), run in-process through the real driver (Hub, counters and
// sandbox are real processes and servers). Every sale must be final, once, and as the provider
// says; every counter's journal must equal the Hub's copy; no notification the Hub accepted may be
// missing from the counter that owns its order.
import { describe, expect, it } from 'vitest';
import { DEFAULT_HUB_CHAOS_OPTIONS, runHubChaos } from '../../chaos/hub-chaos';
import { hubChaosLine } from '../../chaos/hub-chaos-verdict';

describe('Hub chaos (short form)', () => {
  it("3 counters, 40 sales, 2 Hub kills, 4 cuts, 2 counter kills, seed 5: journals equal the Hub's, nothing lost", async () => {
    const lines: string[] = [];
    const r = await runHubChaos(
      {
        ...DEFAULT_HUB_CHAOS_OPTIONS,
        counters: 3,
        sales: 40,
        seed: 5,
        hubKills: 2,
        cuts: 4,
        counterKills: 2,
        expireSeconds: 12,
        gapMs: 250,
      },
      (line) => lines.push(line),
    );
    const last = hubChaosLine(r);
    lines.push(last);
    const report = lines.join('\n');
    console.log(report.split('\n').slice(-12).join('\n'));
    expect(last, report).toMatch(
      /^counters=3 sales=\d+ relayed=\d+ relayLost=0 syncGaps=0 syncDuplicates=0 lateFound=\d+ lateMissed=0 seatsDoubleSold=0$/,
    );
    expect(r.journalsEqual, report).toBe(true);
    expect(r.outboxMissing, report).toBe(0); // the journals are not equal by being empty
    expect(r.sale, report).toMatchObject({ duplicates: 0, lost: 0, notFinal: 0 });
    // At most the sales killed mid-request are missing; the provider has at most one order per sale.
    expect(r.sales, report).toBeGreaterThanOrEqual(38);
    expect(r.sale.providerOrders, report).toBeLessThanOrEqual(r.sales);
    // The relay really carried notifications (the counters have no receiver of their own).
    expect(r.relayed, report).toBeGreaterThan(0);
    expect(
      lines.filter((l) => l.startsWith('hub kill ')),
      report,
    ).toHaveLength(2);
    expect(
      lines.filter((l) => /^kill Counter \d/.test(l)),
      report,
    ).toHaveLength(2);
    expect(r.passed, report).toBe(true);
  }, 300_000);
});
