// The brake on an anonymous flood. A client flooding "as fast as it can" sends its next request the
// moment it gets an answer, so every quick 429 invites the next one: the Hub spends its event loop
// (and the machine its cores) answering refusals while counters wait. Once an address has been
// refused more than a few times a minute, its further refusals are held for a while before the 429
// goes out, so one client's flood runs at the pace of its open connections over the hold (16
// connections, 1 s: 16 requests a second) instead of thousands a second. An address holding more
// connections than that has its holds lengthened in proportion (up to `maxHoldMs`), so 2,000
// connections of random credentials are slowed like 16 are, not answered 2,000 times a second
// (issue 26). Nothing is read from the database for it; at most `maxHeld` refusals are held at once
// on an instance (past it they are answered at once), and a closing Hub answers every held one.
import { EventEmitter } from 'node:events';
import { KeyedTokenBuckets } from '../../shared/token-bucket';

export interface FloodBrakeOptions {
  /** How long a braked refusal is held before its 429 is sent (default 1000 ms; 0 turns the brake off). */
  holdMs?: number;
  /** Refusals per address per minute answered at once (bursts of half of it) before the brake holds them (default 120). */
  refusalsPerMinute?: number;
  /** Refusals held at once on this instance, every address together (default 2000). */
  maxHeld?: number;
  /** Connections of one address held `holdMs` each; with more held, each new hold is longer in proportion (default 16). */
  paceConnections?: number;
  /** The longest hold (default 30 s). */
  maxHoldMs?: number;
}

export class FloodBrake extends EventEmitter<{ held: [count: number, holdMs: number] }> {
  private readonly held = new Set<() => void>();
  private readonly heldByKey = new Map<string, number>();
  private readonly pace: number;
  private readonly maxHoldMs: number;
  private readonly refusals: KeyedTokenBuckets;
  private readonly holdMs: number;
  private readonly maxHeld: number;
  private closed = false;

  constructor(o: FloodBrakeOptions = {}) {
    super();
    const perMinute = o.refusalsPerMinute ?? 120;
    this.refusals = new KeyedTokenBuckets({ perMinute, burst: Math.max(1, Math.round(perMinute / 2)) });
    this.holdMs = o.holdMs ?? 1000;
    this.maxHeld = o.maxHeld ?? 2000;
    this.pace = Math.max(1, o.paceConnections ?? 16);
    this.maxHoldMs = Math.max(this.holdMs, o.maxHoldMs ?? 30_000);
  }

  /** Refusals held right now. */
  heldNow(): number {
    return this.held.size;
  }

  /** A refusal of this key (an address): resolves at once while its refusals are few, else once it has been held. */
  async refused(key: string, now: number): Promise<void> {
    if (this.closed || this.holdMs <= 0 || this.refusals.take(key, now) === 0 || this.held.size >= this.maxHeld) return;
    const mine = (this.heldByKey.get(key) ?? 0) + 1;
    this.heldByKey.set(key, mine);
    const holdMs = Math.min(this.maxHoldMs, Math.round(this.holdMs * Math.max(1, mine / this.pace)));
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.held.delete(done);
        const left = (this.heldByKey.get(key) ?? 1) - 1;
        if (left > 0) this.heldByKey.set(key, left);
        else this.heldByKey.delete(key);
        resolve();
      };
      const timer = setTimeout(done, holdMs);
      this.held.add(done);
      this.emit('held', this.held.size, holdMs);
    });
  }

  /** Answers every held refusal now and holds no more (the Hub is closing). */
  close(): void {
    this.closed = true;
    for (const done of [...this.held]) done();
  }
}
