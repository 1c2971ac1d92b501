// The fault engine's selection rules: seeded rates are reproducible, counted rules run out,
// latencies add up, "*" leaves outgoing webhooks alone.
import { describe, expect, it } from 'vitest';
import { FaultEngine, tamperSignature } from '../../../sandbox/faults';

const P = '/openApi/order/checkout/createOrder';

describe('FaultEngine', () => {
  it('repeats a seeded sequence exactly and roughly honours the rate', () => {
    const run = (seed: number) => {
      const f = new FaultEngine();
      f.set([{ path: P, kind: 'drop', rate: 0.3, seed }]);
      return Array.from({ length: 1000 }, () => f.decide(P).action);
    };
    const a = run(5);
    expect(run(5)).toEqual(a);
    expect(run(6)).not.toEqual(a);
    const hits = a.filter((x) => x === 'drop').length;
    expect(hits).toBeGreaterThan(230);
    expect(hits).toBeLessThan(370);
  });

  it('counted rules hit the next N calls on their path only', () => {
    const f = new FaultEngine();
    f.set([{ path: P, kind: 'http503', times: 2 }]);
    expect(f.decide('/other').action).toBeNull();
    expect([f.decide(P).action, f.decide(P).action, f.decide(P).action]).toEqual(['http503', 'http503', null]);
    expect(f.list()[0]).toMatchObject({ remaining: 0, hits: 2 });
  });

  it('adds latencies and keeps the first disruptive action', () => {
    const f = new FaultEngine();
    f.set([
      { path: '*', kind: 'latency', latencyMs: 100 },
      { path: P, kind: 'latency', latencyMs: 50 },
      { path: P, kind: 'commitThenDrop' },
      { path: P, kind: 'http500' },
    ]);
    expect(f.decide(P)).toEqual({ latencyMs: 150, action: 'commitThenDrop', afterMs: 0 });
    expect(f.decide('webhook:pos')).toEqual({ latencyMs: 0, action: null, afterMs: 0 });
  });

  it('a settlement fault ("settle:pos") is not hit by "*" and carries its own delay', () => {
    const f = new FaultEngine();
    f.set([
      { path: '*', kind: 'drop' },
      { path: 'settle:pos', kind: 'lateSuccess', latencyMs: 2000, times: 1 },
    ]);
    expect(f.decide('settle:pos')).toEqual({ latencyMs: 0, action: 'lateSuccess', afterMs: 2000 });
    expect(f.decide('settle:pos')).toEqual({ latencyMs: 0, action: null, afterMs: 0 });
  });

  it('refuses malformed rules', () => {
    const f = new FaultEngine();
    expect(() => f.set([{ path: P, kind: 'latency' }])).toThrow(/latencyMs/);
    expect(() => f.set([{ path: P, kind: 'drop', rate: 0.5, times: 1 }])).toThrow(/either rate/);
    expect(() => f.set([{ path: P, kind: 'drop', rate: 2 }])).toThrow();
  });

  it('tampers a signature while keeping its alphabet', () => {
    const b64 = 'abcdefghijklmnopQRSTUV==';
    const hex = 'ab'.repeat(64);
    expect(tamperSignature(b64)).not.toBe(b64);
    expect(tamperSignature(b64)).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(tamperSignature(hex)).not.toBe(hex);
    expect(tamperSignature(hex)).toMatch(/^[0-9a-f]{128}$/);
  });
});
