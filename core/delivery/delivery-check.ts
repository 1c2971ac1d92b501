// Asking the provider how its notification of a paid order reached our webhook receiver
// (depositStatisticAccountCallBack), and saying what its answer means in plain words. A read-only
// question: no failure here changes an order, so errors say "nothing changed" instead of the
// payment calls' "check before trying again".
import type { DeliveryCheck, DeliveryOutcome } from '../../shared/contract-delivery';
import { AppError, isAppError } from '../../shared/errors';
import type { OrderView } from '../../shared/orders';
import { PROFILE_LABELS } from '../../shared/settings';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { Logger } from '../../shared/logger';
import type { PosClient } from '../provider';

const MAX_TEXT = 300;
/** What providers (and our sandbox) say when no webhook address is registered for the merchant. */
const NOT_REGISTERED =
  /no\s+(webhook|callback|notify|notification)?\s*(url|address)|(url|address)\s+(is\s+)?(not\s+(set|configured|registered)|missing|empty)|not\s+registered|not\s+configured/i;

/**
 * What the provider's httpCode/httpMessage mean; throws PROVIDER_BAD_RESPONSE for a code that is not one.
 * @internal for tests
 */
export function judgeDelivery(raw: { httpCode: string; httpMessage: string }): {
  outcome: DeliveryOutcome;
  httpCode: string;
  httpMessage: string;
  summary: string;
} {
  const code = raw.httpCode.trim();
  const message = raw.httpMessage.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  const said = message ? ` (“${message}”)` : '';
  if (code === '') {
    if (NOT_REGISTERED.test(message)) {
      return {
        outcome: 'not-registered',
        httpCode: '',
        httpMessage: message,
        summary: `Not registered: the provider has no webhook address for this merchant${said}. Register the receiver’s public address in the provider’s dashboard.`,
      };
    }
    return {
      outcome: 'not-delivered',
      httpCode: '',
      httpMessage: message,
      summary: `Not delivered: the provider has no answer from our receiver${said || ' (it has not tried yet)'}. Payments are still followed by status checks.`,
    };
  }
  if (!/^[1-5]\d\d$/.test(code)) {
    throw new AppError(
      'PROVIDER_BAD_RESPONSE',
      `The provider’s answer about the webhook delivery has an HTTP code this app cannot read (“${code.slice(0, 20)}”). Nothing was changed. If it repeats, tell the provider’s support.`,
      { op: 'pos.depositCallbackStatus', reason: 'schema', httpCode: code.slice(0, 40), outcomeUnknown: false },
    );
  }
  if (code.startsWith('2')) {
    return {
      outcome: 'delivered',
      httpCode: code,
      httpMessage: message,
      summary: `HTTP ${code}: our receiver accepted the notification${said}.`,
    };
  }
  return {
    outcome: 'refused',
    httpCode: code,
    httpMessage: message,
    summary: `Not delivered: our receiver answered HTTP ${code}${said}. Check the receiver’s settings and keys, or the address registered with the provider.`,
  };
}

/** The provider's failure, reworded for a question that changes nothing. */
function deliveryError(e: unknown): AppError {
  if (!isAppError(e))
    return new AppError(
      'INTERNAL',
      'The webhook delivery could not be checked because of a fault in this app. Nothing was changed.',
      { error: String(e) },
    );
  const d = { ...e.details, outcomeUnknown: false };
  const providerSaid = (code: unknown, msg: unknown) =>
    typeof code === 'string'
      ? ` The provider said: “${typeof msg === 'string' ? msg.slice(0, 200) : ''}” (code ${code}).`
      : '';
  switch (e.code) {
    case 'PROVIDER_UNREACHABLE':
    case 'PROVIDER_TIMEOUT':
      return new AppError(
        e.code,
        'Could not ask the provider about the webhook delivery: it could not be reached or did not answer in time. Nothing was changed. Check the internet connection and the POS API address in Settings, then check again.',
        d,
      );
    case 'PROVIDER_AUTH':
      return new AppError(
        e.code,
        `The provider refused the question because of our credentials.${providerSaid(e.details?.providerCode, e.details?.providerMessage)} Check the keys and merchant ids in Settings (and this computer’s clock).`,
        d,
      );
    case 'PROVIDER_REFUSED':
      return new AppError(
        e.code,
        `The provider refused the question.${providerSaid(e.details?.providerCode, e.details?.providerMessage)} Nothing was changed.`,
        d,
      );
    case 'PROVIDER_BAD_RESPONSE':
      if (e.details?.reason === 'unauthenticated') {
        return new AppError(
          e.code,
          `The provider’s answer about the webhook delivery was not signed with its key, so it was not trusted.${providerSaid(e.details?.unverifiedProviderCode, e.details?.unverifiedProviderMessage)} Nothing was changed. If it repeats, check the provider public key in Settings.`,
          d,
        );
      }
      return new AppError(
        e.code,
        e.details?.httpCode !== undefined
          ? e.message
          : 'The provider’s answer about the webhook delivery could not be read. Nothing was changed. If it repeats, tell the provider’s support.',
        d,
      );
    case 'PROVIDER_HTTP':
      return new AppError(
        e.code,
        `The provider answered the question with HTTP ${String(e.details?.httpStatus ?? '?')}. Nothing was changed. Check the POS API address in Settings; if it persists, tell the provider’s support.`,
        d,
      );
    default:
      return e;
  }
}

