// The Single tab's form as typed, checked here for immediate feedback with the same shared rules
// main applies again (main has the last word): the phone number, the provider, the amount bounds.
import {
  AIRTIME_BOUNDS,
  boundsText,
  checkAmount,
  checkBettingCustomerId,
  networkName,
  normalizeNigerianMobile,
  type AirtimeNetwork,
  type AmountBounds,
  type BettingProviderView,
  type ServiceType,
  type TopupView,
} from '../../../shared/topups';

export interface SingleDraft {
  serviceType: ServiceType;
  network: AirtimeNetwork | '';
  phone: string;
  provider: string;
  customerId: string;
  amount: string;
}

export type SingleField = 'network' | 'phone' | 'provider' | 'customerId' | 'amount';

export function emptySingle(serviceType: ServiceType = 'airtime'): SingleDraft {
  return { serviceType, network: '', phone: '', provider: '', customerId: '', amount: '' };
}

interface SingleCheck {
  errors: Partial<Record<SingleField, string>>;
  /** "+234 803 123 4567" once the number is good. */
  phoneDisplay: string | null;
  amountKobo: number | null;
  bounds: AmountBounds;
  boundsHint: string;
  provider: BettingProviderView | null;
}

export function checkSingle(d: SingleDraft, providers: BettingProviderView[]): SingleCheck {
  const errors: SingleCheck['errors'] = {};
  let phoneDisplay: string | null = null;
  let provider: BettingProviderView | null = null;
  let bounds: AmountBounds;
  let who: string;
  if (d.serviceType === 'airtime') {
    if (!d.network) errors.network = 'Choose the network';
    const p = normalizeNigerianMobile(d.phone);
    if (p.ok) phoneDisplay = p.display;
    else errors.phone = p.reason;
    bounds = AIRTIME_BOUNDS;
    who = d.network ? `${networkName(d.network)} airtime` : 'Airtime';
  } else {
    provider = providers.find((p) => p.provider === d.provider) ?? null;
    if (!provider)
      errors.provider = providers.length ? 'Choose the betting provider' : 'The providers list is empty: refresh it';
    const id = checkBettingCustomerId(d.customerId);
    if (!id.ok) errors.customerId = id.reason;
    bounds = { minKobo: provider?.minAmountKobo ?? null, maxKobo: provider?.maxAmountKobo ?? null };
    who = provider?.provider ?? 'Betting';
  }
  const a = checkAmount(d.amount, bounds, who);
  if (!a.ok) errors.amount = a.reason;
  return { errors, phoneDisplay, amountKobo: a.ok ? a.kobo : null, bounds, boundsHint: boundsText(bounds), provider };
}

/** Main's field names -> the form's. */
export function formFieldOf(serverField: string, serviceType: ServiceType): SingleField | null {
  if (serverField === 'amount') return 'amount';
  if (serverField === 'customerId') return serviceType === 'airtime' ? 'phone' : 'customerId';
  if (serverField === 'provider') return serviceType === 'airtime' ? 'network' : 'provider';
  return null;
}

/** A view that arrives late (an answer after its event) must not undo a newer one. */
export function newerTopup(current: TopupView | null, incoming: TopupView): TopupView {
  if (!current || current.id !== incoming.id) return incoming;
  const final = (s: TopupView['state']) => s === 'success' || s === 'fail' || s === 'not_sent' || s === 'cancelled';
  if (final(current.state) && !final(incoming.state)) return current;
  return incoming.updatedAt >= current.updatedAt || final(incoming.state) ? incoming : current;
}
