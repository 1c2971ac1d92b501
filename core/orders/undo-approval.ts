// A supervisor's approval of an undo after the sale (docs/refunds.md), checked in the engine, below
// every door: the admin PIN through the settings' PIN guard (each try counted, locked after repeated
// failures), or a manager's one-time approval code redeemed at the Hub (`ApprovalCodes`, the Hub
// link's port). A refusal is audited in the log with who asked and for which sale, never the PIN or
// the code.
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { Approval, ApprovedBy } from '../../shared/refunds';

/** What an approval code is redeemed for: the undo it approves. */
export interface ApprovalWhat {
  kind: 'cancel' | 'exchange';
  /** The sale's number (`outOrderNo`). */
  reference: string;
  amountKobo: number;
  cashier: string;
}

/**
 * The Hub link's approval codes (core/hub-link implements it): redeems a one-time code for one undo
 * and says who issued it; throws an AppError when the code is unknown, used or expired, or the Hub
 * cannot be reached.
 */
export interface ApprovalCodes {
  redeem(code: string, what: ApprovalWhat): Promise<{ by: string }>;
}

/** What the approval takes: the admin PIN's check (settings), the Hub's codes when this counter has a Hub link. */
export interface ApprovalDeps {
  /** Resolves when the admin PIN is right; throws PIN_WRONG, PIN_LOCKED or PIN_NOT_SET. */
  checkPin: (pin: string) => Promise<void>;
  /** The Hub link's approval codes (null or left out: no Hub link, codes are refused). */
  approvalCodes?: () => ApprovalCodes | null;
}

export const PIN_APPROVER = 'Admin PIN';
export const CODES_NEED_HUB = 'Approval codes need the Hub; use the admin PIN';

/** Checks a supervisor's approval for `what`; the approval as the trace records it, or the refusal (audited). */
export async function approve(
  deps: ApprovalDeps,
  logger: Logger,
  approval: Approval,
  what: ApprovalWhat,
  now: () => number,
): Promise<ApprovedBy> {
  const how = 'pin' in approval ? 'pin' : 'code';
  try {
    if ('pin' in approval) {
      await deps.checkPin(approval.pin);
      return { how: 'pin', by: PIN_APPROVER, at: now() };
    }
    const codes = deps.approvalCodes?.() ?? null;
    if (!codes) throw new AppError('NOT_READY', CODES_NEED_HUB);
    const { by } = await codes.redeem(approval.code, what);
    return { how: 'code', by, at: now() };
  } catch (e) {
    logger.warn('undo refused: approval not given', {
      kind: what.kind,
      reference: what.reference,
      cashier: what.cashier,
      how,
      why: e instanceof Error ? e.message : String(e),
    });
    throw e;
  }
}
