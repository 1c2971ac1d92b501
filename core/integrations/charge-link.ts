// A charge link (counterpay://charge?…, shared/integration.ts): opened by the Electron app when
// the operating system hands it one, or by the browser shell as an address. Checked like an API
// call — a paired system's signature with its key, within a time window — then charged through
// the same desk (same booking reference rules); the outcome goes to the link's returnUrl as
// signed callbacks.
import { safeEqual, signCallback } from '../../protocol/crypto';
import {
  CHARGE_LINK_NUMBERS,
  CHARGE_LINK_PREFIX,
  CHARGE_LINK_SALE_FIELDS,
  CHARGE_LINK_WINDOW_MS,
  chargeLinkSigned,
} from '../../shared/integration';
import type { ChargeAnswer, ChargeDesk } from './charge-desk';
import { IntegrationApiError } from './integration-errors';
import type { IntegrationStore } from './integration-store';

interface ChargeLinkDeps {
  store: IntegrationStore;
  desk: ChargeDesk;
  keyOf: (integrationId: string) => string | null;
  now: () => number;
}

const refused = (message: string) => new IntegrationApiError(401, 'NOT_AUTHENTICATED', message);

export async function openChargeLink(deps: ChargeLinkDeps, link: string): Promise<ChargeAnswer> {
  if (!link.startsWith(`${CHARGE_LINK_PREFIX}?`)) {
    throw new IntegrationApiError(
      422,
      'VALIDATION',
      `A charge link starts with ${CHARGE_LINK_PREFIX}? (see docs/integration.md).`,
      { url: 'Not a charge link' },
    );
  }
  const params = new URLSearchParams(link.slice(CHARGE_LINK_PREFIX.length + 1));
  const id = params.get('integration') ?? '';
  const integration = /^[a-f0-9]{12}$/.test(id) ? deps.store.integration(id) : null;
  const key = integration && integration.revokedAt === null ? deps.keyOf(integration.id) : null;
  const ts = params.get('ts') ?? '';
  const sig = params.get('sig') ?? '';
  if (!integration || !key) throw refused('This charge link does not come from a paired system (or it was unpaired).');
  if (!/^\d{1,16}$/.test(ts) || Math.abs(deps.now() - Number(ts)) > CHARGE_LINK_WINDOW_MS)
    throw refused('This charge link is too old (or its clock is wrong): ask the box office for a new one.');
  if (!safeEqual(signCallback(key, ts, chargeLinkSigned(params.entries())), sig))
    throw refused('This charge link is not signed by its system’s key.');
  const num = (k: string) => {
    const v = params.get(k);
    return v !== null && CHARGE_LINK_NUMBERS.has(k) && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : (v ?? undefined);
  };
  const sale = Object.fromEntries(CHARGE_LINK_SALE_FIELDS.filter((k) => params.has(k)).map((k) => [k, num(k)]));
  const known = new Set<string>([
    'integration',
    'ts',
    'sig',
    'reference',
    'amountKobo',
    'returnUrl',
    ...CHARGE_LINK_SALE_FIELDS,
  ]);
  const unknown = [...params.keys()].filter((k) => !known.has(k));
  if (unknown.length)
    throw new IntegrationApiError(
      422,
      'VALIDATION',
      `The charge link has parameters CounterPay does not know: ${unknown.join(', ')}.`,
      Object.fromEntries(unknown.map((k) => [k, 'Not a charge link parameter'])),
    );
  const body = {
    reference: params.get('reference') ?? undefined,
    amountKobo: num('amountKobo'),
    sale,
    ...(params.get('returnUrl') ? { callbackUrl: params.get('returnUrl') } : {}),
  };
  return deps.desk.charge(integration, body, 'link');
}
