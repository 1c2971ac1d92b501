// bench:compare's verdict (test/bench/compare-stats.ts): a figure is WORSE only when its median moved
// by more than 10% the wrong way AND the two sides' spreads over the rounds do not overlap; which
// way is wrong depends on the figure (ms: up; per second: down).
import { describe, expect, it } from 'vitest';
import { compareFigure, figureAt, formatComparison, HUB_FIGURES, type FigureSpec } from '../../bench/compare-stats';

const ms: FigureSpec = { path: 'x', label: 'detection p50, ms', better: 'lower' };
const rate: FigureSpec = { path: 'y', label: 'ingest, /s', better: 'higher' };

describe('bench:compare verdicts', () => {
  it('the relay regression of issue 28 (28 -> 88 ms, spreads apart) is WORSE; its fix is better', () => {
    expect(compareFigure(ms, [28, 30, 27], [88, 91, 86])!.verdict).toBe('worse');
    expect(compareFigure(ms, [88, 91, 86], [28, 30, 27])!.verdict).toBe('better');
  });

  it('a slower median inside the noise (spreads overlap) is the same, however large the ratio', () => {
    const c = compareFigure(ms, [20, 40, 25], [30, 45, 29])!;
    expect(c.ratio).toBeGreaterThan(1.1);
    expect(c.verdict).toBe('same');
  });

  it('spreads apart but within 10% is the same', () => {
    expect(compareFigure(ms, [100, 101, 102], [105, 106, 107])!.verdict).toBe('same');
  });

  it('for a rate, lower is worse', () => {
    expect(compareFigure(rate, [600, 610, 590], [400, 420, 410])!.verdict).toBe('worse');
    expect(compareFigure(rate, [400, 420, 410], [600, 610, 590])!.verdict).toBe('better');
  });

  it('the ratio spread is per round (main and ref of one round paired)', () => {
    const c = compareFigure(ms, [10, 20], [20, 20])!;
    expect([c.ratioMin, c.ratioMax]).toEqual([1, 2]);
    expect(c.ratio).toBeCloseTo(20 / 15);
  });

  it('figures are read by dotted path; a figure a side lacks is null, not zero', () => {
    const json = { hub: { detectionP50MsWithRelay: 31.5, relayP95Ms: 'n/a' } };
    expect(figureAt(json, HUB_FIGURES[0]!.path)).toBe(31.5);
    expect(figureAt(json, 'hub.relayP95Ms')).toBeNull();
    expect(figureAt(json, 'hub.nothing.here')).toBeNull();
  });

  it('the table names both sides, the ratio with its spread and the verdict', () => {
    const t = formatComparison([compareFigure(ms, [28, 30, 27], [88, 91, 86])!], 'd48aa86', 'abc1234');
    expect(t).toContain('d48aa86 median (min-max)');
    expect(t).toMatch(/detection p50, ms\s+28 \(27-30\)\s+88 \(86-91\)\s+3\.14x \(3\.03-3\.19\)\s+WORSE/);
  });
});
