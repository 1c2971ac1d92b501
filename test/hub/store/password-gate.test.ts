// The password gate's shares, exactly (issue 36): one address holds at most `perAddress` places, a
// newcomer takes a waiting place from the address holding the most, and waiting logins are checked in
// turn per address. The "hashes" here are promises the test finishes, so nothing depends on time.
import { describe, expect, it } from 'vitest';
import { PasswordGate } from '../../../hub/store/password-gate';

/** A hash the test finishes by hand; `started` resolves when the gate lets it run. */
function hash(order: string[], name: string) {
  let finish = () => undefined as void;
  let started = () => undefined as void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    running,
    finish: () => finish(),
    f: async () => {
      order.push(name);
      started();
      await done;
      return name;
    },
  };
}

const settle = (p: Promise<unknown>) =>
  p.then(
    (v) => `ok ${String(v)}`,
    (e: { status?: number; message?: string }) => `${e.status} ${e.message}`,
  );

describe('the password gate', () => {
  it('one address holds exactly perAddress places (running or waiting): the next is told to wait for their answers', async () => {
    for (const perAddress of [1, 2, 3]) {
      const gate = new PasswordGate(1, 8, perAddress);
      const order: string[] = [];
      const hs = Array.from({ length: perAddress + 1 }, (_, i) => hash(order, `a${i}`));
      const answers = hs.map((h) => settle(gate.run(h.f, 'A')));
      expect(gate.heldBy('A')).toBe(perAddress);
      expect(await answers[perAddress]).toBe(
        '429 Logins from this address are being checked already: wait for their answers, then try again.',
      );
      // Another address is not touched by A's share.
      const b = hash(order, 'b');
      const fromB = settle(gate.run(b.f, 'B'));
      expect(gate.heldBy('B')).toBe(1);
      // In turn: A's first, then B (no check of its own yet), then A's others.
      for (const h of [hs[0]!, b, ...hs.slice(1, perAddress)]) {
        await h.running;
        h.finish();
      }
      expect(await Promise.all([...answers.slice(0, perAddress), fromB])).toEqual([
        ...hs.slice(0, perAddress).map((_, i) => `ok a${i}`),
        'ok b',
      ]);
      expect(gate.occupied()).toBe(0);
    }
  });

  it("when every place is held, a newcomer takes a waiting place of the address holding the most; its logins are checked in turn with the others'", async () => {
    const gate = new PasswordGate(1, 3, 2);
    const order: string[] = [];
    const a0 = hash(order, 'a0');
    const a1 = hash(order, 'a1');
    const b0 = hash(order, 'b0');
    const b1 = hash(order, 'b1');
    const c0 = hash(order, 'c0');
    const c1 = hash(order, 'c1');
    const answers = [
      settle(gate.run(a0.f, 'A')),
      settle(gate.run(a1.f, 'A')),
      settle(gate.run(b0.f, 'B')),
      settle(gate.run(b1.f, 'B')),
    ];
    expect(gate.occupied()).toBe(4);
    // Full: C holds none, A and B two each; C takes B's newest waiting place (B1 is told to try again).
    const c0Answer = settle(gate.run(c0.f, 'C'));
    expect(await answers[3]).toBe('429 The Hub is checking many logins at once: try again in a few seconds.');
    expect([gate.heldBy('A'), gate.heldBy('B'), gate.heldBy('C')]).toEqual([2, 1, 1]);
    // C's second login finds the shares even (2, 1, 1 for 4 places): refused, nobody's place taken.
    expect(await settle(gate.run(c1.f, 'C'))).toBe(
      '429 The Hub is checking many logins at once: try again in a few seconds.',
    );
    expect(gate.occupied()).toBe(4);
    // In turn: A's running one, then B (first to wait), then C, and A's second only after them.
    for (const h of [a0, b0, c0, a1]) {
      await h.running;
      h.finish();
    }
    expect(await Promise.all([answers[0], answers[1], answers[2], c0Answer])).toEqual([
      'ok a0',
      'ok a1',
      'ok b0',
      'ok c0',
    ]);
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1']);
    expect(gate.occupied()).toBe(0);
  });
});
