// The ticket sale and its payment order as the renderer sees them: the sale form's schema, the
// order's states in cashier words, the order view and its history. zod only.
import { z } from 'zod';
import { RecordProfile } from './record-profile';
import { LateOutcomeSchema } from './late-payments';
import { SEAT_LABEL_RE, splitSeats } from './seat-list';
import { SoldBasketSchema } from './sold-basket';

/** At most this many tickets in one sale (the sale form; a basket too). */
export const MAX_TICKETS = 50;
/** A typo guard, not a business rule: no single ticket costs more than ₦10,000,000. */
const MAX_PRICE_KOBO = 1_000_000_000;

function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= (days[mo - 1] ?? 0);
}

const text = (what: string, max: number) =>
  z
    .string({ error: `Enter the ${what}` })
    .trim()
    .min(1, `Enter the ${what}`)
    .max(max, `The ${what} is at most ${max} characters`);

/** What the cashier is told when the sale form has a wrong field (each field says what is wrong). */
export const SALE_INVALID = 'Check the sale: some fields need fixing';

/** The sale number of an unpaid order the cashier chose to leave on the terminal while charging another. */
export const BesideWaiting = z.string().max(64).optional();

export const SaleInputSchema = z
  .object({
    filmName: text('film name', 100),
    filmTitle: text('film title', 100),
    showDate: z
      .string({ error: 'Enter the show date' })
      .trim()
      .refine(isCalendarDate, 'Enter the show date as yyyy-MM-dd, for example 2025-03-31'),
    showTime: z
      .string({ error: 'Enter the show time' })
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter the show time as HH:mm (24-hour), for example 19:30'),
    seats: z
      .string({ error: 'Enter the seats, for example F7,F8' })
      .trim()
      .min(1, 'Enter the seats, for example F7,F8')
      .max(400, 'Too many seats in one sale')
      .superRefine((v, ctx) => {
        const labels = splitSeats(v);
        const bad = labels.find((s) => !SEAT_LABEL_RE.test(s));
        if (bad !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message:
              bad === ''
                ? 'A seat is missing between commas: write the seats like F7,F8'
                : `"${bad}" is not a seat: use letters and digits only, separated by commas (F7,F8)`,
          });
          return;
        }
        const seen = new Set<string>();
        for (const s of labels) {
          if (seen.has(s)) ctx.addIssue({ code: 'custom', message: `Seat ${s} is listed twice` });
          seen.add(s);
        }
      })
      .transform((v) => splitSeats(v).join(',')),
    tickets: z
      .number({ error: `Enter the number of tickets (1 to ${MAX_TICKETS})` })
      .int(`Tickets must be a whole number from 1 to ${MAX_TICKETS}`)
      .min(1, `Tickets must be a whole number from 1 to ${MAX_TICKETS}`)
      .max(MAX_TICKETS, `At most ${MAX_TICKETS} tickets in one sale: split larger groups into several sales`),
    priceKobo: z
      .number({ error: 'Enter the ticket price' })
      .int('The ticket price must be a whole number of kobo')
      .positive('The ticket price must be more than ₦0.00')
      .max(MAX_PRICE_KOBO, 'The ticket price looks wrong (over ₦10,000,000): check it'),
    bookingFeeKobo: z
      .number({ error: 'Enter the booking fee (0 when there is none)' })
      .int('The booking fee must be a whole number of kobo')
      .min(0, 'The booking fee cannot be negative')
      .max(MAX_PRICE_KOBO, 'The booking fee looks wrong (over ₦10,000,000): check it')
      .default(0),
    sn: z
      .string({ error: 'Enter the terminal serial number (SN)' })
      .trim()
      .regex(
        /^[A-Za-z0-9-]{6,32}$/,
        'The terminal serial number (SN) is 6 to 32 letters, digits or dashes: see the label on the terminal',
      ),
    /** The cashier's decision to charge while this sale number still waits on the same terminal (never stored with the sale). */
    besideWaiting: BesideWaiting,
  })
  // A field this form does not know (a misspelt or renamed fee) is refused, never dropped: dropping it would charge another amount.
  .strict()
  .superRefine((s, ctx) => {
    const seats = splitSeats(s.seats).length;
    if (seats !== s.tickets) {
      ctx.addIssue({
        code: 'custom',
        path: ['seats'],
        message: `${seats} seat${seats === 1 ? '' : 's'} listed for ${s.tickets} ticket${s.tickets === 1 ? '' : 's'}: list one seat per ticket`,
      });
    }
  });
/** What the sale form sends (bookingFeeKobo may be left out). */
export type SaleInput = z.input<typeof SaleInputSchema>;
/** A checked sale: trimmed, seats normalised ("F7,F8"), bookingFeeKobo filled in. */
export type Sale = z.output<typeof SaleInputSchema>;

