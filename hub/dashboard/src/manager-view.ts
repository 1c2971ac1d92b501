// What the Managers and Audit screens say, as pure functions (unit-tested in
// test/unit/hub-dashboard/manager-view.test.ts): an audit entry in a manager's words, a manager's state,
// the one-time password head office hands over after a reset, and why the Hub closed the live feed.
import type { AuditEntry, ManagerRosterEntry } from '../../../shared/hub-dashboard-contract';

/** Letters and digits nobody misreads when it is read out or copied by hand (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A new password for a reset: 4 groups of 4 (about 79 bits), from the browser's cryptographic random
 * source, without bias (bytes past the last whole multiple of the alphabet are drawn again).
 */
export function newOneTimePassword(
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  const out: string[] = [];
  const limit = 256 - (256 % ALPHABET.length);
  while (out.length < 16) {
    for (const b of random(32)) {
      if (b < limit && out.length < 16) out.push(ALPHABET[b % ALPHABET.length]!);
    }
  }
  return [0, 4, 8, 12].map((i) => out.slice(i, i + 4).join('')).join('-');
}

/** "Active", "Disabled". */
export const managerState = (m: Pick<ManagerRosterEntry, 'disabled'>): { label: string; tone: 'good' | 'bad' } =>
  m.disabled ? { label: 'Disabled', tone: 'bad' } : { label: 'Active', tone: 'good' };

/** "Head office", or the branch as the dashboard names it ("Branch B-IKEJA" until head office names it). */
export const managerWhere = (
  m: Pick<ManagerRosterEntry, 'role' | 'branch'>,
  branchLabel: (b: string) => string = (b) => `Branch ${b}`,
): string => (m.role === 'head-office' ? 'Head office' : branchLabel(m.branch ?? ''));

/** What an audit entry says after the actor's name: "disabled manager Ada", "revoked counter Till 1 (c_…)". */
export function auditWhat(
  e: Pick<AuditEntry, 'action' | 'target' | 'detail'>,
  counterName: (id: string) => string | null = () => null,
  branchLabel: (b: string) => string = (b) => `Branch ${b}`,
): string {
  const t = e.target ?? '?';
  switch (e.action) {
    case 'login':
      return 'logged in';
    case 'login.failed':
      return `could not log in${e.detail ? ` (${e.detail})` : ''}`;
    case 'setup':
      return 'set up this Hub (the first head-office manager)';
    case 'manager.created':
      return `created manager ${t}${e.detail ? ` (${e.detail})` : ''}`;
    case 'manager.disabled':
      return `disabled manager ${t}`;
    case 'manager.enabled':
      return `enabled manager ${t} again`;
    case 'manager.removed':
      return `removed manager ${t}`;
    case 'manager.password-reset':
      return `set a new password for ${t}`;
    case 'manager.password-changed':
      return 'changed their own password';
    case 'manager.sessions-ended':
      return `ended ${e.detail ?? 'the sessions'} of ${t}`;
    case 'counter.code-issued':
      return `issued an enrollment code for ${e.target ? branchLabel(e.target) : 'any branch'}${e.detail ? ` (${e.detail})` : ''}`;
    case 'counter.revoked': {
      const name = counterName(t);
      return `revoked counter ${name && name !== t ? `${name} (${t})` : t}`;
    }
    case 'programme.imported':
      return `imported the programme of ${branchLabel(t)}${e.detail ? ` (${e.detail})` : ''}`;
    case 'programme.layout-uploaded':
      return `uploaded a screen layout for ${branchLabel(t)}${e.detail ? ` (${e.detail})` : ''}`;
    case 'programme.layout-removed':
      return `removed a screen layout of ${branchLabel(t)}${e.detail ? ` (${e.detail})` : ''}`;
    case 'programme.seats-released':
      return `released held seats in ${branchLabel(t)}${e.detail ? ` (${e.detail})` : ''}`;
    case 'programme.catalogue-imported':
      return `uploaded the concessions catalogue of ${branchLabel(t)}${e.detail ? ` (${e.detail})` : ''}`;
    case 'approval.code-issued':
      return `issued an approval code for ${branchLabel(t)}${e.detail ? ` (${e.detail})` : ''}`;
    case 'approval.redeemed':
      return `approval code used at ${t}${e.detail ? `: ${e.detail}` : ''}`;
    case 'approval.refused':
      return `approval code refused at ${t}${e.detail ? `: ${e.detail}` : ''}`;
  }
}

/** Which kind of action, for the entry's marker: sign-ins, manager accounts, counters, programmes. */
export function auditKind(action: AuditEntry['action']): 'login' | 'manager' | 'counter' | 'programme' {
  if (action === 'login' || action === 'login.failed') return 'login';
  if (action.startsWith('counter.') || action.startsWith('approval.')) return 'counter';
  if (action.startsWith('programme.')) return 'programme';
  return 'manager';
}

/** The reason of the Hub's `event: closed` ({"reason": "…"}), or a plain one when it sent none we can read. */
export function closedReason(data: string): string {
  try {
    const r = (JSON.parse(data) as { reason?: unknown }).reason;
    if (typeof r === 'string' && r.trim()) return r.trim().slice(0, 300);
  } catch {}
  return 'The Hub closed the live feed.';
}
