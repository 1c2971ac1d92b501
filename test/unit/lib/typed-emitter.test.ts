// The typed listener list the services use to announce changes.
import { describe, expect, it } from 'vitest';
import { TypedEmitter } from '../../../electron/core/lib/typed-emitter';

describe('TypedEmitter', () => {
  it('calls the listeners of an event in order, with its arguments, until they unsubscribe', () => {
    const e = new TypedEmitter<{ change: [n: number, why: string]; other: [] }>();
    const seen: string[] = [];
    const offA = e.on('change', (n, why) => seen.push(`a${n}${why}`));
    e.on('change', (n) => seen.push(`b${n}`));
    e.on('other', () => seen.push('other'));
    e.emit('change', 1, 'x');
    offA();
    e.emit('change', 2, 'y');
    expect(seen).toEqual(['a1x', 'b1', 'b2']);
    expect(e.listenerCount('change')).toBe(1);
    expect(e.listenerCount('other')).toBe(1);
  });

  it('an event nobody listens to is a no-op', () => {
    const e = new TypedEmitter<{ change: [] }>();
    expect(() => e.emit('change')).not.toThrow();
    expect(e.listenerCount('change')).toBe(0);
  });
});
