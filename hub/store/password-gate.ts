// The gate every password hash goes through. A 32 MiB scrypt hash costs tens of ms of a core: this
// process checks at most `max` at once and lets at most `queue` wait; past that a login is answered
// 429 at once, whatever the name (known or not, the same gate and the same cost), so a flood of
// logins cannot take the Hub's cores. Fair shares (issue 26): one address holds at most `perAddress`
// of the places (running or waiting), so one address's wrong-password logins — even within its own
// login limit — cannot fill the queue and make head office's right password wait for a 429.
import { EventEmitter } from 'node:events';
import { fail } from '../errors';

export class PasswordGate extends EventEmitter<{ arrived: [from: string, admitted: boolean] }> {
  private running = 0;
  private waiting: (() => void)[] = [];
  private readonly held = new Map<string, number>();
  /** The most hashes ever running at once (tests read it). */
  peak = 0;
  constructor(
    readonly max = 1,
    readonly queue = 8,
    public perAddress = 2,
  ) {
    super();
  }

  /** Runs `f` (a hash) for a login from address `from` when its turn comes, or answers 429 at once. */
  async run<T>(f: () => Promise<T>, from = 'local'): Promise<T> {
    const mine = this.held.get(from) ?? 0;
    if (mine >= this.perAddress) {
      this.emit('arrived', from, false);
      throw fail(
        'HUB_RATE_LIMITED',
        429,
        'Logins from this address are being checked already: wait for their answers, then try again.',
        { retryAfterMs: 1000 },
      );
    }
    if (this.running >= this.max && this.waiting.length >= this.queue) {
      this.emit('arrived', from, false);
      throw fail('HUB_RATE_LIMITED', 429, 'The Hub is checking many logins at once: try again in a few seconds.', {
        retryAfterMs: 2000,
      });
    }
    this.held.set(from, mine + 1);
    this.emit('arrived', from, true);
    try {
      if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.running++;
      this.peak = Math.max(this.peak, this.running);
      try {
        return await f();
      } finally {
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
      }
    } finally {
      const left = (this.held.get(from) ?? 1) - 1;
      if (left > 0) this.held.set(from, left);
      else this.held.delete(from);
    }
  }
}