/**
 * The booking fee is per ticket on both ways of selling (the programme and the hand-typed form); a
 * sale stores the fee for all its tickets (`bookingFeeKobo`), which is what the customer pays and
 * what every stored sale holds, so rows written before the typed form was per ticket read the same.
 */
export function bookingFeeForSale(tickets: number, feePerTicketKobo: number): number {
  return tickets * feePerTicketKobo;
}

/** The fee per ticket of a stored sale, when its fee divides evenly over its tickets (a typed sale from before may not). */
export function bookingFeePerTicket(sale: Pick<Sale, 'tickets' | 'bookingFeeKobo'>): number | null {
  return sale.tickets > 0 && sale.bookingFeeKobo % sale.tickets === 0 ? sale.bookingFeeKobo / sale.tickets : null;
}

/** "2 × ₦200.00" for a sale's booking fee (just the amount for one ticket, or when it does not divide evenly). */
export function bookingFeeText(
  sale: Pick<Sale, 'tickets' | 'bookingFeeKobo'>,
  naira: (kobo: number) => string,
): string {
  const per = bookingFeePerTicket(sale);
  return per === null || sale.tickets === 1 ? naira(sale.bookingFeeKobo) : `${sale.tickets} × ${naira(per)}`;
}

/** Ticket subtotal (tickets x price) and the amount the customer pays (subtotal + fee), in kobo. */
export function saleAmounts(sale: Pick<Sale, 'tickets' | 'priceKobo' | 'bookingFeeKobo'>): {
  ticketsKobo: number;
  bookingFeeKobo: number;
  amountKobo: number;
} {
  const ticketsKobo = sale.tickets * sale.priceKobo;
  const amountKobo = ticketsKobo + sale.bookingFeeKobo;
  if (!Number.isSafeInteger(ticketsKobo) || !Number.isSafeInteger(amountKobo))
    throw new RangeError('amount out of range');
  return { ticketsKobo, bookingFeeKobo: sale.bookingFeeKobo, amountKobo };
}

// ---- states ----

export const ORDER_STATES = [
  'queued',
  'creating',
  'waiting',
  'paid',
  'failed',
  'cancelled',
  'expired',
  'unknown',
] as const;
export const OrderState = z.enum(ORDER_STATES);
export type OrderState = z.infer<typeof OrderState>;

/**
 * States that never change again.
 * @internal for tests
 */
export const FINAL_STATES: readonly OrderState[] = ['paid', 'failed', 'cancelled', 'expired'];
/** States in which an order may still be on the terminal's screen, waiting for a card: one such order per terminal. */
export const ON_TERMINAL_STATES: ReadonlySet<OrderState> = new Set<OrderState>(['creating', 'waiting', 'unknown']);

export function isFinalState(s: OrderState): boolean {
  return FINAL_STATES.includes(s);
}

export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  queued: 'Waiting for the network',
  creating: 'Sending to the terminal',
  waiting: 'Waiting for payment',
  paid: 'Paid',
  failed: 'Payment failed',
  cancelled: 'Cancelled on the terminal',
  expired: 'Expired',
  unknown: 'Checking the payment',
};

/**
 * What the cashier tells the customer in each state.
 * @internal for tests
 */
export const ORDER_STATE_CUSTOMER_LINES: Record<OrderState, string> = {
  queued:
    'The network is down for a moment. Please wait: the payment will appear on the terminal as soon as we are back online.',
  creating: 'One moment please: the payment is being sent to the terminal.',
  waiting: 'Please tap, insert or swipe your card on the terminal and follow its instructions.',
  paid: 'Payment received, thank you. Here are your tickets.',
  failed: 'The payment did not go through. You can try again, or use another card.',
  cancelled: 'The payment was cancelled on the terminal. We can start again when you are ready.',
  expired: 'The payment timed out before it was completed. We can start again when you are ready.',
  unknown: 'We are confirming the payment with the bank. Please do not pay again; this takes a moment.',
};

/**
 * The first words of the reason of a sale queued because another payment holds its terminal (a box
 * office's charge waits its turn): the engine writes them, the screens name the state by them.
 */
export const WAITING_FOR_TERMINAL = 'Waiting for the terminal';

/**
 * The first words of the reason of a queued sale the counter did not send because, when its turn
 * came, the counter charged on another terminal than the one it was asked for (it ends cancelled;
 * a box office reads `endCode: TERMINAL_CHANGED`).
 */
export const TERMINAL_CHANGED = 'Not sent: the counter changed terminals';

/** Is this sale queued for its terminal (another payment is on it), not for the network? */
export function waitsForTerminal(o: { state: OrderState; reason?: string | undefined }): boolean {
  return o.state === 'queued' && (o.reason ?? '').startsWith(WAITING_FOR_TERMINAL);
}

/** The state's name for one order: a sale queued for its terminal says so, not "network". */
export function orderStateLabel(o: { state: OrderState; reason?: string | undefined }): string {
  return waitsForTerminal(o) ? WAITING_FOR_TERMINAL : ORDER_STATE_LABELS[o.state];
}

