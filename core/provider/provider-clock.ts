// This computer's clock as the provider sees it. Every answer's HTTP `Date` header (and, where the
// answer is signed and verified, its `timestamp`) measures the offset between the two clocks.
// When the offset is large, requests are stamped with the corrected time (as cloud SDKs do), so a
// wrong PC clock does not stop sales; the correction is logged and shown in the status bar.
import type { Clock } from '../../shared/clock';
import { TypedEmitter } from '../lib';
import type { Logger } from '../../shared/logger';

/** Offsets at or below this are normal drift: not shown, not corrected. */
export const SKEW_SHOW_MS = 60_000;
/**
 * Offsets above this are not corrected: the Date header is not authenticated, and trusting a far
 * larger jump would let a forged header widen the window in which an old signed answer is
 * accepted. The cashier is told to fix the date and time instead.
 */
export const SKEW_MAX_CORRECTION_MS = 60 * 60_000;

export interface SkewState {
  /** provider time − this computer's time, in ms; null until an answer carried a usable time. */
  offsetMs: number | null;
  /** True when requests are stamped with the corrected time. */
  correcting: boolean;
  /** When the offset was last measured (this computer's clock). */
  measuredAt: number | null;
}

/** The offset one answer shows: its time against the middle of the exchange. */
export function offsetFromAnswer(providerTimeMs: number, sentAt: number, receivedAt: number, resolutionMs = 0): number {
  // A Date header has whole seconds: the provider's true time lies within [t, t + resolution).
  const mid = sentAt + (receivedAt - sentAt) / 2;
  return Math.round(providerTimeMs + resolutionMs / 2 - mid);
}

/**
 * Parses an HTTP Date header (RFC 7231); null when absent or not a date.
 * @internal for tests
 */
export function parseHttpDate(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

/** "6 minutes", "45 seconds", "2 hours" — for cashier messages. */
function describeDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} minute${m === 1 ? '' : 's'}`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} hour${h === 1 ? '' : 's'}`;
  const d = Math.round(h / 24);
  return `${d} day${d === 1 ? '' : 's'}`;
}

/** "6 minutes behind" (this computer is late) or "6 minutes ahead". */
export function describeOffset(offsetMs: number): string {
  return `${describeDuration(offsetMs)} ${offsetMs > 0 ? 'behind' : 'ahead'}`;
}

/** The status bar's clock line: empty while the offset is a minute or less. */
export function clockStatus(s: SkewState): { offsetMs: number | null; correcting: boolean; detail: string } {
  const off = s.offsetMs;
  if (off === null || Math.abs(off) <= SKEW_SHOW_MS) return { offsetMs: off, correcting: s.correcting, detail: '' };
  const where = `This computer's clock is ${describeDuration(off)} ${off > 0 ? 'behind' : 'ahead of'} the provider's.`;
  const detail = s.correcting
    ? `${where} CounterPay stamps its requests with the provider's time so sales go through; fix the date and time when you can.`
    : `${where} That is too far off to correct: fix the date and time of this computer.`;
  return { offsetMs: off, correcting: s.correcting, detail };
}

export class ProviderClock implements Clock {
  private offset: number | null = null;
  private measured: number | null = null;
  private correctingNow = false;
  private readonly changes = new TypedEmitter<{ change: [s: SkewState] }>();

  constructor(
    private readonly base: Clock,
    private readonly logger: Logger,
  ) {}

  /** The time to stamp requests with: this computer's time, corrected when the offset is large. */
  now(): number {
    return this.base.now() + (this.correctingNow && this.offset !== null ? this.offset : 0);
  }

  /** This computer's own time (for measuring exchanges). */
  localNow(): number {
    return this.base.now();
  }

  state(): SkewState {
    return { offsetMs: this.offset, correcting: this.correctingNow, measuredAt: this.measured };
  }

  /** Records one measured offset; tells listeners when what is shown or corrected changes. */
  observe(offsetMs: number): void {
    const before = this.state();
    this.offset = offsetMs;
    this.measured = this.base.now();
    const large = Math.abs(offsetMs) > SKEW_SHOW_MS;
    this.correctingNow = large && Math.abs(offsetMs) <= SKEW_MAX_CORRECTION_MS;
    const shownBefore = before.offsetMs !== null && Math.abs(before.offsetMs) > SKEW_SHOW_MS;
    // Small jitter between answers is not news; crossing a threshold or a change of a minute is.
    const news =
      before.correcting !== this.correctingNow ||
      shownBefore !== large ||
      (large && Math.abs((before.offsetMs ?? 0) - offsetMs) >= SKEW_SHOW_MS);
    if (!news) return;
    if (this.correctingNow) {
      this.logger.warn('clock skew: signing provider requests with the corrected time', {
        offsetMs,
        computer: describeOffset(offsetMs),
      });
    } else if (large) {
      this.logger.error('clock skew too large to correct: the date and time of this computer must be fixed', {
        offsetMs,
      });
    } else {
      this.logger.info('clock skew back within a minute: no correction', { offsetMs });
    }
    const s = this.state();
    this.changes.emit('change', s);
  }

  /** Measures from an answer's Date header; returns the offset or null when the header is unusable. */
  observeDateHeader(dateHeader: string | null | undefined, sentAt: number, receivedAt: number): number | null {
    const t = parseHttpDate(dateHeader);
    if (t === null) return null;
    const off = offsetFromAnswer(t, sentAt, receivedAt, 1000);
    this.observe(off);
    return off;
  }

  onChange(listener: (s: SkewState) => void): () => void {
    return this.changes.on('change', listener);
  }
}
