// The composition root puts the modules' handlers together with mergeHandlers: each call keeps its
// one owner, and a call two modules answer is refused instead of the later spread silently winning.
import { describe, expect, it } from 'vitest';
import { mergeHandlers } from '../../../core/core-module';

describe('mergeHandlers', () => {
  it('answers each call with the handler of the module that owns it', async () => {
    const merged = mergeHandlers([
      { handlers: { 'orders.list': () => 'orders' } },
      { handlers: { 'topups.list': async (a: { n: number }) => a.n * 2 } },
      { handlers: {} },
    ] as const);
    expect(Object.keys(merged).sort()).toEqual(['orders.list', 'topups.list']);
    expect(merged['orders.list']()).toBe('orders');
    expect(await merged['topups.list']({ n: 21 })).toBe(42);
  });

  it('refuses a call name that two modules answer, naming the call and both modules', () => {
    const first = { handlers: { 'status.get': () => 'first', 'settings.lock': () => undefined } };
    const second = { handlers: { 'hub.status': () => 'hub' } };
    const third = { handlers: { 'status.get': () => 'third' } };
    expect(() => mergeHandlers([first, second, third] as const)).toThrow(
      /status\.get is answered by two modules \(number 1 and number 3/,
    );
  });
});