/** What the cashier tells the customer about one order. */
export function orderCustomerLine(o: { state: OrderState; reason?: string | undefined }): string {
  return waitsForTerminal(o)
    ? 'Another payment is on the terminal just now. Please wait: yours appears on it as soon as it is free.'
    : ORDER_STATE_CUSTOMER_LINES[o.state];
}

// ---- views ----

/** What was sold, as a view shows it (the cinema's booking fee is for the whole sale). */
export const SaleFieldsView = z.object({
  filmName: z.string(),
  filmTitle: z.string(),
  showDate: z.string(),
  showTime: z.string(),
  seats: z.string(),
  tickets: z.number().int(),
  priceKobo: z.number().int(),
  bookingFeeKobo: z.number().int(),
});

export const OrderViewSchema = z.object({
  id: z.number().int().positive(),
  outOrderNo: z.string(),
  state: OrderState,
  /** The sale as entered (checked and normalised); its bookingFeeKobo is the cinema's booking fee. */
  sale: SaleFieldsView.extend({ sn: z.string() }),
  /** What the card order on the terminal is for: tickets x price + booking fee for a sale of one ticket type by card; a basket's card part (0 when all cash). */
  amountKobo: z.number().int(),
  /** A basket sale's lines, tender and amounts (absent for a sale of one ticket type typed or sold before baskets: read every sale with `soldBasketOf`). */
  basket: SoldBasketSchema.optional(),
  sn: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  orderNo: z.string().optional(),
  payNo: z.string().optional(),
  /** The provider's transaction fee (not the booking fee). */
  providerFeeKobo: z.number().int().optional(),
  feePattern: z.string().optional(),
  senderName: z.string().optional(),
  /** Always masked: at most the last four digits show. */
  senderAccount: z.string().optional(),
  transactionTime: z.number().optional(),
  completedTime: z.number().optional(),
  /** Why the order is queued, unknown, failed, cancelled or expired, in cashier words. */
  reason: z.string().optional(),
  /** How many times the order was sent to the provider. */
  attempts: z.number().int().nonnegative(),
  /** When the app will next send or check this order (ms epoch), while it is not final. */
  nextActionAt: z.number().optional(),
  /** The provider's own status word, as last reported (PENDING, SUCCESS, ...). */
  providerStatus: z.string().optional(),
  /** The order this sale repeats (retrySale), if any. */
  retryOf: z.number().int().optional(),
  /** The profile the sale was made under (Demo sales are play money). */
  profile: RecordProfile.optional(),
  /** A provider outcome that contradicts this closed order (paid after closing), and its handling. */
  late: LateOutcomeSchema.optional(),
  /**
   * A sale of a show with a seat map: its show and seats, and how their hold went (null while it is
   * asked; "unchecked": not checked across counters, `note` says why; "taken": at another counter;
   * "refused": the Hub would not hold them, `note` says why — a taken or refused sale is not sent).
   */
  seatHold: z
    .object({
      showKey: z.string(),
      /** The screen as the programme names it ("Screen 1"). */
      screen: z.string(),
      seats: z.array(z.string()),
      outcome: z.enum(['held', 'unchecked', 'taken', 'refused']).nullable(),
      note: z.string().nullable(),
    })
    .optional(),
  /**
   * The last "Check with the provider" of this closed order (one status query, its answer
   * recorded): Try again is offered, and accepted by the engine, only when it said not paid.
   */
  lastCheck: z
    .object({
      at: z.number(),
      /** The provider's status word (SUCCESS, FAIL, CLOSE, ...), or NOT_FOUND when it has no such order. */
      providerStatus: z.string(),
      paid: z.boolean(),
    })
    .optional(),
});
export type OrderView = z.infer<typeof OrderViewSchema>;

export const OrderEventSchema = z.object({
  at: z.number(),
  /** null for the event that records the sale. */
  from: OrderState.nullable(),
  to: OrderState,
  note: z.string(),
});
export type OrderEvent = z.infer<typeof OrderEventSchema>;

export const ConnectivitySchema = z.object({ online: z.boolean(), queueLength: z.number().int().nonnegative() });
export type Connectivity = z.infer<typeof ConnectivitySchema>;

/**
 * A film the counter sold before: its title, price and booking fee per ticket are offered again. A
 * film remembered before the fee was per ticket on the typed form kept the fee of a whole sale
 * (`bookingFeeKobo`, no longer read): it offers no fee, so the cashier types it.
 */
export const FilmMemorySchema = z.object({
  filmName: z.string(),
  filmTitle: z.string(),
  priceKobo: z.number().int(),
  bookingFeePerTicketKobo: z.number().int().optional(),
  lastShowTime: z.string().nullable(),
});
export type FilmMemory = z.infer<typeof FilmMemorySchema>;
