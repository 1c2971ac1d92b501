// Checks one top-up as typed (the Single form or one row of a batch file): the service, the
// provider, the phone number or customer id, the amount against its bounds. Nothing is sent
// for a top-up that fails here.
import {
  AIRTIME_BOUNDS,
  airtimeNetworkOf,
  checkAmount,
  checkBettingCustomerId,
  networkName,
  normalizeNigerianMobile,
  type BettingProviderView,
  type ServiceType,
} from '../../shared/topups';

type TopupField = 'type' | 'provider' | 'customerId' | 'amount';

export interface CheckedTopup {
  serviceType: ServiceType;
  provider: string;
  customerId: string;
  amountKobo: number;
}

/** The betting providers as last fetched; null when no list could ever be loaded. */
export interface ProviderList {
  providers: BettingProviderView[] | null;
  /** Why there is no list (shown on betting rows). */
  missingReason: string;
}

type TopupCheck = { ok: true; value: CheckedTopup } | { ok: false; problems: Partial<Record<TopupField, string>> };

export function findBettingProvider(list: BettingProviderView[], name: string): BettingProviderView | null {
  const want = name.trim().toUpperCase();
  return list.find((p) => p.provider.toUpperCase() === want) ?? null;
}

export function checkTopup(
  input: { type: string; provider: string; customerId: string; amount: string },
  providers: ProviderList,
): TopupCheck {
  const problems: Partial<Record<TopupField, string>> = {};
  const type = input.type.trim().toLowerCase();
  if (type !== 'airtime' && type !== 'betting') {
    problems.type =
      input.type.trim() === ''
        ? 'Write airtime or betting'
        : `"${input.type.trim()}" is not a top-up type: write airtime or betting`;
    return { ok: false, problems };
  }
  let provider = '';
  let customerId = '';
  let amountKobo = 0;
  if (type === 'airtime') {
    const net = airtimeNetworkOf(input.provider);
    if (!net) {
      problems.provider =
        input.provider.trim() === ''
          ? 'Choose the network: MTN, Airtel, Glo or 9mobile'
          : `"${input.provider.trim()}" is not a network: write MTN, AIR (Airtel), GLO (Glo) or ETI (9mobile)`;
    } else provider = net;
    const phone = normalizeNigerianMobile(input.customerId);
    if (phone.ok) customerId = phone.e164;
    else problems.customerId = phone.reason;
    const amount = checkAmount(input.amount, AIRTIME_BOUNDS, net ? `${networkName(net)} airtime` : 'Airtime');
    if (amount.ok) amountKobo = amount.kobo;
    else problems.amount = amount.reason;
  } else {
    const id = checkBettingCustomerId(input.customerId);
    if (id.ok) customerId = id.value;
    else problems.customerId = id.reason;
    const list = providers.providers;
    const found = list ? findBettingProvider(list, input.provider) : null;
    if (!list) problems.provider = providers.missingReason;
    else if (input.provider.trim() === '') problems.provider = 'Choose the betting provider';
    else if (!found)
      problems.provider = `"${input.provider.trim()}" is not a betting provider here (${list.map((p) => p.provider).join(', ') || 'the list is empty'})`;
    else provider = found.provider;
    const amount = checkAmount(
      input.amount,
      { minKobo: found?.minAmountKobo ?? null, maxKobo: found?.maxAmountKobo ?? null },
      found ? found.provider : 'Betting',
    );
    if (amount.ok) amountKobo = amount.kobo;
    else problems.amount = amount.reason;
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, value: { serviceType: type, provider, customerId, amountKobo } };
}
