// Single top-ups: the providers list, the customer check of a betting account, a top-up checked,
// journaled and sent at once, its "Check now", and the bills callbacks that settle items early.
import { AppError, isAppError, issueFields, validationError } from '../../shared/errors';
import {
  TOPUP_INVALID,
  TopupInputSchema,
  checkBettingCustomerId,
  type ProvidersView,
  type TopupView,
  type ValidatedCustomer,
} from '../../shared/topups';
import type { TopupStatus } from '../provider';
import type { BillsCallbackEvent } from '../webhook';
import { fullName } from './customer-check';
import { counterCode, lagosDayCode } from '../orders';
import { toView } from './topup-rows';
import { checkTopup, findBettingProvider } from './topup-input';
import type { BillsClient } from '../provider';
import type { ProvidersCache } from './providers-cache';
import type { TopupEngine } from './topup-engine';
import type { TopupRun } from './topup-run';

const TOPUP_STATUSES = new Set<string>(['INITIAL', 'PENDING', 'SUCCESS', 'FAIL']);

export interface SingleTopupsDeps {
  run: TopupRun;
  /** May throw PROVIDER_NOT_CONFIGURED. */
  bills: () => BillsClient;
  cache: ProvidersCache;
  engine: TopupEngine;
  /** The providers list is fetched again before checking a top-up when older than this. */
  providersMaxAgeMs: number;
}

export function createSingleTopups({ run, bills, cache, engine, providersMaxAgeMs }: SingleTopupsDeps) {
  const { logger, now, journal } = run;
  /** Customer names the provider gave for checked betting accounts (provider NUL customer id). */
  const named = new Map<string, string>();

  function onCallback(cb: BillsCallbackEvent): void {
    const o = run.owner();
    const rec = journal.byReference(o.billsMerchantId, cb.reference);
    if (!rec) {
      logger.info('bills callback for a reference this counter does not have', {
        reference: cb.reference,
        orderNo: cb.orderNo,
      });
      return;
    }
    if (rec.orderNo && cb.orderNo && rec.orderNo !== cb.orderNo) {
      logger.warn('bills callback names another order for our reference; ignored', {
        reference: cb.reference,
        orderNo: cb.orderNo,
        ours: rec.orderNo,
      });
      return;
    }
    if (cb.amountKobo !== rec.amountKobo) {
      // Not this top-up as we sent it (to the kobo): it settles only from the provider's status answer.
      logger.error('bills callback amount differs from the top-up; not used to settle it', {
        reference: cb.reference,
        amountKobo: cb.amountKobo,
        ours: rec.amountKobo,
      });
      return;
    }
    const status = TOPUP_STATUSES.has(cb.status) ? (cb.status as TopupStatus) : null;
    if (!status) return;
    engine.settleFromCallback(rec, {
      orderNo: cb.orderNo || null,
      reference: cb.reference,
      status,
      errorMsg: cb.errorMsg,
    });
  }

  return {
    providers: (): ProvidersView => cache.view(),

    async refreshProviders(): Promise<ProvidersView> {
      return cache.refresh();
    },

    async checkCustomer(input: { provider: string; customerId: string }): Promise<ValidatedCustomer> {
      const id = checkBettingCustomerId(input.customerId);
      const fields: Record<string, string> = {};
      if (!id.ok) fields.customerId = id.reason;
      const list = await cache.list(providersMaxAgeMs);
      const p = list.providers ? findBettingProvider(list.providers, input.provider) : null;
      if (!p) fields.provider = list.providers ? 'Choose the betting provider from the list' : list.missingReason;
      if (!id.ok || !p) throw validationError(fields, 'Check the customer: some fields need fixing');
      try {
        const c = await bills().validate({ provider: p.provider, customerId: id.value });
        named.set(`${p.provider}\u0000${id.value}`, fullName(c));
        if (named.size > 500) named.delete(named.keys().next().value as string);
        return c;
      } catch (err) {
        if (isAppError(err) && err.code === 'PROVIDER_REFUSED') {
          const said = typeof err.details?.providerMessage === 'string' ? err.details.providerMessage : err.message;
          throw validationError(
            { customerId: `${p.provider} does not know this customer id (${said})` },
            `${p.provider} does not know the customer ${id.value}.`,
          );
        }
        throw err;
      }
    },

    /** Checks and journals one top-up, starts sending it, and answers at once (state `sending`). */
    async submit(input: unknown): Promise<TopupView> {
      if (run.stopped) throw new AppError('NOT_READY', 'Top-ups are shutting down; try again in a moment.');
      const parsed = TopupInputSchema.safeParse(input);
      if (!parsed.success) throw validationError(issueFields(parsed.error.issues, { root: 'topup' }), TOPUP_INVALID);
      const id = run.requireOwner('topups.submit');
      bills(); // refuse now, with the client's own message, when the provider is not set up
      const v = parsed.data;
      const list =
        v.serviceType === 'betting' ? await cache.list(providersMaxAgeMs) : { providers: [], missingReason: '' };
      const check = checkTopup(
        { type: v.serviceType, provider: v.provider, customerId: v.customerId, amount: v.amount },
        list,
      );
      if (!check.ok) {
        const fields: Record<string, string> = {};
        for (const [k, m] of Object.entries(check.problems)) fields[k === 'type' ? 'serviceType' : k] = m;
        throw validationError(fields, TOPUP_INVALID);
      }
      const c = check.value;
      const rec = journal.insertSingle(
        id,
        counterCode(id.counterName),
        lagosDayCode(now()),
        {
          ...c,
          customerName: c.serviceType === 'betting' ? (named.get(`${c.provider}\u0000${c.customerId}`) ?? null) : null,
        },
        'Top-up recorded; sending it to the provider',
      );
      logger.info('top-up recorded', {
        id: rec.id,
        reference: rec.reference,
        serviceType: rec.serviceType,
        provider: rec.provider,
        amountKobo: rec.amountKobo,
      });
      run.emitItems([rec]);
      void engine.sendNow(rec);
      return toView(rec);
    },

    get: (id: number): TopupView => toView(run.item(id)),

    async checkNow(id: number): Promise<TopupView> {
      const rec = run.item(id);
      await engine.checkNow(rec);
      return toView(run.item(id));
    },

    /** Today's single top-ups, newest first. */
    recent: (): TopupView[] => journal.singlesOfDay(lagosDayCode(now()), 30).map(toView),

    history: (id: number) => journal.history(run.item(id).id),

    onCallback,
  };
}
