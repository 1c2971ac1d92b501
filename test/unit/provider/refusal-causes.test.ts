// The likely cause of a provider refusal and the words the cashier and the administrator get.
import { describe, expect, it } from 'vitest';
import { refusalCause, refusalText } from '../../../core/provider/refusal-causes';

describe('refusalCause', () => {
  it('reads the cause from the code or the message', () => {
    expect(refusalCause('10002', 'timestamp expired')).toBe('clock');
    expect(refusalCause('99', 'Request time expired')).toBe('clock');
    expect(refusalCause('10004', 'sign verification failed')).toBe('signature');
    expect(refusalCause('77', 'signature error')).toBe('signature');
    expect(refusalCause('10001', 'invalid clientAuthKey')).toBe('credentials');
    expect(refusalCause('88', 'merchant not exist')).toBe('credentials');
    expect(refusalCause('02001', 'sn is not bound to this merchant')).toBeNull();
    expect(refusalCause('02003', 'order expired')).toBeNull();
    expect(refusalCause('02006', 'outOrderNo already exist')).toBeNull();
    expect(refusalCause('02002', 'amount invalid')).toBeNull();
  });
});

describe('refusalText', () => {
  const at = { measuredAt: 1 };
  it('clock, offset known and not correctable yet: how far off, and what to do', () => {
    expect(
      refusalText('clock', '10002', 'timestamp expired', { offsetMs: 360_000, correcting: false, ...at }).cashier,
    ).toBe(
      'The provider says the request is too old (code 10002 "timestamp expired"): this computer\'s clock is 6 minutes behind. Fix the date and time, then press Check now.',
    );
  });

  it('clock, corrected: says the app carries on by itself', () => {
    expect(
      refusalText('clock', '10002', 'timestamp expired', { offsetMs: -420_000, correcting: true, ...at }).cashier,
    ).toMatch(
      /clock is 7 minutes ahead\. CounterPay now signs its requests with the provider's time and checks again by itself/,
    );
  });

  it('clock, offset unknown: check the date, time and time zone', () => {
    const t = refusalText('clock', '10002', 'timestamp expired', null);
    expect(t.cashier).toBe(
      'The provider says the request is too old (code 10002 "timestamp expired"). Check that this computer\'s date, time and time zone are right, then press Check now.',
    );
    expect(t.admin).toMatch(/NTP/);
  });

  it('keys: the cashier is told sales wait for the administrator, who is told which setting', () => {
    const cred = refusalText('credentials', '10001', 'invalid clientAuthKey', null);
    expect(cred.cashier).toBe(
      'The provider refused our credentials (code 10001 "invalid clientAuthKey"). Sales cannot go through until the administrator fixes the keys in Settings.',
    );
    expect(cred.admin).toMatch(/clientAuthKey and the merchant ids/);
    const sign = refusalText('signature', '10004', '', null);
    expect(sign.cashier).toMatch(/refused our request's signature \(code 10004\)/);
    expect(sign.admin).toMatch(/merchant private key/);
  });
});
