// A charge link (counterpay://charge?…, shared/integration.ts): opened by the Electron app when
// the operating system hands it one, or by the browser shell as an address. Checked like an API
// call — a paired system's signature with its key, within a time window — then charged through
// the same desk (same booking reference rules); the outcome goes to the link's returnUrl as
// signed callbacks. A link carries either form of the charge request: the single-type sale
// flattened into parameters, or the lines form's basket as JSON in one parameter, `lines`; both
// are read by the desk's one parse (charge-request.ts), a wrong line named under `lines.`.
import { safeEqual, signCallback } from '../../protocol/crypto';
import {
  CHARGE_LINK_LINES_FIELDS,
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
  const known = new Set<string>([
    'integration',
    'ts',
    'sig',
    'reference',
    'amountKobo',
    'returnUrl',
    'lines',
    ...CHARGE_LINK_SALE_FIELDS,
  ]);
  const unknown = [...params.keys()].filter((k) => !known.has(k));
  if (unknown.length)
    throw invalid(
      `The charge link has parameters CounterPay does not know: ${unknown.join(', ')}.`,
      Object.fromEntries(unknown.map((k) => [k, 'Not a charge link parameter'])),
    );
  const common = {
    reference: params.get('reference') ?? undefined,
    amountKobo: num('amountKobo'),
    ...(params.get('returnUrl') ? { callbackUrl: params.get('returnUrl') } : {}),
  };
  const lines = params.get('lines');
  if (lines === null) {
    const sale = Object.fromEntries(CHARGE_LINK_SALE_FIELDS.filter((k) => params.has(k)).map((k) => [k, num(k)]));
    return deps.desk.charge(integration, { ...common, sale }, 'link');
  }
  const beside = CHARGE_LINK_SALE_FIELDS.filter((k) => params.has(k));
  if (beside.length)
    throw invalid('A charge link carries either the sale fields (one ticket type) or lines, not both', {
      lines: `Leave ${beside.join(', ')} out of a link with lines (or send the sale fields without lines)`,
    });
  const body = { ...common, ...linesOf(lines) };
  if (body.amountKobo === undefined) delete body.amountKobo;
  try {
    return await deps.desk.charge(integration, body, 'link');
  } catch (e) {
    throw e instanceof IntegrationApiError && e.fields ? underLines(e) : e;
  }
}

const invalid = (message: string, fields: Record<string, string>) =>
  new IntegrationApiError(422, 'VALIDATION', message, fields);

const LINES_SHAPE = '{"tickets": {…}, "concessions": […]} as in the lines form of POST /v1/charges';

/** The `lines` parameter read as JSON: an object of the lines form's basket fields, nothing else. */
function linesOf(json: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    throw invalid('Check the charge link: its lines are not JSON', { lines: `Send the lines as JSON: ${LINES_SHAPE}` });
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw invalid('Check the charge link: its lines are not an object', {
      lines: `Send the lines as a JSON object: ${LINES_SHAPE}`,
    });
  const fields = new Set<string>(CHARGE_LINK_LINES_FIELDS);
  const other = Object.keys(v).filter((k) => !fields.has(k));
  if (other.length)
    throw invalid(
      'Check the charge link: its lines hold fields that are not lines',
      Object.fromEntries(
        other.map((k) => [
          `lines.${k.slice(0, 40)}`,
          `The lines hold ${CHARGE_LINK_LINES_FIELDS.join(', ')} only: reference, amountKobo and returnUrl are parameters of the link`,
        ]),
      ),
    );
  const o = v as Record<string, unknown>;
  return Object.fromEntries(CHARGE_LINK_LINES_FIELDS.filter((k) => k in o).map((k) => [k, o[k]]));
}

/** The desk's refusal of a lines link, each wrong line named where the link holds it: `lines.concessions.0.code`. */
function underLines(e: IntegrationApiError): IntegrationApiError {
  const inLines = (k: string) => (CHARGE_LINK_LINES_FIELDS as readonly string[]).includes(k.split('.')[0]!);
  const fields = Object.fromEntries(Object.entries(e.fields ?? {}).map(([k, m]) => [inLines(k) ? `lines.${k}` : k, m]));
  return new IntegrationApiError(e.status, e.code, e.message, fields, e.headers);
}
