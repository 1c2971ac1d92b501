// The provider status as a state machine on fake time: checking until an answer, what each
// failure means, backoff re-probes, and real calls updating it at once.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { ProviderStatus } from '../../../shared/provider-status';
import { memoryLogger } from '../../../shared/logger';
import { ProviderHealth, statusFromError } from '../../../core/provider/provider-health';
import {
  causedRefusalError,
  refusedError,
  timeoutError,
  unreachableError,
} from '../../../core/provider/provider-errors';
import { fakeTime, settle } from '../../helpers/orders-fake-time';

const ctx = { op: 'pos.queryOrder' };

function harness(pos: () => Promise<unknown>, bills: (() => Promise<unknown>) | null = null) {
  const t = fakeTime();
  const seen: ProviderStatus[] = [];
  const h = new ProviderHealth({
    timers: t.timers,
    now: t.clock.now,
    random: () => 1,
    logger: memoryLogger(),
    backoff: { baseMs: 2000, maxMs: 60_000 },
    probes: () => ({ pos, bills }),
    onChange: (s) => seen.push(s),
  });
  return { t, h, seen };
}

describe('ProviderHealth', () => {
  it('is checking until the first answer, then online', async () => {
    let answer: () => void = () => {};
    const { h } = harness(() => new Promise<void>((ok) => (answer = ok)));
    expect(h.status.state).toBe('checking');
    const probing = h.check('start');
    await settle();
    expect(h.status.state).toBe('checking');
    answer();
    await probing;
    expect(h.status).toMatchObject({ state: 'online' });
  });

  it('unreachable: re-probes with growing backoff, and turns online when the provider answers', async () => {
    let fail = true;
    let calls = 0;
    const { t, h } = harness(async () => {
      calls += 1;
      if (fail) throw unreachableError(ctx, 'refused', 'ECONNREFUSED');
    });
    await h.check('start');
    expect(h.status).toMatchObject({ state: 'unreachable', nextCheckAt: t.now + 2000 });
    await t.advance(2000);
    expect(calls).toBe(2);
    expect(h.status.nextCheckAt).toBe(t.now + 4000);
    fail = false;
    await t.advance(4000);
    expect(h.status.state).toBe('online');
    expect(t.pendingAt()).toEqual([]);
  });

  it('a refusal of our clock or keys is "refusing" with the provider\'s code and what to do', () => {
    const e = causedRefusalError(ctx, 'credentials', '10001', 'invalid clientAuthKey', { verified: false });
    expect(statusFromError(e, 5, 'probe')).toMatchObject({
      state: 'refusing',
      code: '10001',
      providerMessage: 'invalid clientAuthKey',
      action: expect.stringMatching(/clientAuthKey/),
    });
    expect(statusFromError(timeoutError(ctx, 'timeout'), 5, 'call')).toMatchObject({ state: 'unreachable' });
    // A business refusal of one sale says nothing about the provider as a whole; on the probe it does.
    expect(statusFromError(refusedError(ctx, '02002', 'amount invalid'), 5, 'call')).toBeNull();
    expect(statusFromError(refusedError(ctx, '02009', 'merchantId not found'), 5, 'probe')).toMatchObject({
      state: 'refusing',
      code: '02009',
    });
    expect(statusFromError(new AppError('PROVIDER_NOT_CONFIGURED', 'no key'), 5, 'probe')).toMatchObject({
      state: 'not-configured',
    });
  });

  it('a working sale or query turns it online at once; a refused one turns it refusing at once', async () => {
    const { h } = harness(async () => {
      throw unreachableError(ctx, 'refused');
    });
    await h.check('start');
    expect(h.status.state).toBe('unreachable');
    h.report(null);
    expect(h.status.state).toBe('online');
    h.report(causedRefusalError(ctx, 'clock', '10002', 'timestamp expired', { verified: false }));
    expect(h.status).toMatchObject({ state: 'refusing', code: '10002' });
    h.report(refusedError(ctx, '02002', 'amount invalid'));
    expect(h.status.state).toBe('refusing');
  });

  it('bills matters only when POS is fine, and says it is about top-ups', async () => {
    const { h } = harness(
      async () => null,
      async () => {
        throw causedRefusalError({ op: 'bills.bettingProviders' }, 'credentials', '00001', 'unauthorized', {
          verified: true,
        });
      },
    );
    await h.check('start');
    expect(h.status.state).toBe('refusing');
    expect(h.status.detail).toMatch(/^Top-ups: /);
  });

  it('an answer to an older probe never overwrites a newer one', async () => {
    const answers: ((v?: unknown) => void)[] = [];
    const fails: ((e: unknown) => void)[] = [];
    const { h } = harness(
      () =>
        new Promise((ok, ko) => {
          answers.push(ok);
          fails.push(ko);
        }),
    );
    const first = h.check('start');
    const second = h.check('settings');
    answers[1]!();
    await second;
    fails[0]!(unreachableError(ctx, 'refused'));
    await first;
    expect(h.status.state).toBe('online');
  });
});

describe('Check now', () => {
  it('starts a fresh probe, so an answer to a probe sent before the fix does not stand', async () => {
    const answers: ((v?: unknown) => void)[] = [];
    const fails: ((e: unknown) => void)[] = [];
    const { h } = harness(
      () =>
        new Promise((ok, ko) => {
          answers.push(ok);
          fails.push(ko);
        }),
    );
    const before = h.check('retry');
    const asked = h.check('asked');
    expect(answers).toHaveLength(2);
    fails[0]!(unreachableError(ctx, 'refused'));
    answers[1]!();
    await Promise.all([before, asked]);
    expect(h.status.state).toBe('online');
  });
});
