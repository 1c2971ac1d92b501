// A manager's one-time approval code (docs/hub.md "Approval codes"): issued on the dashboard for one
// branch, shown once (only its hash is kept), lapsing after 15 minutes; a counter of that branch
// redeems it once for one undo (a cancel or an exchange). A code unknown, used, lapsed or of another
// branch is refused; every redemption and every refusal is audited (manager_audit, the counter as
// the actor). A counter's wrong codes make it wait before its next try, the wait doubling with them
// (the login throttle's rule, login-throttle.ts): 8 letters of 31 cannot be guessed in the 15 minutes.
import { randomInt } from 'node:crypto';
import {
  APPROVAL_ALPHABET,
  APPROVAL_CODE_TTL_MS,
  normalApprovalCode,
  showApprovalCode,
  type ApprovalRefusal,
  type IssuedApprovalCode,
} from '../../shared/hub-refunds-contract';
import type { ManagerView } from '../../shared/hub-dashboard-contract';
import type { HubDb } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { fail } from '../errors';
import { writeAudit } from './manager-admin';
import { sha256 } from './tokens';

export interface ApprovalThrottle {
  /** Wrong codes allowed before the first wait. */
  free: number;
  firstWaitMs: number;
  maxWaitMs: number;
}
export const DEFAULT_APPROVAL_THROTTLE: ApprovalThrottle = { free: 3, firstWaitMs: 2_000, maxWaitMs: 15 * 60_000 };

const waitAfter = (failures: number, p: ApprovalThrottle): number =>
  failures < p.free ? 0 : Math.min(p.maxWaitMs, p.firstWaitMs * 2 ** Math.min(30, failures - p.free));

const hashOf = (code: string) => sha256(`approval:${normalApprovalCode(code)}`);

/** A new code for `branch`, valid APPROVAL_CODE_TTL_MS; audited in the same transaction. */
export async function issueApprovalCode(
  db: HubDb,
  actor: { manager: ManagerView; address: string | null },
  branch: string,
  now: number,
): Promise<IssuedApprovalCode> {
  const code = Array.from({ length: 8 }, () => APPROVAL_ALPHABET[randomInt(APPROVAL_ALPHABET.length)]).join('');
  const expiresAt = now + APPROVAL_CODE_TTL_MS;
  await db.tx(async (q) => {
    await q.query(
      `insert into approval_codes (code_hash, branch, issued_by_id, issued_by, issued_at, expires_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [hashOf(code), branch, actor.manager.id, actor.manager.name, now, expiresAt],
    );
    await writeAudit(q, actor, 'approval.code-issued', branch, 'valid 15 minutes', now);
  });
  return { code: showApprovalCode(code), branch, issuedBy: actor.manager.name, issuedAt: now, expiresAt };
}

const REFUSED: Record<ApprovalRefusal, string> = {
  unknown: 'This approval code is not known: check it with the manager who gave it.',
  used: 'This approval code was already used: ask the manager for a new one.',
  expired: 'This approval code has expired (codes last 15 minutes): ask the manager for a new one.',
  'other-branch': "This approval code was issued for another branch: ask your branch's manager for one.",
};

/**
 * Redeems a code for `what` at counter `c`: the issuing manager's name, or a HubFailure
 * (HUB_APPROVAL_REFUSED, 403, details.reason) after its audit row; HUB_RATE_LIMITED (429) while the
 * counter must wait after wrong codes. The code is taken once (an update that only one caller wins).
 */
export async function redeemApprovalCode(
  db: HubDb,
  c: { id: string; name: string; branch: string },
  code: string,
  what: string,
  now: number,
  address: string | null,
  p: ApprovalThrottle = DEFAULT_APPROVAL_THROTTLE,
): Promise<{ by: string }> {
  const t = await db.query<{ locked_until: unknown }>(
    'select locked_until from approval_failures where counter_id = $1',
    [c.id],
  );
  const lockedUntil = num(t[0]?.locked_until ?? 0);
  if (lockedUntil > now)
    throw fail('HUB_RATE_LIMITED', 429, 'Too many wrong approval codes from this counter: wait, then try again.', {
      retryAfterMs: lockedUntil - now,
    });
  const actor = { manager: null, name: c.name, address };
  const target = `${c.name} (${c.id})`;
  const outcome = await db.tx(async (q): Promise<{ by: string } | { reason: ApprovalRefusal }> => {
    const taken = await q.query<{ issued_by: string }>(
      `update approval_codes set used_at = $2, used_by = $3, used_what = $4
        where code_hash = $1 and branch = $5 and used_at is null and expires_at > $2 returning issued_by`,
      [hashOf(code), now, c.id, what, c.branch],
    );
    if (taken[0]) {
      await q.query('delete from approval_failures where counter_id = $1', [c.id]);
      await writeAudit(q, actor, 'approval.redeemed', target, `issued by ${taken[0].issued_by}, for ${what}`, now);
      return { by: taken[0].issued_by };
    }
    const r = (
      await q.query<{ branch: string; used_at: unknown; expires_at: unknown }>(
        'select branch, used_at, expires_at from approval_codes where code_hash = $1',
        [hashOf(code)],
      )
    )[0];
    const reason: ApprovalRefusal = !r
      ? 'unknown'
      : r.branch !== c.branch
        ? 'other-branch'
        : numOrNull(r.used_at) !== null
          ? 'used'
          : 'expired';
    // Unknown and other-branch codes are guesses as far as the counter may know: they count; a used or
    // lapsed code of its own branch was real (a retry, a slow cashier) and does not.
    if (reason === 'unknown' || reason === 'other-branch') {
      const f = await q.query<{ failures: unknown }>(
        `insert into approval_failures (counter_id, failures, locked_until) values ($1, 1, 0)
         on conflict (counter_id) do update set failures = approval_failures.failures + 1 returning failures`,
        [c.id],
      );
      const wait = waitAfter(num(f[0]!.failures), p);
      if (wait > 0)
        await q.query('update approval_failures set locked_until = $2 where counter_id = $1', [c.id, now + wait]);
    }
    await writeAudit(q, actor, 'approval.refused', target, `${reason}, for ${what}`, now);
    return { reason };
  });
  if ('by' in outcome) return outcome;
  throw fail('HUB_APPROVAL_REFUSED', 403, REFUSED[outcome.reason], { reason: outcome.reason });
}
