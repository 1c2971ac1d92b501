// The charge desk: a box office's request for a charge becomes an ordinary sale through the
// checkout, once per booking reference. The reference → order link is written inside the
// order's own transaction, so a crash leaves both or neither; the same reference again answers
// the same charge, another sale under it is refused. Charges are read from the order journal.
// The checkout's rules hold here as at every door: no shift, NO_SHIFT (409); a busy terminal, the
// charge waits its turn (`queued`) and goes to the terminal once it is free — never beside
// another unpaid order — and gives way to the cashier's own sale; a full queue (CHARGE_QUEUE_LIMITS)
// refuses it, 429 QUEUE_FULL (charge-queue.ts).
import { isAppError } from '../../shared/errors';
import { CANCELLED_AT_COUNTER, type ChargeView } from '../../shared/integration';
import { issueFields } from '../../shared/errors';
import { formatNaira } from '../../shared/money';
import { lateAt } from '../../shared/late-payments';
import { isFinalState, TERMINAL_CHANGED, type OrderView } from '../../shared/orders';
import { seatList } from '../../shared/seat-list';
import type { OrderEvents, OrderReads, SaleDoors, UndoService } from '../orders';
import { ChargeRefundRequestSchema } from '../../shared/integration';
import type { RefundView, SaleLinks } from '../../shared/refunds';
import type { ChargeRow, ChargeSource, IntegrationRow, IntegrationStore } from './integration-store';
import { IntegrationApiError } from './integration-errors';
import {
  basketOf,
  checkedSale,
  checkLinesAmount,
  linesHash,
  parseCharge,
  saleHash,
  type ParsedCharge,
} from './charge-request';
import { checkChargeCallback } from './callback-rule';
import type { ChargeQueue } from './charge-queue';

export interface ChargeDeskDeps {
  store: IntegrationStore;
  checkout: Pick<SaleDoors, 'sell' | 'cancelQueued' | 'priceBasket'> &
    Pick<OrderReads, 'get' | 'history'> &
    OrderEvents & { undo: Pick<UndoService, 'cancel' | 'ofOrder'> };
  /** The queue's caps, checked in the same turn as the journal write. */
  queue: Pick<ChargeQueue, 'assertRoom'>;
  /** The counter's terminal serial number (the box office does not know it). */
  terminalSn: () => string | null;
  now: () => number;
  /** A charge was recorded or changed: queue its callbacks. */
  onCharge: (charge: ChargeRow) => void;
  /** A new charge was recorded (the cashier's screen opens it). */
  onNew?: (order: OrderView, origin: ChargeOrigin) => void;
}

export interface ChargeAnswer {
  created: boolean;
  charge: ChargeView;
}

/** Who asked for an order: shown on the payment panel. */
export interface ChargeOrigin {
  integration: string;
  reference: string;
  source: ChargeSource;
}

/**
 * What the checkout is asked to sell for a request, and the request's hash: a single-type sale
 * checked by the Sell form's rules (its amount cross-checked), or a lines request's basket by card.
 */
function sellable(req: ParsedCharge, sn: string): { input: Record<string, unknown>; hash: string } {
  if (req.form === 'sale') {
    const sale = checkedSale(req, sn);
    return { input: sale, hash: saleHash(req.amountKobo, sale) };
  }
  return { input: { ...basketOf(req), sn }, hash: linesHash(req) };
}

/** Why the counter itself ended a charge before it reached the terminal (by its reason's first words), if it did. */
function endCodeOf(o: OrderView): ChargeView['endCode'] {
  if (o.state !== 'cancelled' || !o.reason) return undefined;
  if (o.reason.startsWith(TERMINAL_CHANGED)) return 'TERMINAL_CHANGED';
  if (o.reason.startsWith(CANCELLED_AT_COUNTER)) return 'CANCELLED_AT_COUNTER';
  return undefined;
}

