// A manager's one-time approval code, redeemed at the Hub (`POST /api/v1/approvals/redeem`) for one
// undo after the sale (a cancel or an exchange: docs/refunds.md). The engine asks through its
// `ApprovalCodes` port (core/orders); this is the Hub link's side, structurally the same. The Hub
// refuses a code unknown, used, expired or of another branch (and makes a counter that keeps trying
// wrong codes wait), auditing each; the cashier is told the Hub's words. Without a Hub: null.
import { AppError } from '../../shared/errors';
import { RedeemApprovalResponseSchema, APPROVAL_REDEEM_PATH } from '../../shared/hub-refunds-contract';
import { formatNaira } from '../../shared/money';
import { HubCallError, type HubClient } from './link-client';
import type { HubConnectionSource } from './link-types';

/** What a code is redeemed for (as core/orders' ApprovalWhat): told to the Hub for its audit. */
export interface HubApprovalWhat {
  kind: 'cancel' | 'exchange';
  reference: string;
  amountKobo: number;
  cashier: string;
}

/** The Hub link's approval codes: `redeem` resolves with the issuing manager's name, or throws an AppError. */
export interface HubApprovalCodes {
  redeem(code: string, what: HubApprovalWhat): Promise<{ by: string }>;
}

const REDEEM_TIMEOUT_MS = 8_000;

/** "cancel COU1-261207-0004, ₦4,500.00, asked by Ada": what the Hub's audit says the code was for. */
export const approvalWhatText = (w: HubApprovalWhat): string =>
  `${w.kind} ${w.reference}, ${formatNaira(w.amountKobo)}, asked by ${w.cashier}`.slice(0, 200);

export function hubApprovalCodes(d: { connection: HubConnectionSource; client: HubClient }): HubApprovalCodes | null {
  if (!d.connection()) return null;
  return {
    async redeem(code, what) {
      const c = d.connection();
      if (!c) throw new AppError('NOT_READY', 'Approval codes need the Hub; use the admin PIN');
      try {
        return await d.client.call(
          c,
          'POST',
          APPROVAL_REDEEM_PATH,
          { code: code.trim(), what: approvalWhatText(what) },
          RedeemApprovalResponseSchema,
          { timeoutMs: REDEEM_TIMEOUT_MS },
        );
      } catch (e) {
        throw approvalRefusal(e);
      }
    },
  };
}

/** The cashier's words for a code the Hub refused or could not check. */
function approvalRefusal(e: unknown): unknown {
  if (!(e instanceof HubCallError)) return e;
  switch (e.code) {
    case 'HUB_APPROVAL_REFUSED':
      return new AppError('HUB_REFUSED', e.message, {
        reason: e.details.reason,
        fields: { code: e.message },
      });
    case 'HUB_RATE_LIMITED':
      return new AppError(
        'HUB_REFUSED',
        'Too many wrong approval codes from this counter: wait a minute, or use the admin PIN.',
        { retryAfterMs: e.details.retryAfterMs },
      );
    case 'HUB_UNREACHABLE':
    case 'HUB_BAD_ANSWER':
      return new AppError(
        'HUB_UNREACHABLE',
        'The Hub could not be reached to check the approval code: try again, or use the admin PIN.',
        { reason: e.message },
      );
    default:
      return new AppError('HUB_REFUSED', `The Hub did not accept the approval code: ${e.message}`, {
        hubCode: e.code,
      });
  }
}
