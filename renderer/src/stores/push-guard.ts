// Reads and pushes of the same state race: over the browser shell a call's answer and main's
// pushed event travel on different connections and can arrive in either order. Main pushes every
// change, so a push is at least as new as anything a read still in flight could carry; a read
// answered after a push of its kind arrived is dropped.

interface PushGuard {
  /** A push arrived: reads in flight now are older than it. */
  pushed(): void;
  /** Call before a read; the answer may be applied if `fresh()` is still true when it arrives. */
  mark(): () => boolean;
}

export function pushGuard(): PushGuard {
  let pushes = 0;
  return {
    pushed: () => {
      pushes++;
    },
    mark: () => {
      const before = pushes;
      return () => before === pushes;
    },
  };
}
