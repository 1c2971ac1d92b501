// A box office's charge request read in either of its two forms: the single-type form (`sale`:
// one ticket type, the amount cross-checked, unchanged since the API began) and the lines form (a
// basket: tickets for one show with a ticket type per seat, concession lines, paid by card). A body
// with `sale` is the first, any other the second. Each form has its own request hash (what makes
// the same booking reference the same charge); a single-type request hashes as it always has.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../protocol/crypto';
import { MAX_CONCESSION_LINES, type BasketAmounts } from '../../shared/basket';
import { ChargeLinesRequestSchema, ChargeRequestSchema, type ChargeLines } from '../../shared/integration';
import { formatNaira } from '../../shared/money';
import { MAX_TICKETS, saleAmounts, SaleInputSchema } from '../../shared/orders';
import { IntegrationApiError, fieldsOf } from './integration-errors';

type SaleForm = ReturnType<typeof ChargeRequestSchema.parse>;

/** The request in one of its forms, shaped but not yet checked against the counter's programme or catalogue. */
export type ParsedCharge = ({ form: 'sale' } & SaleForm) | ({ form: 'lines' } & ChargeLines);

const invalid = (message: string, fields: Record<string, string>) =>
  new IntegrationApiError(422, 'VALIDATION', message, fields);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An array over its cap is refused before its elements are read: a hostile body (a thousand
 * empty lines) gets one message, not one per element.
 */
function refuseHugeArrays(body: Record<string, unknown>): void {
  const concessions = body.concessions;
  if (Array.isArray(concessions) && concessions.length > MAX_CONCESSION_LINES)
    throw invalid('Check the charge request: some fields need fixing', {
      concessions: `At most ${MAX_CONCESSION_LINES} concession lines in one charge (${concessions.length} sent)`,
    });
  const seats = isObject(body.tickets) ? body.tickets.seats : undefined;
  if (Array.isArray(seats) && seats.length > MAX_TICKETS)
    throw invalid('Check the charge request: some fields need fixing', {
      'tickets.seats': `At most ${MAX_TICKETS} tickets in one sale (${seats.length} sent): split larger groups into several charges`,
    });
}

/** Parses the request in its form; VALIDATION with one message per field (by its dotted path). */
export function parseCharge(body: unknown): ParsedCharge {
  if (isObject(body) && 'sale' in body) {
    if ('tickets' in body || 'concessions' in body || 'tender' in body)
      throw invalid('Send either sale (one ticket type) or the lines (tickets, concessions), not both', {
        sale: 'Leave sale out when the request has tickets or concessions lines (or send sale alone)',
      });
    const r = ChargeRequestSchema.safeParse(body);
    if (!r.success) throw invalid('Check the charge request: some fields need fixing', fieldsOf(r.error.issues));
    return { form: 'sale', ...r.data };
  }
  if (isObject(body)) refuseHugeArrays(body);
  const r = ChargeLinesRequestSchema.safeParse(body);
  if (!r.success) throw invalid('Check the charge request: some fields need fixing', fieldsOf(r.error.issues));
  return { form: 'lines', ...r.data };
}

/** The single-type sale checked by the Sell form's rules, with the amount cross-checked. */
export function checkedSale(req: SaleForm, sn: string): Record<string, unknown> {
  const r = SaleInputSchema.safeParse({ ...req.sale, sn });
  if (!r.success)
    throw new IntegrationApiError(
      422,
      'VALIDATION',
      'Check the sale: some fields need fixing',
      fieldsOf(r.error.issues, 'sale'),
    );
  const expected = saleAmounts(r.data).amountKobo;
  if (expected !== req.amountKobo) {
    throw new IntegrationApiError(422, 'VALIDATION', 'The amount does not match the sale', {
      amountKobo: `The amount is ${formatNaira(req.amountKobo)} but ${r.data.tickets} ticket(s) at ${formatNaira(r.data.priceKobo)} plus a booking fee of ${formatNaira(r.data.bookingFeeKobo)} make ${formatNaira(expected)}: check the price and the fee`,
    });
  }
  return r.data;
}

/** The basket a lines request sells (the terminal's serial number added by the desk). */
export function basketOf(
  req: ChargeLines,
): Pick<ChargeLines, 'tickets' | 'concessions'> & { tender: { kind: 'card' } } {
  return { ...(req.tickets ? { tickets: req.tickets } : {}), concessions: req.concessions, tender: { kind: 'card' } };
}

/** The single-type form's hash, as it has always been (amount and the checked sale, without the terminal). */
export function saleHash(amountKobo: number, sale: Record<string, unknown>): string {
  const { sn: _sn, ...rest } = sale;
  return createHash('sha256')
    .update(canonicalJson({ amountKobo, sale: rest }), 'utf8')
    .digest('hex');
}

/** The lines form's hash: the basket as read (codes and seats in capitals), and the amount when sent. */
export function linesHash(req: ChargeLines): string {
  const choices = (c: Record<string, string>) =>
    Object.fromEntries(Object.entries(c).map(([k, v]) => [k.toLowerCase(), v]));
  return createHash('sha256')
    .update(
      canonicalJson({
        form: 'lines',
        amountKobo: req.amountKobo ?? null,
        tickets: req.tickets ?? null,
        concessions: req.concessions.map((l) => ({ ...l, choices: choices(l.choices) })),
      }),
      'utf8',
    )
    .digest('hex');
}

/** What the engine's pricing of a basket answers (the checkout's `priceBasket`; nothing recorded). */
type Priced = { ok: true; amounts: BasketAmounts } | { ok: false };

/**
 * A lines request's `amountKobo`, when sent, against the basket as the counter prices it: another
 * total is refused before anything is recorded (a basket with a wrong line is left to the
 * checkout, which names each line).
 */
export function checkLinesAmount(req: ParsedCharge, price: (basket: unknown) => Priced): void {
  if (req.form !== 'lines' || req.amountKobo === undefined) return;
  const p = price(basketOf(req));
  if (!p.ok || p.amounts.totalKobo === req.amountKobo) return;
  const a = p.amounts;
  throw invalid('The amount does not match the basket', {
    amountKobo: `The amount is ${formatNaira(req.amountKobo)} but the basket makes ${formatNaira(a.totalKobo)} at the counter's prices (tickets ${formatNaira(a.ticketsKobo)}, booking fee ${formatNaira(a.bookingFeeKobo)}, concessions ${formatNaira(a.concessionsKobo)}): check the prices`,
  });
}
