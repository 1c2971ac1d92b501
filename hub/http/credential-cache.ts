// Authentication that costs nothing before it is earned (issue 26, High). A credential (a counter's
// Bearer token or a manager's session cookie) proven good is kept in memory, keyed by the SHA-256 of
// the token, so its next requests read no database and spend nothing of their address's budget. A
// credential not known here is looked up only after its address paid for it (audiences.ts), and the
// lookup itself draws on a small per-address budget that a right credential gives back and a wrong
// one keeps: wrong credentials cost an address more than right ones, and one address sending random
// tokens reaches the database a bounded number of times a minute however many connections it opens.
//
// What ends a credential forgets it here at once on this instance (a counter revoked — on any
// instance, by the relay channel's NOTIFY —, a session ended, a manager disabled or removed); an
// entry is also checked again against the database after `recheckMs` (without charging the address:
// it was good), which bounds what another instance's change of a manager can leave standing and
// renews the session's idle expiry.
import type { CounterRow } from '../store/counters';
import type { Session } from '../store/managers';

type Entry =
  | { kind: 'counter'; counter: CounterRow; checkedAt: number }
  | { kind: 'session'; session: Session; checkedAt: number };

export interface CredentialCacheOptions {
  /** Entries kept at most (the least recently used goes first); default 10,000. */
  maxEntries?: number;
  /** A counter's credential is checked again in the database after this; default 60 s. */
  counterRecheckMs?: number;
  /** A session is checked again after this (at most 60 s: its idle expiry is renewed then); default 15 s. */
  sessionRecheckMs?: number;
  /** Unknown credentials an address may have looked up per minute (bursts of a third); default 60. */
  lookupsPerMinute?: number;
}

/** A found entry: fresh (serve it), or due for a check (look it up without charging the address). */
export type Cached<T> = { value: T; fresh: boolean } | null;

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly counterRecheckMs: number;
  private readonly sessionRecheckMs: number;
  private readonly lookups: LookupBudget;
  /** Database lookups of credentials (tests and the bench read it). */
  lookupsDone = 0;

  constructor(o: CredentialCacheOptions = {}) {
    this.maxEntries = o.maxEntries ?? 10_000;
    this.counterRecheckMs = o.counterRecheckMs ?? 60_000;
    this.sessionRecheckMs = Math.min(60_000, o.sessionRecheckMs ?? 15_000);
    const perMinute = o.lookupsPerMinute ?? 60;
    this.lookups = new LookupBudget(perMinute, Math.max(1, Math.round(perMinute / 3)));
  }

  size(): number {
    return this.entries.size;
  }

  counter(hash: string, now: number): Cached<CounterRow> {
    const e = this.touch(hash);
    return e?.kind === 'counter'
      ? { value: e.counter, fresh: now - e.checkedAt < this.counterRecheckMs && now >= e.checkedAt }
      : null;
  }

  /** A session past its idle or absolute expiry is forgotten and not returned. */
  session(hash: string, now: number): Cached<Session> {
    const e = this.touch(hash);
    if (e?.kind !== 'session') return null;
    if (now >= e.session.expiresAt || now >= e.session.idleExpiresAt) {
      this.entries.delete(hash);
      return null;
    }
    return { value: e.session, fresh: now - e.checkedAt < this.sessionRecheckMs && now >= e.checkedAt };
  }

  rememberCounter(hash: string, counter: CounterRow, now: number): void {
    this.put(hash, { kind: 'counter', counter, checkedAt: now });
  }

  rememberSession(hash: string, session: Session, now: number): void {
    this.put(hash, { kind: 'session', session, checkedAt: now });
  }

  forget(hash: string): void {
    this.entries.delete(hash);
  }

  forgetCounter(id: string): void {
    for (const [k, e] of this.entries) if (e.kind === 'counter' && e.counter.id === id) this.entries.delete(k);
  }

  /** Sessions by their id hashes (the key of a session is the hash of its cookie, as stored). */
  forgetSessions(idHashes: readonly string[]): void {
    for (const h of idHashes) this.entries.delete(h);
  }

  forgetManager(id: string): void {
    for (const [k, e] of this.entries) if (e.kind === 'session' && e.session.manager.id === id) this.entries.delete(k);
  }

  /** Takes one lookup of an unknown credential from the address's budget: 0 when taken, else ms to wait. */
  reserveLookup(address: string, now: number): number {
    return this.lookups.take(address, now);
  }

  /** The credential looked up was right: its lookup is given back. */
  refundLookup(address: string): void {
    this.lookups.giveBack(address);
  }

  private touch(hash: string): Entry | undefined {
    const e = this.entries.get(hash);
    if (e) {
      this.entries.delete(hash);
      this.entries.set(hash, e);
    }
    return e;
  }

  private put(hash: string, e: Entry): void {
    this.entries.delete(hash);
    this.entries.set(hash, e);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** A token bucket per address that can give a token back (a lookup that found a right credential). */
class LookupBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;
  constructor(
    perMinute: number,
    private readonly burst: number,
  ) {
    this.perMs = perMinute / 60_000;
  }

  take(key: string, now: number): number {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + Math.max(0, now - b.at) * this.perMs);
    b.at = Math.max(b.at, now);
    this.buckets.set(key, b);
    if (this.buckets.size > 50_000) this.sweep(now);
    if (b.tokens < 1) return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs));
    b.tokens -= 1;
    return 0;
  }

  giveBack(key: string): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.burst, b.tokens + 1);
  }

  private sweep(now: number): void {
    for (const [k, b] of this.buckets)
      if (b.tokens + Math.max(0, now - b.at) * this.perMs >= this.burst) this.buckets.delete(k);
  }
}