interface DeliveryDeps {
  db: Db;
  pos: PosClient;
  clock: Clock;
  logger: Logger;
  order: (id: number) => OrderView | null;
  activeProfile: () => 'demo' | 'sandbox' | 'production';
}

export function createDeliveryChecks(d: DeliveryDeps) {
  function receivedHere(orderNo: string): number | null {
    const table = d.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'webhook_events'").get();
    if (!table) return null;
    const r = d.db
      .prepare("SELECT MIN(received_at) AS at FROM webhook_events WHERE kind = 'pos' AND order_no = ?")
      .get(orderNo) as { at: number | null };
    return r.at;
  }

  async function check(orderId: number): Promise<DeliveryCheck> {
    const o = d.order(orderId);
    if (!o) throw new AppError('NOT_FOUND', `There is no order ${orderId} on this counter.`, { orderId });
    if (!o.orderNo) {
      throw new AppError(
        'CONFLICT',
        'The provider never confirmed this order, so it has sent no notification about it. Nothing to check.',
        { orderId, state: o.state },
      );
    }
    const active = d.activeProfile();
    // Another profile's order lives at another provider (or the Demo sandbox): asking this one would only confuse.
    if (o.profile && o.profile !== 'unrecorded' && o.profile !== active) {
      throw new AppError(
        'CONFLICT',
        `This order was made under the ${PROFILE_LABELS[o.profile]} profile; switch to it to ask that provider.`,
        { orderId, profile: o.profile, active },
      );
    }
    let raw: { httpCode: string; httpMessage: string };
    try {
      raw = await d.pos.depositCallbackStatus({ opayOrderNo: o.orderNo });
    } catch (e) {
      d.logger.warn('webhook delivery check failed', { orderId, code: isAppError(e) ? e.code : 'INTERNAL' });
      throw deliveryError(e);
    }
    const judged = judgeDelivery(raw);
    d.logger.info('webhook delivery checked', { orderId, outcome: judged.outcome, httpCode: judged.httpCode });
    return {
      orderId,
      outOrderNo: o.outOrderNo,
      orderNo: o.orderNo,
      ...judged,
      receivedHereAt: receivedHere(o.orderNo),
      checkedAt: d.clock.now(),
    };
  }

  return {
    check,
    /** The newest paid order of the active profile (older rows of unknown profile count for a real one). */
    async checkLastPaid(): Promise<DeliveryCheck> {
      const active = d.activeProfile();
      const profiles = active === 'demo' ? ['demo'] : [active, 'unrecorded'];
      const row = d.db
        .prepare(
          `SELECT id FROM orders WHERE state = 'paid' AND order_no IS NOT NULL AND profile IN (${profiles.map(() => '?').join(',')}) ORDER BY created_at DESC, id DESC LIMIT 1`,
        )
        .get(...profiles) as { id: number } | undefined;
      if (!row)
        throw new AppError(
          'NOT_FOUND',
          `There is no paid order under the ${PROFILE_LABELS[active]} profile yet. Sell one, then check again.`,
          { profile: active },
        );
      return check(row.id);
    },
  };
}
