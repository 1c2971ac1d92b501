// What the Managers and Audit screens say: each audit action in words, a manager's state and place,
// the new password of a reset (alphabet, length, no bias, never the same twice), and the live feed's
// closed reason read safely.
import { describe, expect, it } from 'vitest';
import {
  auditKind,
  auditWhat,
  closedReason,
  managerState,
  managerWhere,
  newOneTimePassword,
} from '../../../hub/dashboard/src/manager-view';
import { AUDIT_ACTIONS } from '../../../shared/hub-dashboard-contract';

describe('manager view', () => {
  it('says every audit action in words, naming the manager, counter or branch it concerns', () => {
    const e = (action: (typeof AUDIT_ACTIONS)[number], target: string | null = 'Ada', detail: string | null = null) =>
      auditWhat(
        { action, target, detail },
        (id) => (id === 'ctr_1' ? 'Till 1' : null),
        (b) => `Ikeja (${b})`,
      );
    expect(e('login', null)).toBe('logged in');
    expect(e('manager.created', 'Ada', 'branch B1')).toBe('created manager Ada (branch B1)');
    expect(e('manager.disabled')).toBe('disabled manager Ada');
    expect(e('manager.enabled')).toBe('enabled manager Ada again');
    expect(e('manager.removed')).toBe('removed manager Ada');
    expect(e('manager.password-reset')).toBe('set a new password for Ada');
    expect(e('manager.password-changed')).toBe('changed their own password');
    expect(e('manager.sessions-ended', 'Ada', '2 sessions')).toBe('ended 2 sessions of Ada');
    expect(e('counter.revoked', 'ctr_1')).toBe('revoked counter Till 1 (ctr_1)');
    expect(e('counter.revoked', 'ctr_gone')).toBe('revoked counter ctr_gone');
    expect(e('programme.imported', 'B1', 'version 3, 12 rows from week.csv')).toBe(
      'imported the programme of Ikeja (B1) (version 3, 12 rows from week.csv)',
    );
    expect(auditWhat({ action: 'programme.imported', target: 'B1', detail: null })).toBe(
      'imported the programme of Branch B1',
    );
    expect(e('login.failed', null, 'wrong name or password')).toBe('could not log in (wrong name or password)');
    expect(e('setup', 'Ada')).toBe('set up this Hub (the first head-office manager)');
    expect(e('counter.code-issued', 'B1', 'valid 60 minutes')).toBe(
      'issued an enrollment code for Ikeja (B1) (valid 60 minutes)',
    );
    expect(e('counter.code-issued', null)).toBe('issued an enrollment code for any branch');
    expect(e('approval.code-issued', 'B1', 'valid 15 minutes')).toBe(
      'issued an approval code for Ikeja (B1) (valid 15 minutes)',
    );
    expect(e('approval.refused', 'Till 1 (ctr_1)', 'used, for cancel COU1-261207-0004')).toBe(
      'approval code refused at Till 1 (ctr_1): used, for cancel COU1-261207-0004',
    );
    expect(auditKind('approval.redeemed')).toBe('counter');
    expect(auditKind('login.failed')).toBe('login');
    // Every action the Hub may write has words and a kind.
    for (const a of AUDIT_ACTIONS) {
      expect(e(a)).toMatch(/\w/);
      expect(['login', 'manager', 'counter', 'programme']).toContain(auditKind(a));
    }
    expect(auditKind('counter.revoked')).toBe('counter');
    expect(auditKind('manager.removed')).toBe('manager');
  });

  it("a manager's state and place", () => {
    expect(managerState({ disabled: true })).toEqual({ label: 'Disabled', tone: 'bad' });
    expect(managerState({ disabled: false })).toEqual({ label: 'Active', tone: 'good' });
    expect(managerWhere({ role: 'head-office', branch: null })).toBe('Head office');
    expect(managerWhere({ role: 'branch', branch: 'B1' })).toBe('Branch B1');
    expect(managerWhere({ role: 'branch', branch: 'B1' }, () => 'Ikeja')).toBe('Ikeja');
  });

  it('a new password: 4 groups of 4 from an alphabet nobody misreads, long enough for the Hub, different each time, unbiased', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = newOneTimePassword();
      expect(p).toMatch(/^[a-hj-km-np-z2-9]{4}(-[a-hj-km-np-z2-9]{4}){3}$/);
      expect(p.length).toBeGreaterThanOrEqual(10);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
    // Bytes at or past 248 (= 8 × 31) are drawn again: a source giving only 255 then 0 yields only 'a'.
    let k = 0;
    const skewed = (n: number) => Uint8Array.from({ length: n }, () => (k++ % 2 === 0 ? 255 : 0));
    expect(newOneTimePassword(skewed)).toBe('aaaa-aaaa-aaaa-aaaa');
  });

  it("reads the Hub's closed reason, and says something plain when it cannot", () => {
    expect(closedReason('{"reason":"Head office disabled this manager account."}')).toBe(
      'Head office disabled this manager account.',
    );
    expect(closedReason('not json')).toBe('The Hub closed the live feed.');
    expect(closedReason('{"reason":42}')).toBe('The Hub closed the live feed.');
    expect(closedReason(JSON.stringify({ reason: 'x'.repeat(1000) }))).toHaveLength(300);
  });
});