/** What a paired system reads of its charge: the order as the checkout has it, without the terminal. */
/** What happened to a paid charge after the sale: its cancelled seats, its refunds, the sales it was exchanged into. */
function afterSale(after: { refunds: RefundView[]; links: SaleLinks }): Partial<ChargeView> {
  const { refunds, links } = after;
  return {
    ...(links.cancelledSeats.length ? { cancelledSeats: links.cancelledSeats } : {}),
    ...(refunds.length
      ? {
          refunds: refunds.map((r) => ({
            refundNo: r.refundNo,
            tender: r.tender,
            amountKobo: r.amountKobo,
            seats: r.seats,
            at: r.at,
            ...(r.returned ? { returnedAt: r.returned.at } : {}),
          })),
        }
      : {}),
    ...(links.exchangedTo.length ? { exchangedTo: links.exchangedTo.map((l) => l.outOrderNo) } : {}),
  };
}

function toChargeView(
  c: ChargeRow,
  o: OrderView,
  integrationName: string,
  version: number,
  after: Partial<ChargeView>,
): ChargeView {
  const { sn: _sn, ...sale } = o.sale;
  const endCode = endCodeOf(o);
  return {
    reference: c.reference,
    integration: integrationName,
    state: o.state,
    final: isFinalState(o.state),
    version,
    amountKobo: o.amountKobo,
    sale,
    ...(o.basket ? { basket: o.basket } : {}),
    outOrderNo: o.outOrderNo,
    ...(o.orderNo ? { orderNo: o.orderNo } : {}),
    ...(o.payNo ? { payNo: o.payNo } : {}),
    ...(o.senderAccount ? { payerAccount: o.senderAccount } : {}),
    ...(o.senderName ? { payerName: o.senderName } : {}),
    ...(o.reason ? { reason: o.reason } : {}),
    ...(endCode ? { endCode } : {}),
    createdAt: o.createdAt,
    expiresAt: o.expiresAt,
    ...(o.completedTime !== undefined ? { completedAt: o.completedTime } : {}),
    ...(o.late?.kind === 'paid-after-closing'
      ? {
          latePayment: {
            ...(o.late.payNo ? { payNo: o.late.payNo } : {}),
            amountKobo: o.late.amountKobo,
            at: lateAt(o.late),
          },
        }
      : {}),
    ...after,
  };
}

/** Throws what the checkout's refusal of a sale means to the paired system (an error of its API), or the error as it was. */
function rethrowRefusal(e: unknown): never {
  if (isAppError(e)) {
    if (e.code === 'VALIDATION')
      throw new IntegrationApiError(
        422,
        'VALIDATION',
        e.message,
        (e.details as { fields?: Record<string, string> } | undefined)?.fields,
      );
    if (e.code === 'PROVIDER_NOT_CONFIGURED') throw new IntegrationApiError(503, 'PROVIDER_NOT_CONFIGURED', e.message);
    if (e.code === 'NOT_READY') throw new IntegrationApiError(503, 'NOT_READY', e.message);
    if (e.code === 'NO_SHIFT') {
      throw new IntegrationApiError(
        409,
        'NO_SHIFT',
        'No cashier shift is open on this counter, so it takes no charge: nothing was charged. Ask the cashier to open a shift, then send the same request again.',
      );
    }
    throw new IntegrationApiError(500, 'INTERNAL', e.message);
  }
  throw e;
}

/** The approval's refusals (the PIN guard's, the Hub's codes'): nothing was cancelled. */
const NOT_APPROVED = new Set([
  'PIN_WRONG',
  'PIN_LOCKED',
  'PIN_NOT_SET',
  'APPROVAL_REFUSED',
  'FORBIDDEN',
  'UNAUTHORIZED',
]);

