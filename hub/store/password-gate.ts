// The gate every password hash goes through. A 32 MiB scrypt hash costs tens of ms of a core: this
// process checks at most `max` at once and lets at most `queue` wait; past that a login is answered
// 429 at once, whatever the name (known or not, the same gate and the same cost), so a flood of
// logins cannot take the Hub's cores. Fair shares (issues 26 and 36): one address holds at most
// `perAddress` of the places (running or waiting); when every place is held, an address holding
// fewer takes a waiting place from the address holding the most (that login is answered 429, which
// is not a failed attempt); and the waiting logins are checked in turn per address, not first come
// first served (an address with no check started yet goes first). So several addresses sending
// unknown names cannot take head office's turn: as long as fewer addresses than places are logging in
// at once, head office's login gets a place and is checked next.
import { EventEmitter } from 'node:events';
import { fail } from '../errors';

interface Waiter {
  go: () => void;
  refuse: (e: Error) => void;
}

const busy = () =>
  fail('HUB_RATE_LIMITED', 429, 'The Hub is checking many logins at once: try again in a few seconds.', {
    retryAfterMs: 2000,
  });

export class PasswordGate extends EventEmitter<{ arrived: [from: string, admitted: boolean]; left: [from: string] }> {
  private running = 0;
  /** Waiting logins per address, in the order the addresses first waited. */
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingCount = 0;
  private readonly held = new Map<string, number>();
  /** When each address holding places last had a login start its hash (a count, not a time). */
  private readonly lastStart = new Map<string, number>();
  private starts = 0;
  /** The most hashes ever running at once (tests read it). */
  peak = 0;
  constructor(
    readonly max = 1,
    readonly queue = 8,
    public perAddress = 2,
  ) {
    super();
  }

  /** Places held now (running or waiting). */
  occupied(): number {
    return this.running + this.waitingCount;
  }

  /** Places held now by address `from` (running or waiting). */
  heldBy(from: string): number {
    return this.held.get(from) ?? 0;
  }

  /** Runs `f` (a hash) for a login from address `from` when its turn comes, or answers 429 at once. */
  async run<T>(f: () => Promise<T>, from = 'local'): Promise<T> {
    const mine = this.heldBy(from);
    if (mine >= this.perAddress) {
      this.emit('arrived', from, false);
      throw fail(
        'HUB_RATE_LIMITED',
        429,
        'Logins from this address are being checked already: wait for their answers, then try again.',
        { retryAfterMs: 1000 },
      );
    }
    if (this.running >= this.max && this.waitingCount >= this.queue && !this.evictFor(mine)) {
      this.emit('arrived', from, false);
      throw busy();
    }
    this.held.set(from, mine + 1);
    this.emit('arrived', from, true);
    try {
      if (this.running >= this.max) await this.wait(from);
      else this.running++;
      this.lastStart.set(from, ++this.starts);
      this.peak = Math.max(this.peak, this.running);
      try {
        return await f();
      } finally {
        if (!this.next()) this.running--;
      }
    } finally {
      const left = this.heldBy(from) - 1;
      if (left > 0) this.held.set(from, left);
      else {
        this.held.delete(from);
        this.lastStart.delete(from);
      }
      this.emit('left', from);
    }
  }

  private wait(from: string): Promise<void> {
    return new Promise<void>((go, refuse) => {
      const q = this.waiting.get(from);
      if (q) q.push({ go, refuse });
      else this.waiting.set(from, [{ go, refuse }]);
      this.waitingCount++;
    });
  }

  /**
   * Hands the running place to the next address in turn — the waiting address whose last check
   * started longest ago (one with none yet first, in the order they came); false when nobody waits.
   */
  private next(): boolean {
    let turn: string | null = null;
    for (const from of this.waiting.keys())
      if (turn === null || (this.lastStart.get(from) ?? 0) < (this.lastStart.get(turn) ?? 0)) turn = from;
    if (turn === null) return false;
    const q = this.waiting.get(turn)!;
    const w = q.shift()!;
    if (!q.length) this.waiting.delete(turn);
    this.waitingCount--;
    w.go();
    return true;
  }

  /**
   * Every place is held: frees a waiting place for a login whose address holds `mine`, taken from
   * the address holding the most (of those, the one with the most waiting; its newest waiting login is
   * answered 429) when that one holds at least two more than `mine`; false when the shares are even.
   */
  private evictFor(mine: number): boolean {
    let most: string | null = null;
    for (const [from, q] of this.waiting) {
      const more = most === null ? 1 : this.heldBy(from) - this.heldBy(most);
      if (more > 0 || (more === 0 && q.length > this.waiting.get(most!)!.length)) most = from;
    }
    if (most === null || this.heldBy(most) < mine + 2) return false;
    const q = this.waiting.get(most)!;
    const w = q.pop()!;
    if (!q.length) this.waiting.delete(most);
    this.waitingCount--;
    w.refuse(busy());
    return true;
  }
}
