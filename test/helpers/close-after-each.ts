// What a test opens (a sandbox, a rig, a core, a temporary file) is closed after each test, the
// newest first, so no test leaves a port, a process or a file behind for the next.
import { afterEach } from 'vitest';

/** Registers the closing; returns `keep`, which hands back what it is given (its own type) once it is listed. */
export function closeAfterEach<T>(close: (t: T) => unknown): <U extends T>(t: U) => U {
  const open: T[] = [];
  afterEach(async () => {
    while (open.length) await close(open.pop()!);
  });
  return (t) => {
    open.push(t);
    return t;
  };
}