/** Throws what the engine's refusal of a cancel means to the paired system. */
function rethrowUndoRefusal(e: unknown): never {
  if (isAppError(e)) {
    if (NOT_APPROVED.has(e.code) || (e.code === 'NOT_READY' && /approval code/i.test(e.message)))
      throw new IntegrationApiError(403, 'NOT_APPROVED', `Not approved, nothing was cancelled: ${e.message}`);
    if (e.code === 'CONFLICT' || e.code === 'NOT_FOUND')
      throw new IntegrationApiError(409, 'CANNOT_CANCEL', `${e.message} Nothing was cancelled.`);
    if (e.code === 'NO_SHIFT')
      throw new IntegrationApiError(
        409,
        'NO_SHIFT',
        'No cashier shift is open on this counter: a cancel and its refund are counted in a shift. Nothing was cancelled; ask the cashier to open a shift.',
      );
  }
  rethrowRefusal(e);
}

/** A box office's refund request as the engine's cancel (every seat still valid when none is named). */
async function cancelPaid(
  undo: Pick<UndoService, 'cancel' | 'ofOrder'>,
  c: ChargeRow,
  o: OrderView,
  integrationName: string,
  body: unknown,
): Promise<void> {
  const parsed = ChargeRefundRequestSchema.safeParse(body);
  if (!parsed.success)
    throw new IntegrationApiError(
      422,
      'VALIDATION',
      'Check the refund request: some fields need fixing.',
      issueFields(parsed.error.issues),
    );
  const req = parsed.data;
  const gone = new Set(o.state === 'paid' ? undo.ofOrder(c.orderId).links.cancelledSeats : []);
  const seats = req.seats ?? seatList(o.sale.seats).filter((s) => !gone.has(s));
  if (seats.length === 0)
    throw new IntegrationApiError(
      409,
      'CANNOT_CANCEL',
      `Every ticket of booking ${c.reference} is already cancelled: nothing more to cancel.`,
    );
  try {
    await undo.cancel({
      orderId: c.orderId,
      seats,
      concessions: [],
      reason: req.reason,
      note: req.note ?? '',
      approval: req.approval,
      cashier: integrationName,
    });
  } catch (e) {
    rethrowUndoRefusal(e);
  }
}

