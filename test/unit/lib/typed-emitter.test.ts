// The typed listener list the services use to announce changes.
import { describe, expect, it } from 'vitest';
import { TypedEmitter } from '../../../core/lib/typed-emitter';

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

describe('TypedEmitter errors', () => {
  it('without an error handler, a throwing listener stops the rest and reaches the caller', () => {
    const e = new TypedEmitter<{ change: [] }>();
    const seen: string[] = [];
    e.on('change', () => {
      throw new Error('boom');
    });
    e.on('change', () => seen.push('second'));
    expect(() => e.emit('change')).toThrow('boom');
    expect(seen).toEqual([]);
  });

  it('with one, the throw is reported and the other listeners still run', () => {
    const reported: string[] = [];
    const e = new TypedEmitter<{ change: [] }>({
      onListenerError: (err, event) => reported.push(`${event}: ${(err as Error).message}`),
    });
    const seen: string[] = [];
    e.on('change', () => {
      throw new Error('boom');
    });
    e.on('change', () => seen.push('second'));
    e.emit('change');
    expect(seen).toEqual(['second']);
    expect(reported).toEqual(['change: boom']);
  });

  it('a listener removed during an emit still hears that emit, not the next; clear drops all', () => {
    const e = new TypedEmitter<{ change: [] }>();
    const seen: string[] = [];
    let offB = () => {};
    e.on('change', () => {
      seen.push('a');
      offB();
    });
    offB = e.on('change', () => seen.push('b'));
    e.emit('change');
    e.emit('change');
    expect(seen).toEqual(['a', 'b', 'a']);
    e.clear();
    e.emit('change');
    expect(seen).toEqual(['a', 'b', 'a']);
  });
});