export function createChargeDesk(deps: ChargeDeskDeps) {
  const { store, checkout } = deps;

  function orderOf(c: ChargeRow): OrderView {
    const v = checkout.get(c.orderId);
    if (!v)
      throw new IntegrationApiError(
        500,
        'INTERNAL',
        `The order of booking ${c.reference} is missing from the journal.`,
      );
    return v;
  }

  function viewOf(c: ChargeRow, integrationName: string): ChargeView {
    const o = orderOf(c);
    const after = o.state === 'paid' ? afterSale(checkout.undo.ofOrder(c.orderId)) : {};
    return toChargeView(c, o, integrationName, Math.max(1, checkout.history(c.orderId).length), after);
  }

  function find(integration: IntegrationRow, reference: string): ChargeRow {
    const c = store.chargeByReference(integration.id, reference);
    if (!c)
      throw new IntegrationApiError(
        404,
        'NOT_FOUND',
        `There is no charge with booking reference ${reference} from ${integration.name}.`,
      );
    return c;
  }

  return {
    viewOf,

    /**
     * One charge per booking reference. Synchronous from the lookup to the journal write (no
     * await between them), so parallel identical requests find the first one's charge.
     */
    async charge(integration: IntegrationRow, body: unknown, source: ChargeSource): Promise<ChargeAnswer> {
      const req = parseCharge(body);
      checkChargeCallback(integration, req.callbackUrl);
      const existing = store.chargeByReference(integration.id, req.reference);
      if (existing) {
        if (sellable(req, orderOf(existing).sn).hash !== existing.requestHash) {
          const o = orderOf(existing);
          throw new IntegrationApiError(
            409,
            'REFERENCE_REUSED',
            `Booking reference ${req.reference} was already charged for another sale (${formatNaira(o.amountKobo)}, ${o.sale.filmName ? `${o.sale.filmName}, seats ${o.sale.seats}` : 'concessions'}). Send a new booking reference for a new sale; read the charge of this one with GET /v1/charges/${req.reference}.`,
          );
        }
        return { created: false, charge: viewOf(existing, integration.name) };
      }
      const sn = deps.terminalSn();
      if (!sn)
        throw new IntegrationApiError(
          503,
          'NOT_READY',
          'No payment terminal is chosen on this counter yet: the cashier chooses it on the Sell screen. Nothing was charged; send the request again.',
        );
      const { input, hash } = sellable(req, sn);
      checkLinesAmount(req, checkout.priceBasket);
      deps.queue.assertRoom(integration);
      let order: OrderView;
      try {
        order = await checkout.sell(input as Parameters<SaleDoors['sell']>[0], {
          whenBusy: 'queue',
          alongside: (orderId) =>
            store.addCharge({
              integrationId: integration.id,
              reference: req.reference,
              orderId,
              requestHash: hash,
              source,
              callbackUrl: req.callbackUrl ?? null,
              createdAt: deps.now(),
            }),
        });
      } catch (e) {
        rethrowRefusal(e);
      }
      const c = store.chargeByOrder(order.id);
      if (!c) throw new IntegrationApiError(500, 'INTERNAL', 'The charge was not recorded.');
      deps.onCharge(c);
      deps.onNew?.(order, { integration: integration.name, reference: c.reference, source });
      return { created: true, charge: viewOf(c, integration.name) };
    },

    read(integration: IntegrationRow, reference: string): ChargeView {
      return viewOf(find(integration, reference), integration.name);
    },

    /** The charge once its version is past `after`, or as it is when `timeoutMs` runs out (or `signal` aborts). */
    wait(
      integration: IntegrationRow,
      reference: string,
      after: number,
      timeoutMs: number,
      signal: AbortSignal,
    ): Promise<ChargeView> {
      const c = find(integration, reference);
      const now = viewOf(c, integration.name);
      if (now.version > after || now.final) return Promise.resolve(now);
      return new Promise((resolve) => {
        const done = () => {
          off();
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve(viewOf(c, integration.name));
        };
        const off = checkout.on('order', (v) => {
          if (v.id === c.orderId && (checkout.history(c.orderId).length > after || isFinalState(v.state))) done();
        });
        const timer = setTimeout(done, timeoutMs);
        signal.addEventListener('abort', done);
      });
    },

    cancel(integration: IntegrationRow, reference: string): ChargeView {
      const c = find(integration, reference);
      try {
        checkout.cancelQueued(
          c.orderId,
          `Cancelled by ${integration.name} (booking ${reference}) before it reached the terminal`,
        );
      } catch (e) {
        if (isAppError(e) && e.code === 'CONFLICT') throw new IntegrationApiError(409, 'CANNOT_CANCEL', e.message);
        throw e;
      }
      return viewOf(c, integration.name);
    },

    /**
     * Cancels tickets of a paid charge (every seat still valid when `seats` is left out) through the
     * engine's own cancel: the same rules, the supervisor's approval checked there, the seats
     * released, the refund owed recorded; the box office hears it by its callback too.
     */
    async refund(integration: IntegrationRow, reference: string, body: unknown): Promise<ChargeView> {
      const c = find(integration, reference);
      await cancelPaid(checkout.undo, c, orderOf(c), integration.name, body);
      return viewOf(c, integration.name);
    },

    deliveries(integration: IntegrationRow, reference: string) {
      return store.deliveryLog(find(integration, reference).id);
    },

    /** Which system asked for this order, if one did. */
    originOf(orderId: number): ChargeOrigin | null {
      const c = store.chargeByOrder(orderId);
      if (!c) return null;
      return {
        integration: store.integration(c.integrationId)?.name ?? 'an integration',
        reference: c.reference,
        source: c.source,
      };
    },
  };
}
export type ChargeDesk = ReturnType<typeof createChargeDesk>;
